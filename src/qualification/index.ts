import { randomUUID } from 'node:crypto';
import type { Sequelize } from 'sequelize';
import { createLlm, LlmOutputError, LLM_TIMEOUT_MS, priceTokens, selectLlm, type FetchLike, type Llm, type LlmUsage } from '../ai';
import type { Config } from '../config/config';
import { egressFor } from '../egress';
import type { Logger } from '../log/logger';
import { recordCost } from '../costs/cost-repository';
import { classifyBuiltin } from './builtin/classifier';
import type { Qualification, ReplyInput } from './categories';
import { LlmAnswerError, qualifyWithLlm } from './llm';

export { CATEGORIES, SENTIMENTS, sentimentOf, type Category, type Qualification, type QualifiedBy, type ReplyInput, type Sentiment } from './categories';
export { NEXT_ACTIONS, NEXT_ACTIONS_BY_CATEGORY, type NextActionSlug } from './next-actions';
export { classifyBuiltin } from './builtin/classifier';

export interface QualifyDeps {
  readonly sequelize: Sequelize;
  readonly config: Config;
  readonly log: Logger;
}

export interface QualifyOptions {
  /** The campaign the reply belongs to: its LLM cost is charged to it. */
  readonly campaignId?: string;
  /** A retried caller passes the same key (e.g. the reply id) and the LLM cost is recorded once. */
  readonly idempotencyKey?: string;
  /** When the reply arrived; return and follow-up dates are read relative to it. Default: now. */
  readonly now?: Date;
  /** The HTTP client for the provider. Default: the service's egress client. */
  readonly fetch?: FetchLike;
}

/** What reply qualification spends is charged under this feature. */
export const QUALIFICATION_FEATURE = 'reply-qualification';

/**
 * Qualifies one reply: with the account's LLM when it has set an OpenAI or Anthropic key,
 * otherwise with the built-in classifier.
 *
 * The LLM path never loses a reply: if the key cannot be read, the provider fails (after the SDK's
 * retries) or its answer is unusable, the built-in classifier answers instead (`qualifiedBy:
 * 'builtin'`) and a warning is logged. Tokens the provider charged for are recorded as an
 * `ai_generation` cost (`<provider>:<model>`, feature 'reply-qualification') even when the answer
 * was unusable. A failure to record the cost (the database) is not swallowed: the caller retries.
 */
export async function qualifyReply(deps: QualifyDeps, accountId: string, input: ReplyInput, opts: QualifyOptions = {}): Promise<Qualification> {
  const now = opts.now ?? new Date();
  const builtin = (): Qualification => {
    const b = classifyBuiltin(input, { now });
    return { category: b.category, sentiment: b.sentiment, confidence: b.confidence, nextAction: b.nextAction, qualifiedBy: 'builtin' };
  };

  let llm: Llm;
  try {
    const integration = await selectLlm(deps.sequelize, accountId);
    if (integration === null) return builtin();
    llm = createLlm(integration, deps.config, opts.fetch ?? egressFor(deps.config).fetchWith({ timeoutMs: LLM_TIMEOUT_MS }));
  } catch (err) {
    deps.log.warn({ accountId, err: (err as Error).message }, 'could not set up the LLM for reply qualification; using the built-in classifier');
    return builtin();
  }

  const charge = async (usage: LlmUsage, costUsd: number, model: string, outcome: string): Promise<void> => {
    await deps.sequelize.transaction(async (tx) => {
      await recordCost(deps.sequelize, tx, {
        accountId,
        campaignId: opts.campaignId ?? null,
        category: 'ai_generation',
        costName: `${llm.provider}:${llm.model}`,
        featureSlug: QUALIFICATION_FEATURE,
        amountUsd: costUsd,
        details: { model, input_tokens: usage.inputTokens, output_tokens: usage.outputTokens, outcome },
        idempotencyKey: `${QUALIFICATION_FEATURE}:${opts.idempotencyKey ?? randomUUID()}`,
        occurredAt: now,
      });
    });
  };

  let outcome: Awaited<ReturnType<typeof qualifyWithLlm>>;
  try {
    outcome = await qualifyWithLlm(llm, input, now);
  } catch (err) {
    // Spent tokens are charged even when the answer was unusable.
    if (err instanceof LlmOutputError) await charge(err.usage, priceTokens(llm.model, err.usage), llm.model, err.problem);
    else if (err instanceof LlmAnswerError) await charge(err.call.usage, err.call.costUsd, err.call.model, 'out_of_range');
    deps.log.warn({ accountId, provider: llm.provider, model: llm.model, err: (err as Error).message }, 'LLM reply qualification failed; using the built-in classifier');
    return builtin();
  }
  await charge(outcome.call.usage, outcome.call.costUsd, outcome.call.model, 'ok');
  return outcome.qualification;
}

import { ApplicationFailure } from '@temporalio/common';
import { createLlm } from '../../src/ai/create-llm';
import { LLM_TIMEOUT_MS } from '../../src/ai/defaults';
import { LlmError, LlmOutputError, LlmProviderError } from '../../src/ai/errors';
import { priceFor } from '../../src/ai/pricing';
import { selectLlm } from '../../src/ai/select-llm';
import type { FetchLike } from '../../src/ai/types';
import { egressFor } from '../../src/egress';
import { recordCost } from '../../src/costs/cost-repository';
import { writeBuiltinEmail } from '../../src/writing/builtin/write-builtin';
import { writeWithLlm, type LlmWrite } from '../../src/writing/llm/write-with-llm';
import type { WriteEmailInput, WrittenEmail } from '../../src/writing/types';
import type { ActivityDeps } from '../index';

export type { WriteEmailInput, WrittenEmail } from '../../src/writing/types';

export interface WriteEmailActivityInput {
  readonly accountId: string;
  readonly campaignId: string;
  readonly leadId: string;
  readonly brandId?: string | null;
  readonly content: WriteEmailInput;
}

/** The cost key of one written email: a retried activity is charged once. */
export const writeCostKey = (campaignId: string, leadId: string, step: number): string => `write:${campaignId}:${leadId}:${step}`;

/**
 * The `writeEmail` activity: subject, HTML and text of one step for one lead. With an OpenAI or
 * Anthropic key on the account, that provider writes it with the account's model, and the priced
 * tokens are recorded as an `ai_generation` cost (`openai:<model>` / `anthropic:<model>`,
 * feature `email-writing`). Without a key, the built-in writer does, and nothing is recorded: it
 * costs nothing, and a zero-amount row would only add noise to cost lists and webhooks.
 *
 * Failures, as ApplicationFailures typed for the workflow:
 * - 'LlmRejected' (not retryable): the provider refused the key, the permission, the model or the
 *   request, or its address is blocked. Retrying repeats the refusal; the account must fix its settings.
 * - 'LlmUnavailable' (retryable): rate limit, 5xx, timeout, connection error after the SDK's retries.
 * - 'LlmBadOutput' (retryable): two unusable answers in a row.
 * There is no silent fallback to the built-in writer when a configured provider fails.
 */
export function writeEmail(deps: ActivityDeps) {
  let fetch: FetchLike | undefined;
  // One egress client per process (egressFor), with a deadline that allows a full generation.
  const egressFetch = (): FetchLike => (fetch ??= egressFor(deps.config).fetchWith({ timeoutMs: LLM_TIMEOUT_MS }));

  return async (input: WriteEmailActivityInput): Promise<WrittenEmail> => {
    const step = input.content.step.index;
    if (!Number.isInteger(step) || step < 0) throw ApplicationFailure.nonRetryable(`step index must be a non-negative integer, got ${step}`, 'InvalidInput');
    const integration = await selectLlm(deps.sequelize, input.accountId);
    if (integration === null) return writeBuiltinEmail(input.content);

    const llm = createLlm(integration, deps.config, egressFetch());
    let written: LlmWrite;
    try {
      written = await writeWithLlm(llm, input.content);
    } catch (err) {
      throw asFailure(err);
    }
    const { email, usage, costUsd, attempts } = written;
    await deps.sequelize.transaction(async (tx) =>
      recordCost(deps.sequelize, tx, {
        accountId: input.accountId,
        campaignId: input.campaignId,
        brandId: input.brandId ?? null,
        category: 'ai_generation',
        costName: `${llm.provider}:${llm.model}`,
        featureSlug: 'email-writing',
        amountUsd: costUsd,
        quantity: 1,
        details: {
          lead_id: input.leadId,
          step,
          model: email.model,
          input_tokens: usage.inputTokens,
          output_tokens: usage.outputTokens,
          attempts,
          pricing: priceFor(email.model ?? llm.model).matched === null ? 'fallback' : 'table',
        },
        idempotencyKey: writeCostKey(input.campaignId, input.leadId, step),
      }),
    );
    deps.log.debug({ campaignId: input.campaignId, leadId: input.leadId, step, writer: email.writer, model: email.model, costUsd }, 'email written');
    return email;
  };
}

function asFailure(err: unknown): unknown {
  if (err instanceof LlmProviderError) {
    const details = { provider: err.provider, kind: err.kind, status: err.status ?? null };
    return err.retryable ? ApplicationFailure.retryable(err.message, 'LlmUnavailable', details) : ApplicationFailure.nonRetryable(err.message, 'LlmRejected', details);
  }
  if (err instanceof LlmOutputError) return ApplicationFailure.retryable(err.message, 'LlmBadOutput', { provider: err.provider, problem: err.problem });
  if (err instanceof LlmError) return ApplicationFailure.retryable(err.message, 'LlmError');
  return err;
}

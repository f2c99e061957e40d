import type { Sequelize } from 'sequelize';
import { createLlm } from '../ai/create-llm';
import { LLM_TIMEOUT_MS } from '../ai/defaults';
import { selectLlm } from '../ai/select-llm';
import type { FetchLike } from '../ai/types';
import type { Config } from '../config/config';
import { egressFor } from '../egress';
import { InvalidInputError } from '../errors/domain-errors';
import type { Logger } from '../log/logger';
import { writeBuiltinEmail } from './builtin/write-builtin';
import { writeWithLlm } from './llm/write-with-llm';
import type { WriteEmailInput, WrittenEmail } from './types';
import { recordWritingCost } from './writing-cost';

export interface WriterDeps {
  readonly sequelize: Sequelize;
  readonly config: Config;
  readonly log: Logger;
}

/** One step of a campaign's sequence for one lead, and whom its cost is charged to. */
export interface WriteStepInput {
  readonly accountId: string;
  readonly campaignId: string;
  readonly leadId: string;
  readonly brandId?: string | null;
  readonly content: WriteEmailInput;
  /**
   * How the LLM's tokens are charged when not as the campaign's email: a preview is charged under
   * its own key and feature (`email-preview`), so a later real send of the same step is charged too.
   */
  readonly charge?: { readonly costKey: string; readonly featureSlug: string; readonly campaignId: string | null };
}

/**
 * Writes subject, HTML and text of one step for one lead. With an OpenAI or Anthropic key on the
 * account, that provider writes it with the account's model, and the priced tokens are recorded as
 * an `ai_generation` cost (see recordWritingCost), once however often the same step is written.
 * Without a key, the built-in writer does, and nothing is recorded: it costs nothing, and a
 * zero-amount row would only add noise to cost lists and webhooks.
 *
 * A provider's failure is thrown as its LlmError (LlmProviderError: refused or unreachable;
 * LlmOutputError: two unusable answers): there is no silent fallback to the built-in writer when a
 * configured provider fails, since the account chose it. A negative or fractional step index is an
 * InvalidInputError.
 */
export class EmailWriter {
  private fetch: FetchLike | undefined;

  constructor(private readonly deps: WriterDeps) {}

  async write(input: WriteStepInput): Promise<WrittenEmail> {
    const step = input.content.step.index;
    if (!Number.isInteger(step) || step < 0) throw new InvalidInputError(`step index must be a non-negative integer, got ${step}`);
    const integration = await selectLlm(this.deps.sequelize, input.accountId);
    if (integration === null) return writeBuiltinEmail(input.content);

    const llm = createLlm(integration, this.deps.config, this.egressFetch());
    const written = await writeWithLlm(llm, input.content);
    await recordWritingCost(
      this.deps.sequelize,
      llm,
      { accountId: input.accountId, campaignId: input.charge?.campaignId ?? input.campaignId, leadId: input.leadId, brandId: input.brandId ?? null, step },
      written,
      input.charge === undefined ? undefined : { key: input.charge.costKey, featureSlug: input.charge.featureSlug },
    );
    const { email, costUsd } = written;
    this.deps.log.debug({ campaignId: input.campaignId, leadId: input.leadId, step, writer: email.writer, model: email.model, costUsd }, 'email written');
    return email;
  }

  /** One egress client per process (egressFor), with a deadline that allows a full generation. */
  private egressFetch(): FetchLike {
    this.fetch ??= egressFor(this.deps.config).fetchWith({ timeoutMs: LLM_TIMEOUT_MS });
    return this.fetch;
  }
}

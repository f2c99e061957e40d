import type { Sequelize } from 'sequelize';
import type { Config } from '../../config/config';
import { NotFoundError } from '../../errors/domain-errors';
import type { Logger } from '../../log/logger';
import type { EmailSender } from '../../sending/email-sender';
import { SmtpTemporaryFailure } from '../../sending/send-failures';
import type { SendEmailInput, SendEmailResult } from '../../sending/types';
import type { EmailWriter } from '../../writing/email-writer';
import type { WrittenEmail } from '../../writing/types';
import { writeCostKey } from '../../writing/writing-cost';
import type { BatchHalt, BatchItem, BatchItemResult, BatchOutcome, SendBatchInput, SendBatchResult } from '../../../workflows/campaign/contract';
import type { StopFact } from '../model/templates';
import { quotaUse } from '../quota';
import { readBatchContext, type BatchContext } from './batch-context';
import { costOfKeys } from './batch-costs';
import { readItemState, type ItemState } from './item-state';

/** A wait for a mailbox's minimum gap up to this long happens inside the batch; a longer one (a daily cap) defers the rest. */
const MAX_GAP_WAIT_SECONDS = 600;
/** Temporary SMTP failures in a row that point at the relay rather than one recipient: the batch is then retried. */
const MAX_TEMPORARY_IN_A_ROW = 3;
/** Waits are cut into slices this long, with a heartbeat after each. */
const HEARTBEAT_SLICE_MS = 20_000;

export interface BatchDeps {
  readonly sequelize: Sequelize;
  readonly config: Config;
  readonly log: Logger;
  /** Writes each step: the account's LLM or the built-in writer. */
  readonly writer: Pick<EmailWriter, 'write'>;
  /** Sends each email: accepted once per (campaign, lead, step), resent with its Message-ID after a crash (docs/reliability.md). */
  readonly sender: Pick<EmailSender, 'send'>;
}

export interface BatchProgress {
  readonly done: number;
  readonly of: number;
  readonly costUsd: number;
}

/** What the caller runs the batch in: a long batch reports progress, and its waits end when it is cancelled. */
export interface BatchRuntime {
  readonly heartbeat: (progress: BatchProgress) => void;
  readonly sleep: (ms: number) => Promise<void>;
}

const round6 = (usd: number): number => Math.round(usd * 1e6) / 1e6;
const result = (item: BatchItem, outcome: BatchOutcome): BatchItemResult => ({ leadId: item.leadId, step: item.step, outcome });
const stopped = (item: BatchItem, stopFact: StopFact | 'suppressed'): BatchItemResult => ({ ...result(item, 'stopped'), stopFact });

/**
 * One sending day's steps of a campaign, in order. Before each email: the campaign's row must be
 * running, the account's monthly quota have room and the spend stay under `budgetRemainingUsd`;
 * at the first that fails the batch halts and the rest are 'skipped'. A lead whose sequence ended
 * (replied, booked, unsubscribed, bounced in this campaign; or suppressed) is 'stopped' without
 * writing. Otherwise the step is written (EmailWriter) and sent (EmailSender, reserved only while
 * the campaign runs: a pause committed by the API stops the batch at the next email). See
 * BatchRun for the details. A campaign that is not the account's is NotFoundError('campaign').
 */
export async function runCampaignBatch(deps: BatchDeps, runtime: BatchRuntime, input: SendBatchInput): Promise<SendBatchResult> {
  const context = await readBatchContext(deps.sequelize, input.accountId, input.campaignId, input.companyId);
  if (context === null) throw new NotFoundError('campaign');
  const quota = await quotaUse(deps.sequelize, deps.config, input.accountId);
  const outcome = await new BatchRun(deps, runtime, input, context, quota).run();
  deps.log.info(
    { campaignId: input.campaignId, items: input.items.length, sent: outcome.results.filter((r) => r.outcome === 'sent').length, costUsd: outcome.costUsd, halted: outcome.halted },
    'campaign batch done',
  );
  return outcome;
}

/**
 * One run of a batch. A retry of the activity runs it again from the top, and that is correct:
 * an email an earlier attempt settled comes back as it ended (already_sent, bounced, ...) without
 * being written or sent again, and its costs count again because they are summed by their
 * idempotency keys (the workflow never saw the failed attempt's result). One the earlier attempt
 * left mid-transaction (a killed worker) is sent again with the same Message-ID: only the
 * server's acceptance makes an email sent (docs/reliability.md).
 *
 * - Mailboxes: a 'deferred' send because of a mailbox's minimum gap is waited out (heartbeating);
 *   one that must wait longer (every mailbox at its daily cap) is 'deferred', and so is every
 *   item after it, without trying.
 * - A temporary SMTP failure (4xx, connection) defers that one email (its row is 'deferred', the
 *   step stays due and is retried with the same Message-ID): a recipient's full mailbox must not
 *   hold up the day. Several in a row mean the relay is failing: the batch fails with the last
 *   SmtpTemporaryFailure, which a retry may fix.
 * - The writer's failures (the account's LLM refusing the key or model, or down) end the batch
 *   as they are: the caller decides what is retried.
 */
class BatchRun {
  private readonly results: BatchItemResult[] = [];
  private spent = 0;
  private sentNow = 0;
  private halted: BatchHalt | null = null;
  private deferRest = false;
  private temporaryInARow = 0;

  constructor(
    private readonly deps: BatchDeps,
    private readonly runtime: BatchRuntime,
    private readonly input: SendBatchInput,
    private readonly context: BatchContext,
    private readonly quota: { readonly limit: number; readonly sent: number },
  ) {}

  async run(): Promise<SendBatchResult> {
    for (const item of this.input.items) {
      if (this.halted !== null) this.results.push(result(item, 'skipped'));
      else if (this.deferRest) this.results.push(result(item, 'deferred'));
      else this.results.push(await this.process(item));
      this.runtime.heartbeat(this.progress());
    }
    return { results: this.results, costUsd: round6(this.spent), halted: this.halted };
  }

  private progress(): BatchProgress {
    return { done: this.results.length, of: this.input.items.length, costUsd: round6(this.spent) };
  }

  private async process(item: BatchItem): Promise<BatchItemResult> {
    const { accountId, campaignId } = this.input;
    const state = await readItemState(this.deps.sequelize, accountId, campaignId, item.leadId, item.step);
    if (state === null) throw new NotFoundError('campaign');
    // The costs of this email, whoever paid them: its writing, and its sending once its id is known.
    const keys = [writeCostKey(campaignId, item.leadId, item.step)];
    const outcome = await this.decide(item, state, keys);
    this.spent = round6(this.spent + (await costOfKeys(this.deps.sequelize, keys)));
    return outcome;
  }

  private async decide(item: BatchItem, state: ItemState, keys: string[]): Promise<BatchItemResult> {
    // Settled by an earlier attempt: reported as it ended, nothing is written or sent again. A
    // row still 'sending' was left by an attempt that stopped mid-transaction: it is written
    // and sent again below, with its Message-ID (EmailSender).
    if (state.email !== null && state.email.status !== 'deferred' && state.email.status !== 'sending') {
      const settled = await this.deps.sender.send(this.sendInput(item, { subject: state.email.subject, html: '', text: '' }));
      if (settled.emailId !== undefined) keys.push(`send:${settled.emailId}`);
      return this.reported(item, settled, state.email.subject);
    }
    const halt = this.haltBefore(state);
    if (halt !== null) {
      this.halted = halt;
      return result(item, 'skipped');
    }
    if (state.stopFact !== null) return stopped(item, state.stopFact);
    if (state.suppressed || state.lead === null) return stopped(item, 'suppressed');

    const written = await this.deps.writer.write({
      accountId: this.input.accountId,
      campaignId: this.input.campaignId,
      leadId: item.leadId,
      brandId: this.context.brandId,
      content: {
        mcp: this.input.mcp,
        step: { index: item.step, kind: item.kind, delayDays: item.delayDays },
        previousSubject: item.previousSubject,
        lead: state.lead,
        company: this.context.company,
        campaign: this.context.campaign,
      },
    });
    return this.deliver(item, written, keys);
  }

  private haltBefore(state: ItemState): BatchHalt | null {
    if (state.campaignStatus !== 'running') return 'not_running';
    if (this.quota.sent + this.sentNow >= this.quota.limit) return 'quota_exceeded';
    const room = this.input.budgetRemainingUsd;
    if (room !== null && this.spent >= round6(room)) return 'budget_exceeded';
    return null;
  }

  private sendInput(item: BatchItem, content: SendEmailInput['content']): SendEmailInput {
    const last = item.thread[item.thread.length - 1];
    return {
      accountId: this.input.accountId,
      campaignId: this.input.campaignId,
      leadId: item.leadId,
      step: item.step,
      content,
      ...(last === undefined ? {} : { inReplyTo: last, references: item.thread }),
      onlyWhileRunning: true,
    };
  }

  private async deliver(item: BatchItem, written: WrittenEmail, keys: string[]): Promise<BatchItemResult> {
    const input = this.sendInput(item, { subject: written.subject, html: written.html, text: written.text });
    for (;;) {
      let sent: SendEmailResult;
      try {
        sent = await this.deps.sender.send(input);
      } catch (err) {
        if (!(err instanceof SmtpTemporaryFailure) || ++this.temporaryInARow >= MAX_TEMPORARY_IN_A_ROW) throw err;
        this.deps.log.warn({ campaignId: this.input.campaignId, leadId: item.leadId, step: item.step, err }, 'email deferred to the next sending day: temporary SMTP failure');
        return result(item, 'deferred');
      }
      this.temporaryInARow = 0;
      if (sent.emailId !== undefined && !keys.includes(`send:${sent.emailId}`)) keys.push(`send:${sent.emailId}`);
      if (sent.outcome === 'deferred') {
        const wait = sent.retryAfterSeconds ?? MAX_GAP_WAIT_SECONDS + 1;
        if (wait > MAX_GAP_WAIT_SECONDS) {
          this.deferRest = true;
          return result(item, 'deferred');
        }
        await this.wait(wait * 1000);
        continue;
      }
      if (sent.outcome === 'not_running') {
        this.halted = 'not_running';
        return result(item, 'skipped');
      }
      if (sent.outcome === 'sent') this.sentNow++;
      return this.reported(item, sent, written.subject);
    }
  }

  /** A send's outcome as the batch reports it. */
  private reported(item: BatchItem, sent: SendEmailResult, subject: string): BatchItemResult {
    switch (sent.outcome) {
      case 'sent':
      case 'already_sent':
        return { ...result(item, sent.outcome), subject, ...(sent.messageId === undefined ? {} : { messageId: sent.messageId }) };
      case 'bounced':
        return stopped(item, 'bounced');
      case 'suppressed':
        return stopped(item, 'suppressed');
      case 'deferred':
        return result(item, 'deferred');
      case 'not_running':
        return result(item, 'skipped');
    }
  }

  private async wait(ms: number): Promise<void> {
    const until = Date.now() + ms;
    for (let left = ms; left > 0; left = until - Date.now()) {
      await this.runtime.sleep(Math.min(left, HEARTBEAT_SLICE_MS));
      this.runtime.heartbeat(this.progress());
    }
  }
}

import type { Sequelize } from 'sequelize';
import type { Config } from '../../config/config';
import { NotFoundError } from '../../errors/domain-errors';
import type { Logger } from '../../log/logger';
import type { EmailSender } from '../../sending/email-sender';
import { reserveMailboxSlot, type ReservedMailbox } from '../../sending/mailbox-slots';
import { SmtpTemporaryFailure } from '../../sending/send-failures';
import type { SendEmailInput, SendEmailResult } from '../../sending/types';
import type { EmailWriter } from '../../writing/email-writer';
import { writeCostKey } from '../../writing/writing-cost';
import type { BatchHalt, BatchItem, BatchItemResult, BatchOutcome, SendBatchInput, SendBatchResult } from '../../../workflows/campaign/contract';
import type { VariantId } from '../model/sequence';
import type { StopFact } from '../model/templates';
import { quotaUse } from '../quota';
import type { AssembledEmail } from '../sequences/assemble-email';
import type { CompiledStep, CompiledVariant } from '../sequences/compiled-sequence';
import { draftStep, type StepDraft, type ThreadSoFar } from '../sequences/draft-step';
import { recordSkip } from '../sequences/sequence-repository';
import { readBatchContext, type BatchContext, type ContextMailbox, type SenderIdentity } from './batch-context';
import { costOfKeys } from './batch-costs';
import { readItemState, threadOf, type ItemLead, type ItemState } from './item-state';
import { writeStep } from './write-step';

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
const omitted = (item: BatchItem, reason: string, variant: VariantId | null): BatchItemResult => ({
  ...result(item, 'omitted'),
  omittedReason: reason,
  ...(variant === null ? {} : { variant }),
});

/** How one email goes out: through which mailbox slot (null: the default transport), as whom, in which thread. */
interface SendOptions {
  readonly mailbox: ReservedMailbox | null;
  readonly identity: SenderIdentity;
  readonly variant: string | null;
  readonly startsThread: boolean;
  /** The thread the email replies in; null when it opens one. */
  readonly thread: ThreadSoFar | null;
}

/** The mailbox that wrote to the lead last in this campaign: its thread stays with one sender. */
function stickyMailbox(state: ItemState): string | null {
  return state.sentBefore[state.sentBefore.length - 1]?.mailboxId ?? null;
}

/**
 * A step of a campaign without a stored sequence (none since sequences are stored at create, kept
 * for safety): written by the writer from the step's kind, as every step was before.
 */
function legacyStep(item: BatchItem): CompiledStep {
  const variant: CompiledVariant = {
    id: 'A',
    weight: 1,
    mode: 'ai',
    subject: null,
    body: null,
    instructions: null,
    subjectTemplate: null,
    bodyTemplate: null,
    startsThread: item.step === 0,
    kind: item.kind,
  };
  return { delayDays: item.delayDays, variants: [variant], autoWinner: null };
}

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
  const context = await readBatchContext(deps.sequelize, deps.config.defaultFromEmail, input);
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
 * - Mailboxes: only those the campaign may send from (its `mailbox_ids`, else every active mailbox
 *   of the account). A 'deferred' send because of a mailbox's minimum gap is waited out
 *   (heartbeating); one that must wait longer (every mailbox at its daily cap) is 'deferred', and
 *   so is every item after it, without trying. A campaign whose set has no active mailbox waits
 *   the same way (logged): it never sends through another mailbox or the default transport.
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
    // row still 'sending' was left by an attempt that stopped mid-transaction: it is sent again
    // below, with its Message-ID and the content it kept (EmailSender).
    if (state.email !== null && state.email.status !== 'deferred' && state.email.status !== 'sending') {
      const settled = await this.deps.sender.send(this.sendInput(item, { subject: state.email.subject, html: '', text: '' }));
      if (settled.emailId !== undefined) keys.push(`send:${settled.emailId}`);
      return this.reported(item, settled, state.email.subject, state.email.variant);
    }
    if (state.skip !== null) return omitted(item, state.skip.reason, state.skip.variant);
    const halt = this.haltBefore(state);
    if (halt !== null) {
      this.halted = halt;
      return result(item, 'skipped');
    }
    if (state.stopFact !== null) return stopped(item, state.stopFact);
    if (state.suppressed || state.lead === null) return stopped(item, 'suppressed');
    if (state.blockedBy !== null) return { ...stopped(item, 'suppressed'), blockedBy: state.blockedBy };
    const lead = state.lead;
    if (this.context.mailboxSet !== null && this.context.mailboxes.length === 0) {
      this.waitForMailboxes();
      return result(item, 'deferred');
    }

    // Written by an earlier attempt that did not settle: sent again exactly as written.
    const kept = state.email;
    if (kept !== null && kept.text !== null && kept.html !== null) {
      const slot = await this.slot(kept.mailboxId ?? stickyMailbox(state));
      if (slot === 'defer') return result(item, 'deferred');
      const identity = this.context.identity(slot ?? null);
      const thread = kept.startsThread === false ? threadOf(state.sentBefore) : null;
      const content = { subject: kept.subject, text: kept.text, html: kept.html };
      return this.deliver(item, content, keys, { mailbox: slot, identity, variant: kept.variant, startsThread: kept.startsThread ?? item.step === 0, thread });
    }

    const step = this.context.sequence?.steps[item.step] ?? legacyStep(item);
    const thread = threadOf(state.sentBefore);
    const sticky = stickyMailbox(state);
    // Drafted first as the mailbox most likely to send (so a lead without a value costs no mailbox slot), then as the one that will.
    const likely: ContextMailbox | null = this.context.mailboxes.find((m) => m.id === sticky) ?? this.context.mailboxes[0] ?? null;
    let identity = this.context.identity(likely);
    let draft = this.draft(item, step, lead, identity, thread);
    if ('omitted' in draft) return this.omit(item, draft);
    const slot = await this.slot(sticky);
    if (slot === 'defer') return result(item, 'deferred');
    // Another mailbox than the likely one writes it (or, all of the account's deactivated meanwhile, the default transport).
    if ((slot?.id ?? null) !== (likely?.id ?? null)) {
      identity = this.context.identity(slot);
      draft = this.draft(item, step, lead, identity, thread);
      if ('omitted' in draft) return this.omit(item, draft);
    }
    const email = await this.write(item, draft, lead, identity, thread);
    return this.deliver(item, email, keys, { mailbox: slot, identity, variant: draft.variant.id, startsThread: !draft.inThread, thread: draft.inThread ? thread : null });
  }

  private draft(item: BatchItem, step: CompiledStep, lead: ItemLead, identity: SenderIdentity, thread: ThreadSoFar): StepDraft {
    return draftStep({
      step,
      stepIndex: item.step,
      leadKey: item.leadId,
      lead,
      sender: { name: identity.name, email: identity.email, company: identity.company },
      calendarLink: this.context.campaign.calendarLink,
      winner: this.context.winners.get(item.step) ?? null,
      thread,
    });
  }

  /** The step is passed over for this lead, and why is kept (a retry reports the same). */
  private async omit(item: BatchItem, draft: Extract<StepDraft, { omitted: string }>): Promise<BatchItemResult> {
    await recordSkip(this.deps.sequelize, { campaignId: this.input.campaignId, leadId: item.leadId, step: item.step, variant: draft.variant.id, reason: draft.omitted });
    this.deps.log.info({ campaignId: this.input.campaignId, leadId: item.leadId, step: item.step, reason: draft.omitted }, 'step passed over for this lead');
    return omitted(item, draft.omitted, draft.variant.id);
  }

  /** The body (and subject) the template left to the writer, then the signature and the HTML part. */
  private write(item: BatchItem, draft: Exclude<StepDraft, { omitted: string }>, lead: ItemLead, identity: SenderIdentity, thread: ThreadSoFar): Promise<AssembledEmail> {
    const { accountId, campaignId, mcp } = this.input;
    const { brandId, campaign, company } = this.context;
    return writeStep(this.deps.writer, {
      accountId,
      campaignId,
      leadId: item.leadId,
      brandId,
      mcp,
      stepIndex: item.step,
      delayDays: item.delayDays,
      draft,
      lead,
      identity,
      thread,
      campaign,
      company,
      previousSubject: item.previousSubject,
    });
  }

  /**
   * A slot of a mailbox the campaign may send from (the lead's own mailbox while it is active and
   * the campaign's), waiting out a short gap; 'defer' when every candidate is capped for longer, or
   * none of the campaign's set is active (this and every later item of the batch are deferred);
   * null when the campaign names no mailbox and the account has none active: the default transport.
   */
  private async slot(stickTo: string | null): Promise<ReservedMailbox | null | 'defer'> {
    const set = this.context.mailboxSet;
    if (set === null && this.context.mailboxes.length === 0) return null;
    for (;;) {
      const slot = await reserveMailboxSlot(this.deps.sequelize, this.input.accountId, stickTo, this.input.campaignId);
      if ('reserved' in slot) return slot.reserved;
      if (slot.noActiveMailbox === true) {
        // Deactivated while the batch ran: an account left without mailboxes sends as one that never had any; a campaign's set waits.
        if (set === null) return null;
        this.waitForMailboxes();
        return 'defer';
      }
      if (slot.retryAfterSeconds > MAX_GAP_WAIT_SECONDS) {
        this.deferRest = true;
        return 'defer';
      }
      await this.wait(slot.retryAfterSeconds * 1000);
    }
  }

  /**
   * The campaign names mailboxes and none of them is active: it sends nothing (never through
   * another mailbox or the default transport) and waits; this and every later item of the batch
   * are deferred, so their steps stay due for the next sending day. Its GET says so too
   * (`no_active_mailbox`, campaign-read-model.ts).
   */
  private waitForMailboxes(): void {
    this.deferRest = true;
    this.deps.log.warn(
      { campaignId: this.input.campaignId, mailboxIds: this.context.mailboxSet },
      'campaign waits: none of its mailboxes (mailbox_ids) is active; nothing is sent until one is added again or its mailboxes change',
    );
  }

  private haltBefore(state: ItemState): BatchHalt | null {
    if (state.campaignStatus !== 'running') return 'not_running';
    if (this.quota.sent + this.sentNow >= this.quota.limit) return 'quota_exceeded';
    const room = this.input.budgetRemainingUsd;
    if (room !== null && this.spent >= round6(room)) return 'budget_exceeded';
    return null;
  }

  private sendInput(item: BatchItem, content: SendEmailInput['content'], send?: SendOptions): SendEmailInput {
    // A written sequence threads from what was sent (the thread the step replies in, or none);
    // the workflow's own record of the thread serves steps written before sequences were stored.
    const ids = send === undefined ? item.thread : send.thread === null ? [] : send.thread.messageIds;
    const last = ids[ids.length - 1];
    return {
      accountId: this.input.accountId,
      campaignId: this.input.campaignId,
      leadId: item.leadId,
      step: item.step,
      content,
      ...(last === undefined ? {} : { inReplyTo: last, references: ids }),
      onlyWhileRunning: true,
      tracking: this.context.tracking,
      ...(send === undefined
        ? {}
        : { fromName: send.identity.name, variant: send.variant, startsThread: send.startsThread, ...(send.mailbox === null ? {} : { mailbox: send.mailbox }) }),
    };
  }

  private async deliver(item: BatchItem, written: AssembledEmail, keys: string[], send: SendOptions): Promise<BatchItemResult> {
    const input = this.sendInput(item, { subject: written.subject, html: written.html, text: written.text }, send);
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
        // A mailbox added after the batch began: the sender took (or waited for) a slot itself.
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
      return this.reported(item, sent, written.subject, send.variant);
    }
  }

  /** A send's outcome as the batch reports it. */
  private reported(item: BatchItem, sent: SendEmailResult, subject: string, variant: string | null): BatchItemResult {
    const v = variant === null ? {} : { variant: variant as VariantId };
    switch (sent.outcome) {
      case 'sent':
      case 'already_sent':
        return { ...result(item, sent.outcome), subject, ...v, ...(sent.messageId === undefined ? {} : { messageId: sent.messageId }) };
      case 'bounced':
        return { ...stopped(item, 'bounced'), ...v };
      case 'suppressed':
        return { ...stopped(item, 'suppressed'), ...(sent.blockedBy === undefined ? {} : { blockedBy: sent.blockedBy }) };
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

import type { Client } from '@temporalio/client';
import { WorkflowNotFoundError } from '@temporalio/common';
import type { Logger } from '../../log/logger';
import { campaignWorkflowId, leadFactSignal } from '../../../workflows/campaign/contract';
import type { StopFact } from '../model/templates';

/** A fact that ends a lead's sequence in one campaign, recorded and committed. */
export interface LeadFactNotice {
  readonly campaignId: string;
  readonly leadId: string;
  readonly fact: StopFact;
}

/** Where the API's recorders report such facts once their transaction has committed. */
export interface LeadFactSink {
  /** Returns at once: delivery happens in the background and never fails the caller. */
  notify(facts: readonly LeadFactNotice[]): void;
}

/** The slice of TemporalClientProvider this needs (tests hand in a test environment's client). */
export interface ClientSource {
  get(): Client;
}

/** How long one signal may take before it is given up (Temporal down or slow). */
const SIGNAL_TIMEOUT_MS = 5_000;

/**
 * Tells a campaign's workflow that one of its leads replied, booked, unsubscribed or bounced, so
 * it drops the lead's remaining steps at once instead of at its next batch. Best effort: the
 * facts are already committed, and the batch's own check before every email (item-state.ts) is the
 * safety net, so a signal that fails (Temporal unreachable, the workflow already finished) is
 * logged and dropped. Signals run in the background, so a reply, an unsubscribe page or a
 * calendar webhook is never held up by Temporal.
 */
export class LeadFactSignals implements LeadFactSink {
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly temporal: ClientSource,
    private readonly log: Logger,
    private readonly timeoutMs: number = SIGNAL_TIMEOUT_MS,
  ) {}

  /** Signals the facts one after the other, in the order they were recorded. */
  notify(facts: readonly LeadFactNotice[]): void {
    if (facts.length === 0) return;
    const sent: Promise<void> = (async () => {
      for (const fact of facts) await this.signal(fact);
    })().finally(() => this.pending.delete(sent));
    this.pending.add(sent);
  }

  /** Signals one fact; true when the workflow got it. Never throws. */
  async signal(notice: LeadFactNotice): Promise<boolean> {
    const { campaignId, leadId, fact } = notice;
    try {
      const client = this.temporal.get();
      await client.withDeadline(Date.now() + this.timeoutMs, () => client.workflow.getHandle(campaignWorkflowId(campaignId)).signal(leadFactSignal, { leadId, fact }));
      return true;
    } catch (err) {
      // A finished campaign has no workflow to tell: expected, not a problem.
      if (err instanceof WorkflowNotFoundError) this.log.info({ campaignId, leadId, fact }, 'lead fact not signalled: the campaign has no running workflow');
      else this.log.warn({ err, campaignId, leadId, fact }, 'lead fact not signalled; the next batch will see it');
      return false;
    }
  }

  /** Resolves once every signal started so far was delivered or given up (shutdown, tests). */
  async idle(): Promise<void> {
    await Promise.all([...this.pending]);
  }
}

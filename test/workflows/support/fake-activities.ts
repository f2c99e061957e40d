/**
 * An in-memory implementation of the campaign workflow's activities (CampaignWorkflowActivities,
 * the implementations' own signatures) for the time-skipping tests. It records every call with the
 * simulated instant the server scheduled it at and the run that made it (so a continue-as-new
 * shows as a new run id), and behaves like the real activities where the workflow depends on it:
 * - planLeads hands out leads from a pool, never the same lead twice;
 * - sendCampaignBatch goes through the items in order and, before each email, halts on the
 *   account's monthly quota or on the budget room the workflow passed in (the rest 'skipped'),
 *   reports a lead with a known stop fact as 'stopped', and otherwise sends it at a configurable
 *   cost (or defers it, or passes it over as `omitted`, when a test says so);
 * - decideVariantWinners answers what the test's `winners` option decides (nothing by default).
 * - the enrolment activities (enrolNewLeads, sendEnrolledBatch, endLeadSequence, adoptLeadTracks)
 *   keep an in-memory enrolment table (the leads' tracks, as the real table's rows) and go through
 *   planLeads' pool and sendCampaignBatch's checks above, recording their calls in `plans` and
 *   `batches` with the items they chose, so a test reads either mode the same way.
 */
import { Context } from '@temporalio/activity';
import type { CampaignWorkflowActivities } from '../../../activities';
import type {
  AdoptLeadTracksInput,
  ApplyEditInput,
  BatchItem,
  BatchItemResult,
  CampaignEventsInput,
  CampaignTransition,
  DecideWinnersInput,
  DecideWinnersResult,
  EndLeadSequenceInput,
  EndLeadSequenceResult,
  EnrolNewLeadsInput,
  EnrolNewLeadsResult,
  LeadTrack,
  PlanLeadsInput,
  PlanLeadsResult,
  PrepareCampaignInput,
  PrepareCampaignResult,
  SendBatchInput,
  SendBatchResult,
  SendEnrolledInput,
  SendEnrolledResult,
} from '../../../workflows/campaign/contract';
import { applyBatch, dueItems, newLead } from '../../../workflows/campaign/sequence';
import type { CampaignEvent, CampaignStatus } from '../../../src/campaigns/model/status';
import type { StopFact } from '../../../src/campaigns/model/templates';
import { planOf } from '../../../src/campaigns/model/sequence';

/** When and from which workflow run an activity was called (simulated time of its scheduling). */
export interface CallInfo {
  readonly calledAt: number;
  /** UTC date of `calledAt`. */
  readonly calledDay: string;
  readonly runId: string;
}

export type RecordedTransition = CampaignTransition & CallInfo;
export type RecordedPrepare = PrepareCampaignInput & CallInfo;
export type RecordedEmit = CampaignEventsInput & CallInfo;
export interface RecordedPlan extends CallInfo {
  readonly input: PlanLeadsInput;
  readonly result: PlanLeadsResult;
}
export interface RecordedBatch extends CallInfo {
  readonly input: SendBatchInput;
  readonly result: SendBatchResult;
}

/** One event as the outbox would get it: with a transition (and its status) or on its own. */
export interface RecordedEvent extends CampaignEvent {
  /** The `at` of the transition or of the emit call (workflow time). */
  readonly at: string;
  readonly via: 'transition' | 'emit';
  /** The status of the transition that carried it. */
  readonly status?: CampaignStatus;
  /** Index of the transition or emit call that carried it: events of one call share it. */
  readonly call: number;
}

/** One step of a lead that went out. */
export interface SentStep {
  readonly leadId: string;
  readonly step: number;
  readonly at: number;
  readonly day: string;
  readonly runId: string;
}

export interface ItemContext {
  readonly at: number;
  readonly day: string;
  /** Emails this fake has sent so far, over all batches. */
  readonly sentSoFar: number;
}

export interface FakeOptions {
  /** How many leads the search can find (lead-0001, lead-0002, ...); unlimited by default. */
  readonly leadPool?: number;
  /** Enrichment cost per lead found, USD. */
  readonly costPerLeadUsd?: number;
  /** Cost of one email (writing and sending), USD; a function to price steps differently. */
  readonly costPerEmailUsd?: number | ((item: BatchItem) => number);
  /** Emails the account may send per UTC month (the plan's quota); unlimited by default. */
  readonly monthlyQuota?: number;
  /** The outcome of an item that would be sent; 'deferred' keeps the step due, 'omitted' passes it over. Default: sent. */
  readonly decide?: (item: BatchItem, ctx: ItemContext) => 'sent' | 'deferred' | 'omitted' | undefined;
  /** What the variant tests decide when the workflow asks (none by default). */
  readonly winners?: (input: DecideWinnersInput, call: CallInfo) => DecideWinnersResult['decided'];
  /** Thrown by sendCampaignBatch before it does anything, when it returns an error. */
  readonly failBatch?: (input: SendBatchInput, call: CallInfo) => Error | undefined;
  /**
   * A lead-zone campaign's next wake, as the real batch computes it from its leads' zones (given the
   * workflow's instant `at`): null, or absent, when no other lead's window is to come.
   */
  readonly nextWakeAt?: (at: number) => number | null;
}

export const leadId = (n: number): string => `lead-${String(n).padStart(4, '0')}`;
const round6 = (usd: number): number => Math.round(usd * 1e6) / 1e6;
const utcDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
const monthOf = (ms: number): string => utcDay(ms).slice(0, 7);

export class FakeCampaignActivities {
  readonly transitions: RecordedTransition[] = [];
  readonly emits: RecordedEmit[] = [];
  readonly events: RecordedEvent[] = [];
  readonly prepared: RecordedPrepare[] = [];
  readonly plans: RecordedPlan[] = [];
  readonly batches: RecordedBatch[] = [];
  readonly winnerChecks: Array<{ readonly input: DecideWinnersInput; readonly result: DecideWinnersResult } & CallInfo> = [];
  /** Facts the "database" knows: the batch reports these leads as stopped. Tests may add to it. */
  readonly stopFacts = new Map<string, StopFact>();
  /** Every call of any activity, in order: for "nothing was called before ...". */
  readonly calls: Array<{ readonly name: keyof CampaignWorkflowActivities } & CallInfo> = [];

  /** Edits the workflow applied (the Update's activity), in order. */
  readonly edits: ApplyEditInput[] = [];
  /** The sequence version the last edit made (a campaign starts at 1). */
  private sequenceVersion = 1;

  /** The in-memory enrolment table: leads whose sequence is under way, in the order they were enrolled. */
  tracks: LeadTrack[] = [];
  private nextLead = 1;
  private sent = 0;
  private readonly sentPerMonth = new Map<string, number>();

  constructor(private readonly options: FakeOptions = {}) {}

  /** The implementations to register on the worker. */
  activities(): CampaignWorkflowActivities {
    return {
      recordCampaignTransition: async (t) => {
        const call = this.call('recordCampaignTransition');
        const index = this.transitions.length + this.emits.length;
        this.transitions.push({ ...t, ...call });
        for (const e of t.events ?? []) this.events.push({ ...e, at: t.at, via: 'transition', status: t.status, call: index });
      },
      emitCampaignEvents: async (input) => {
        const call = this.call('emitCampaignEvents');
        const index = this.transitions.length + this.emits.length;
        this.emits.push({ ...input, ...call });
        for (const e of input.events) this.events.push({ ...e, at: input.at, via: 'emit', call: index });
      },
      prepareCampaign: async (input): Promise<PrepareCampaignResult> => {
        this.prepared.push({ ...input, ...this.call('prepareCampaign') });
        return { companyId: 'company-1', scrapeProblem: null };
      },
      planLeads: async (input) => this.planLeads(input, 'planLeads'),
      sendCampaignBatch: async (input) => this.sendBatch(input, 'sendCampaignBatch'),
      enrolNewLeads: async (input) => this.enrolNewLeads(input),
      sendEnrolledBatch: async (input) => this.sendEnrolled(input),
      endLeadSequence: async (input) => this.endLeadSequence(input),
      adoptLeadTracks: async (input) => this.adoptLeadTracks(input),
      applyCampaignEdit: async (input) => {
        this.call('applyCampaignEdit');
        this.edits.push(input);
        if (input.edit.sequence === undefined) return { sequence: null };
        this.sequenceVersion += 1;
        return { sequence: planOf(input.edit.sequence, this.sequenceVersion) };
      },
      decideVariantWinners: async (input) => {
        const call = this.call('decideVariantWinners');
        const result = { decided: this.options.winners?.(input, call) ?? [] };
        this.winnerChecks.push({ input, result, ...call });
        return result;
      },
    };
  }

  /** Events with this name, in order. */
  eventsNamed(name: string): RecordedEvent[] {
    return this.events.filter((e) => e.event === name);
  }

  /** Every step that went out, in order. */
  sentSteps(): SentStep[] {
    return this.batches.flatMap((b) =>
      b.result.results.filter((r) => r.outcome === 'sent').map((r) => ({ leadId: r.leadId, step: r.step, at: b.calledAt, day: b.calledDay, runId: b.runId })),
    );
  }

  /** The UTC dates on which a lead's steps went out, step by step. */
  stepDays(lead: string): string[] {
    return this.sentSteps()
      .filter((s) => s.leadId === lead)
      .map((s) => s.day);
  }

  /** The items a lead was ever given in a batch (sent or not). */
  itemsOf(lead: string): Array<{ step: number; day: string }> {
    return this.batches.flatMap((b) => b.input.items.filter((i) => i.leadId === lead).map((i) => ({ step: i.step, day: b.calledDay })));
  }

  private call(name: keyof CampaignWorkflowActivities): CallInfo {
    const info = Context.current().info;
    const at = info.currentAttemptScheduledTimestampMs;
    const call = { calledAt: at, calledDay: utcDay(at), runId: info.workflowExecution?.runId ?? '' };
    this.calls.push({ name, ...call });
    return call;
  }

  private enrolNewLeads(input: EnrolNewLeadsInput): EnrolNewLeadsResult {
    const queued = this.tracks.filter((t) => t.step < 0).length;
    const limit = Math.max(0, input.wanted - queued);
    if (limit === 0) {
      this.call('enrolNewLeads');
      return { enrolled: 0, skipped: 0, costUsd: 0, poolExhausted: null, activeLeads: this.tracks.length };
    }
    const planned = this.planLeads({ campaignId: input.campaignId, accountId: input.accountId, limit, exclude: this.tracks.map((t) => t.leadId) }, 'enrolNewLeads');
    this.tracks.push(...planned.leadIds.map((id) => newLead(id, input.day)));
    return { enrolled: planned.leadIds.length, skipped: 0, costUsd: planned.costUsd, poolExhausted: planned.leadIds.length === 0, activeLeads: this.tracks.length };
  }

  private sendEnrolled(input: SendEnrolledInput): SendEnrolledResult {
    const plan = { steps: input.steps };
    const due = dueItems(this.tracks, input.day, plan);
    const follow = due.filter((i) => i.step > 0); // a track past its first step: a follow-up
    const firsts = due.filter((i) => !follow.includes(i)).slice(0, Math.max(0, input.firstEmailsLeft));
    const items = [...follow, ...firsts].slice(0, input.maxItems);
    const wake = input.at !== undefined && this.options.nextWakeAt !== undefined ? { nextWakeAt: this.options.nextWakeAt(input.at) } : {};
    const empty = { selected: 0, sent: 0, contacted: 0, finished: 0, omitted: 0, firstEmailsTaken: 0, stops: [], costUsd: 0, halted: null, more: false, activeLeads: this.tracks.length, ...wake };
    if (items.length === 0) {
      this.call('sendEnrolledBatch');
      return empty;
    }
    const { campaignId, accountId, mcp, companyId, budgetRemainingUsd } = input;
    const batch = this.sendBatch(
      { campaignId, accountId, mcp, companyId, items, budgetRemainingUsd, ...(input.sequenceVersion === undefined ? {} : { sequenceVersion: input.sequenceVersion }) },
      'sendEnrolledBatch',
    );
    const firstIds = new Set(firsts.map((i) => i.leadId));
    const applied = applyBatch(this.tracks, batch.results, input.day, plan);
    this.tracks = applied.leads;
    const left = batch.results.filter((r) => firstIds.has(r.leadId) && r.outcome !== 'deferred' && r.outcome !== 'skipped').length;
    return {
      selected: items.length,
      sent: applied.sent,
      contacted: applied.contacted,
      finished: applied.finished,
      omitted: applied.omitted,
      firstEmailsTaken: left,
      stops: applied.stopped.filter((f) => f !== 'suppressed'),
      costUsd: batch.costUsd,
      halted: batch.halted,
      more: items.length >= input.maxItems && batch.halted === null && !batch.results.some((r) => r.outcome === 'deferred'),
      activeLeads: this.tracks.length,
      ...wake,
    };
  }

  private endLeadSequence(input: EndLeadSequenceInput): EndLeadSequenceResult {
    this.call('endLeadSequence');
    const before = this.tracks.length;
    this.tracks = this.tracks.filter((t) => t.leadId !== input.leadId);
    return { ended: this.tracks.length < before, colleaguesStopped: 0, activeLeads: this.tracks.length };
  }

  private adoptLeadTracks(input: AdoptLeadTracksInput): void {
    this.call('adoptLeadTracks');
    const known = new Set(this.tracks.map((t) => t.leadId));
    this.tracks.push(...input.tracks.filter((t) => !known.has(t.leadId)));
  }

  private planLeads(input: PlanLeadsInput, name: 'planLeads' | 'enrolNewLeads'): PlanLeadsResult {
    const call = this.call(name);
    const pool = this.options.leadPool ?? Number.POSITIVE_INFINITY;
    const exclude = new Set(input.exclude);
    const ids: string[] = [];
    while (ids.length < input.limit && this.nextLead <= pool) {
      const id = leadId(this.nextLead++);
      if (!exclude.has(id)) ids.push(id);
    }
    const result = { leadIds: ids, costUsd: round6(ids.length * (this.options.costPerLeadUsd ?? 0)) };
    this.plans.push({ input, result, ...call });
    return result;
  }

  private sendBatch(input: SendBatchInput, name: 'sendCampaignBatch' | 'sendEnrolledBatch'): SendBatchResult {
    const call = this.call(name);
    const failure = this.options.failBatch?.(input, call);
    if (failure !== undefined) throw failure;

    const month = monthOf(call.calledAt);
    const results: BatchItemResult[] = [];
    let spent = 0;
    let halted: SendBatchResult['halted'] = null;
    for (const item of input.items) {
      const skipped: BatchItemResult = { leadId: item.leadId, step: item.step, outcome: 'skipped' };
      if (halted !== null) {
        results.push(skipped);
        continue;
      }
      // The same checks, in the same order, as the real batch before each email.
      if (this.options.monthlyQuota !== undefined && (this.sentPerMonth.get(month) ?? 0) >= this.options.monthlyQuota) halted = 'quota_exceeded';
      else if (input.budgetRemainingUsd !== null && spent >= round6(input.budgetRemainingUsd)) halted = 'budget_exceeded';
      if (halted !== null) {
        results.push(skipped);
        continue;
      }
      const fact = this.stopFacts.get(item.leadId);
      if (fact !== undefined) {
        results.push({ leadId: item.leadId, step: item.step, outcome: 'stopped', stopFact: fact });
        continue;
      }
      const decided = this.options.decide?.(item, { at: call.calledAt, day: call.calledDay, sentSoFar: this.sent });
      if (decided === 'deferred' || decided === 'omitted') {
        results.push({ leadId: item.leadId, step: item.step, outcome: decided, ...(decided === 'omitted' ? { omittedReason: 'no value for first_name' } : {}) });
        continue;
      }
      const cost = this.options.costPerEmailUsd;
      spent = round6(spent + (typeof cost === 'function' ? cost(item) : (cost ?? 0)));
      this.sent++;
      this.sentPerMonth.set(month, (this.sentPerMonth.get(month) ?? 0) + 1);
      results.push({
        leadId: item.leadId,
        step: item.step,
        outcome: 'sent',
        messageId: `<${item.leadId}.${item.step}@fake.test>`,
        subject: item.previousSubject ?? `Hello ${item.leadId}`,
      });
    }
    const result = { results, costUsd: spent, halted };
    this.batches.push({ input, result, ...call });
    return result;
  }
}

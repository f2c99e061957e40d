import { ActivityFailure, allHandlersFinished, ApplicationFailure, condition, continueAsNew, log, patched, setCurrentDetails, workflowInfo } from '@temporalio/workflow';
import {
  adoptLeadTracks,
  decideVariantWinners,
  emitCampaignEvents,
  endLeadSequence,
  enrolNewLeads,
  planLeads,
  prepareCampaign,
  recordCampaignTransition,
  sendCampaignBatch,
  sendEnrolledBatch,
} from './activity-proxies';
import { addSpend, dueExceeded, dueWarnings, pauseBudgetFigures, reachedLimits, remainingUsd, rollSpend, roundUsd } from '../../src/campaigns/model/budget-windows';
import { DAY_MS, isoWeekday, localDate, nextBudgetReset, nextSendSlot, startOfUtcDate, type SlotRules } from '../../src/campaigns/model/calendar';
import type {
  BatchHalt,
  BatchItem,
  CampaignStatusView,
  CampaignWorkflowInput,
  ControlSignal,
  LeadFactSignal,
  LeadRemovedSignal,
  PrepareCampaignResult,
  SendBatchResult,
  SendEnrolledResult,
} from './contract';
import { MILESTONES, type CampaignBudget, type CampaignEvent, type CampaignStatus } from '../../src/campaigns/model/status';
import { setStatusSearchAttribute } from './search-attributes';
import { applyBatch, awaitingFirstEmail, countStop, dueItems, newLead, type StepsPlan } from './sequence';
import { activeLeadCount, carry, describe, initialState, statusView, type CampaignState } from './state';
import { findTemplate, type OutreachTemplate } from '../../src/campaigns/model/templates';

const DEFAULT_WINDOW = { startMinute: 9 * 60, endMinute: 17 * 60 };
/** Continue as new beyond this many events even if the server has not suggested it yet. */
const DEFAULT_MAX_HISTORY_EVENTS = 8_000;
/**
 * Runs that reach this patch keep their leads' progress in the enrolment table (a run that tracked
 * them in its own state hands them over once); histories recorded before it replay the old way.
 */
const ENROLMENT_PATCH = 'enrolment-table';
/** Items in one batch of an enrolment run: a day with more due runs several batches, each of bounded length. */
const ENROLLED_BATCH_ITEMS = 500;

/** campaignWorkflow's signature, for continue-as-new (written out: workflow.ts imports this file). */
type CampaignWorkflow = (input: CampaignWorkflowInput) => Promise<CampaignStatusView>;
/** A signal waiting to be applied by the main loop (handlers only queue, so order is arrival order). */
type Request = { kind: 'pause' | 'resume'; at: number | null } | { kind: 'fact'; fact: LeadFactSignal } | { kind: 'removed'; removed: LeadRemovedSignal };
/** The steps the campaign's leads go through and how many new leads it takes a day. */
type Pace = StepsPlan & Pick<OutreachTemplate, 'newLeadsPerDay'>;
/** How a sending day ended: done (sent what was due), halted (paused; the rest stays due) or complete. */
type DayOutcome = 'done' | 'halted' | 'complete';
/** What one turn of the main loop leads to: another turn at once, a wait, or the campaign's end. */
type Turn = { next: 'again' } | { next: 'wait'; wake: number | undefined } | { next: 'end'; view: CampaignStatusView };

/**
 * One campaign, as its workflow run holds it: the state continue-as-new carries, the signals not
 * yet applied, and the life that acts on them. It waits for its start date, scrapes the target and
 * plans its first leads, then sends on its schedule (frequency, sending window, follow-up delays)
 * until its trial ends or its sequences are done. Pause, stop and resume arrive as signals;
 * budgets, the plan's quota and milestones are checked around every sending day. Every transition
 * is mirrored to the database, with its events for the webhook outbox, by an activity.
 *
 * Signal handlers only queue a request: the main loop applies them in arrival order between its
 * awaits, so a transition never interleaves with another.
 */
export class CampaignEntity {
  private readonly s: CampaignState;
  private readonly requests: Request[] = [];
  /** When the next sending day starts (for the Web UI); derived, never carried. */
  private nextSend: number | null = null;
  private readonly budget: CampaignBudget | undefined;
  private readonly timeZone: string;

  constructor(
    private readonly input: CampaignWorkflowInput,
    now: number,
  ) {
    this.s = initialState(input, now);
    this.budget = input.budget;
    this.timeZone = input.timezone ?? 'UTC';
  }

  get status(): CampaignStatus {
    return this.s.status;
  }

  // Signals and the query.

  pause(signal?: ControlSignal): void {
    this.request('pause', signal);
  }

  /** Surface B's stop: the same as pause (reason manual). */
  stop(signal?: ControlSignal): void {
    this.request('pause', signal);
  }

  resume(signal?: ControlSignal): void {
    this.request('resume', signal);
  }

  leadFact(fact: LeadFactSignal): void {
    this.requests.push({ kind: 'fact', fact });
  }

  leadRemoved(removed: LeadRemovedSignal): void {
    this.requests.push({ kind: 'removed', removed });
  }

  view(): CampaignStatusView {
    return statusView(this.s, this.budget);
  }

  /** The campaign's life: returns its final view, or continues as new on the way. */
  async run(): Promise<CampaignStatusView> {
    this.refreshDetails();
    try {
      const template = findTemplate(this.input.mcp);
      if (template === undefined) throw ApplicationFailure.nonRetryable(`unknown outreach template ${this.input.mcp}`, 'UnknownTemplate');
      // The stored sequence's steps; a campaign created before sequences were stored follows its template's.
      const pace: Pace = { steps: this.input.sequence?.steps ?? template.steps, newLeadsPerDay: template.newLeadsPerDay };
      if (this.s.startedAt === null) await this.start(pace);
      return await this.loop(pace);
    } catch (err) {
      return this.fail(err);
    }
  }

  // Starting.

  /** Starting: the start date, the target's scrape and the first leads; then running. */
  private async start(template: Pace): Promise<void> {
    const startAt = this.input.startDate === undefined ? Date.now() : startOfUtcDate(this.input.startDate);
    while (Date.now() < startAt || this.isPaused()) await this.waitForRequests(this.isPaused() ? undefined : startAt);
    await this.prepare();
    await this.drain();
    while (this.isPaused()) await this.waitForRequests();

    // On its start date, or when resumed after it: the trial clock starts here.
    const s = this.s;
    s.startedAt = Math.max(startAt, s.lastResumeAt);
    s.trialEndsAt = this.input.trialDays === undefined ? null : s.startedAt + this.input.trialDays * DAY_MS;
    await this.planNewLeads(template, localDate(Date.now(), this.timeZone));
    await this.transition('running', null, [{ event: 'campaign.started', data: { mcp: this.input.mcp, target_url: this.input.targetUrl } }], s.startedAt);
    log.info('campaign running', { campaignId: this.input.campaignId, workflowId: workflowInfo().workflowId });
  }

  /** The target's scrape; a campaign whose target cannot be scraped goes on without it. */
  private async prepare(): Promise<void> {
    let prepared: PrepareCampaignResult;
    try {
      prepared = await prepareCampaign({ campaignId: this.input.campaignId, accountId: this.input.accountId });
    } catch (err) {
      if (!(err instanceof ActivityFailure)) throw err;
      prepared = { companyId: null, scrapeProblem: err.cause?.message ?? err.message };
    }
    this.s.companyId = prepared.companyId;
    if (prepared.scrapeProblem !== null) log.info('target not scraped; writing without it', { campaignId: this.input.campaignId, problem: prepared.scrapeProblem });
  }

  // Running, paused or budget_paused.

  /** Running, paused or budget_paused until the trial ends, the schedule completes or it fails. */
  private async loop(template: Pace): Promise<CampaignStatusView> {
    for (;;) {
      await this.drain();
      const now = Date.now();
      if (this.trialEnded(now)) return this.complete('trial_ended', this.s.trialEndsAt as number);
      const turn = this.s.status === 'running' ? await this.runningTurn(template, now) : await this.pausedTurn(now);
      if (turn.next === 'end') return turn.view;
      if (turn.next === 'wait') await this.idle(turn.wake);
    }
  }

  /** The trial is calendar time: it ends on its day, paused or not. */
  private trialEnded(now: number): boolean {
    return this.s.trialEndsAt !== null && now >= this.s.trialEndsAt;
  }

  /** Running: the sending day when its slot has come, else a wait for it. */
  private async runningTurn(template: Pace, now: number): Promise<Turn> {
    const slot = nextSendSlot(now, this.slotRules());
    this.nextSend = slot.at;
    if (slot.at > now) return { next: 'wait', wake: slot.at };
    const outcome = await this.tick(template, slot.day);
    // A halted day is not done: after a resume within its window, it sends the rest.
    if (outcome !== 'halted') this.s.lastTickDay = slot.day;
    if (outcome === 'complete') return { next: 'end', view: await this.complete('schedule_complete', Date.now()) };
    return { next: 'again' };
  }

  /** Paused or budget_paused: running again when its time to resume on its own has come. */
  private async pausedTurn(now: number): Promise<Turn> {
    this.nextSend = null;
    const resumeAt = this.autoResumeAt(now);
    if (resumeAt === undefined || resumeAt > now) return { next: 'wait', wake: resumeAt };
    this.s.spend = rollSpend(this.s.spend, now);
    await this.transition('running', null, [], resumeAt);
    return { next: 'again' };
  }

  /** Between turns: continue as new if due, then wait for a request, `wake` or the trial's end. */
  private async idle(wake: number | undefined): Promise<void> {
    this.refreshDetails();
    await this.maybeContinueAsNew();
    const trialEnd = this.s.trialEndsAt;
    const deadline = trialEnd === null ? wake : wake === undefined ? trialEnd : Math.min(wake, trialEnd);
    await this.waitForRequests(deadline);
  }

  private slotRules(): SlotRules {
    const { startDate } = this.input;
    return {
      frequency: this.input.frequency ?? 'daily',
      timeZone: this.timeZone,
      window: this.input.sendWindow ?? DEFAULT_WINDOW,
      // A weekly campaign sends on the weekday of its start date as the client wrote it (00:00 UTC
      // of that date is still the day before west of UTC), or of its first local day.
      anchorWeekday: startDate === undefined ? isoWeekday(localDate(this.s.startedAt as number, this.timeZone)) : isoWeekday(startDate),
      lastTickDay: this.s.lastTickDay,
    };
  }

  // One sending day.

  /** One sending day: new leads, the due steps, then budgets, quota and milestones. */
  private async tick(template: Pace, day: string): Promise<DayOutcome> {
    if (await this.pauseIfOverBudget()) return 'halted';
    await this.decideWinners();
    await this.planNewLeads(template, day);
    if (this.s.enrolment === true) return this.enrolledDay(template, day);
    const items = dueItems(this.s.leads, day, template);
    if (items.length === 0) return this.scheduleComplete() ? 'complete' : 'done';
    const result = await this.sendBatch(day, items);
    if (result === null) return 'done';
    this.applyBatchResult(result, day, template);
    await this.celebrateMilestones();
    return this.afterBatch(result);
  }

  /** The day's batch, or null when it gave up on a failure a retry could fix. */
  private async sendBatch(day: string, items: BatchItem[]): Promise<SendBatchResult | null> {
    const { campaignId, accountId, mcp } = this.input;
    const budgetRemainingUsd = remainingUsd(rollSpend(this.s.spend, Date.now()), this.budget);
    const version = this.input.sequence === undefined ? {} : { sequenceVersion: this.input.sequence.version };
    try {
      return await sendCampaignBatch({ campaignId, accountId, mcp, companyId: this.s.companyId, items, budgetRemainingUsd, ...version });
    } catch (err) {
      // Out of retries on a failure a retry could fix (SMTP or the LLM down all day): the steps
      // stay due for the next sending day. A non-retryable failure fails the campaign.
      if (!(err instanceof ActivityFailure) || failureReason(err) !== null) throw err;
      log.warn('sending day gave up; its steps stay due', { campaignId, day, error: err.cause?.message ?? err.message });
      return null;
    }
  }

  private applyBatchResult(result: SendBatchResult, day: string, template: Pace): void {
    const s = this.s;
    const applied = applyBatch(s.leads, result.results, day, template);
    s.leads = applied.leads;
    s.counters.emailsSent += applied.sent;
    s.counters.leadsContacted += applied.contacted;
    s.counters.sequencesFinished += applied.finished;
    if (applied.omitted > 0) s.counters.stepsOmitted = (s.counters.stepsOmitted ?? 0) + applied.omitted;
    for (const fact of applied.stopped) countStop(s.counters, fact);
    this.spend(result.costUsd);
    this.refreshDetails();
  }

  /**
   * A sending day of an enrolment run: batches read from the table until nothing more is due, the
   * day halts, or every mailbox is at its cap. The workflow sees counts, never lead ids.
   */
  private async enrolledDay(template: Pace, day: string): Promise<DayOutcome> {
    for (let batch = 0; ; batch++) {
      const result = await this.sendEnrolled(template, day);
      if (result === null) return 'done';
      if (batch === 0 && result.selected === 0) return this.scheduleComplete() ? 'complete' : 'done';
      this.applyEnrolledResult(result);
      await this.celebrateMilestones();
      const outcome = await this.afterBatch(result);
      if (outcome !== 'done' || !result.more) return outcome;
      // Between batches: a pause that arrived meanwhile halts the day (the rest stays due).
      await this.drain();
      if (this.s.status !== 'running') return 'halted';
    }
  }

  /** One batch from the enrolment table, or null when it gave up on a failure a retry could fix. */
  private async sendEnrolled(template: Pace, day: string): Promise<SendEnrolledResult | null> {
    const { campaignId, accountId, mcp } = this.input;
    const s = this.s;
    try {
      return await sendEnrolledBatch({
        campaignId,
        accountId,
        mcp,
        companyId: s.companyId,
        day,
        steps: template.steps.map((step) => ({ delayDays: step.delayDays, kind: step.kind })),
        ...(this.input.sequence === undefined ? {} : { sequenceVersion: this.input.sequence.version }),
        firstEmailsLeft: Math.max(0, template.newLeadsPerDay - (s.plannedDay === day ? s.plannedToday : 0)),
        maxItems: ENROLLED_BATCH_ITEMS,
        budgetRemainingUsd: remainingUsd(rollSpend(s.spend, Date.now()), this.budget),
      });
    } catch (err) {
      if (!(err instanceof ActivityFailure) || failureReason(err) !== null) throw err;
      log.warn('sending day gave up; its steps stay due', { campaignId, day, error: err.cause?.message ?? err.message });
      return null;
    }
  }

  private applyEnrolledResult(result: SendEnrolledResult): void {
    const s = this.s;
    s.counters.emailsSent += result.sent;
    s.counters.leadsContacted += result.contacted;
    s.counters.sequencesFinished += result.finished;
    if (result.omitted > 0) s.counters.stepsOmitted = (s.counters.stepsOmitted ?? 0) + result.omitted;
    for (const fact of result.stops) countStop(s.counters, fact);
    s.plannedToday += result.firstEmailsTaken;
    s.activeLeads = result.activeLeads;
    this.spend(result.costUsd);
    this.refreshDetails();
  }

  /**
   * Whether this run keeps its leads in the enrolment table. Decided once (the patch), then
   * carried: a run that tracked leads in its own state hands them to the table first.
   */
  private async enrolmentMode(): Promise<boolean> {
    const s = this.s;
    if (s.enrolment === true) return true;
    if (!patched(ENROLMENT_PATCH)) return false;
    if (s.leads.length > 0) await adoptLeadTracks({ campaignId: this.input.campaignId, accountId: this.input.accountId, tracks: s.leads });
    s.activeLeads = s.leads.length;
    s.leads = [];
    s.enrolment = true;
    return true;
  }

  /** After a batch: the quota, budgets and a pause the API committed can halt the day. */
  private async afterBatch(result: { readonly halted: BatchHalt | null }): Promise<DayOutcome> {
    if (result.halted === 'quota_exceeded') {
      this.s.pausedFrom = 'running';
      await this.transition('paused', 'quota_exceeded', [this.pausedWithoutBudgetEvent('quota_exceeded')]);
      return 'halted';
    }
    if (await this.pauseIfOverBudget()) return 'halted';
    if (result.halted === 'not_running') {
      // The API committed a pause; its signal is on the way (it is sent before the commit).
      await condition(() => this.requests.length > 0, '1 minute');
      return 'halted';
    }
    if (result.halted !== null) return 'halted';
    return this.scheduleComplete() ? 'complete' : 'done';
  }

  /** Every lead found has finished or stopped, and the last search found nobody new. */
  private scheduleComplete(): boolean {
    const s = this.s;
    return s.leadPoolExhausted && activeLeadCount(s) === 0 && s.counters.leadsContacted > 0;
  }

  /**
   * The variant tests of the sequence still open, checked before a sending day once emails have
   * gone out: a test decided (by the activity, on the campaign's figures) gives its step's later
   * sends to the winner. Campaigns without a sequence plan, or without a test, never call it.
   */
  private async decideWinners(): Promise<void> {
    const plan = this.input.sequence;
    if (plan === undefined || this.s.counters.emailsSent === 0) return;
    const decided = this.s.winners ?? {};
    const open = plan.autoWinnerSteps.filter((step) => decided[step] === undefined);
    if (open.length === 0) return;
    const result = await decideVariantWinners({ campaignId: this.input.campaignId, accountId: this.input.accountId, sequenceVersion: plan.version, steps: open });
    if (result.decided.length === 0) return;
    this.s.winners = { ...decided, ...Object.fromEntries(result.decided.map((d) => [d.step, d.variant])) };
    log.info('variant test decided', { campaignId: this.input.campaignId, winners: this.s.winners });
    this.refreshDetails();
  }

  /** Takes today's new leads (up to the template's number per day, counting those already taken). */
  private async planNewLeads(template: Pace, day: string): Promise<void> {
    const s = this.s;
    if (s.plannedDay !== day) {
      s.plannedDay = day;
      s.plannedToday = 0;
    }
    if (await this.enrolmentMode()) {
      // Enrolment runs: plannedToday counts the leads that left the queue today (the day's pace).
      const wanted = Math.max(0, template.newLeadsPerDay - s.plannedToday);
      if (wanted === 0) return;
      const enrolled = await enrolNewLeads({ campaignId: this.input.campaignId, accountId: this.input.accountId, day, wanted });
      this.spend(enrolled.costUsd);
      s.activeLeads = enrolled.activeLeads;
      if (enrolled.poolExhausted !== null) s.leadPoolExhausted = enrolled.poolExhausted;
      return;
    }
    const limit = Math.max(0, template.newLeadsPerDay - s.plannedToday - awaitingFirstEmail(s.leads));
    if (limit === 0) return;
    const planned = await planLeads({ campaignId: this.input.campaignId, accountId: this.input.accountId, limit, exclude: s.leads.map((l) => l.leadId) });
    this.spend(planned.costUsd);
    s.plannedToday += planned.leadIds.length;
    s.leads.push(...planned.leadIds.map((id) => newLead(id, day)));
    s.leadPoolExhausted = planned.leadIds.length === 0;
  }

  private async celebrateMilestones(): Promise<void> {
    const s = this.s;
    const events: CampaignEvent[] = [];
    for (const m of MILESTONES) {
      if (s.counters.emailsSent < m || s.milestonesReached.includes(m)) continue;
      s.milestonesReached.push(m);
      events.push({ event: 'campaign.milestone', data: { milestone: `${m}_emails` }, fill: 'stats' });
    }
    await this.emit(events);
  }

  // Spending and budgets.

  private spend(usd: number): void {
    if (usd <= 0) return;
    this.s.spend = addSpend(this.s.spend, usd);
    this.s.totalCostUsd = roundUsd(this.s.totalCostUsd + usd);
  }

  /** budget_paused with its events, when a limit is reached (announced once per window). */
  private async pauseIfOverBudget(): Promise<boolean> {
    const warned = dueWarnings(rollSpend(this.s.spend, Date.now()), this.budget);
    const exceeded = dueExceeded(warned.spend, this.budget);
    this.s.spend = exceeded.spend;
    await this.emit(warned.events);
    if (exceeded.first === null) return false;
    const { spent, limit } = exceeded.first;
    await this.transition('budget_paused', 'budget_exceeded', [pausedEvent('budget_exceeded', spent, limit), ...exceeded.events]);
    return true;
  }

  /** When a paused campaign resumes on its own: the next budget window, or the next month's quota. */
  private autoResumeAt(now: number): number | undefined {
    const s = this.s;
    if (s.status === 'budget_paused') {
      const reached = reachedLimits(s.spend, this.budget);
      if (reached.length === 0) return now;
      return Math.max(...reached.map((type) => this.windowEnd(type)));
    }
    // The spend windows were rolled at the start of the batch that hit the quota: monthly is its month.
    if (s.status === 'paused' && s.reason === 'quota_exceeded') return this.windowEnd('monthly');
    return undefined;
  }

  /** The end of the budget window the spend is in (a window's key is its first date). */
  private windowEnd(type: 'daily' | 'weekly' | 'monthly'): number {
    const key = this.s.spend[type].key;
    return nextBudgetReset(type, startOfUtcDate(type === 'monthly' ? `${key}-01` : key));
  }

  private pausedWithoutBudgetEvent(reason: 'manual' | 'quota_exceeded'): CampaignEvent {
    const figures = pauseBudgetFigures(this.budget, this.s.spend);
    return pausedEvent(reason, figures.spentUsd, figures.limitUsd);
  }

  // Requests (the signals, applied by the main loop).

  private request(kind: 'pause' | 'resume', signal?: ControlSignal): void {
    const at = signal?.at === undefined ? NaN : Date.parse(signal.at);
    this.requests.push({ kind, at: Number.isNaN(at) ? null : at });
  }

  /** Waits for a request, or until `deadline` (epoch ms) when given; then applies requests. */
  private async waitForRequests(deadline?: number): Promise<void> {
    if (deadline === undefined) await condition(() => this.requests.length > 0);
    else if (deadline > Date.now()) await condition(() => this.requests.length > 0, deadline - Date.now());
    await this.drain();
  }

  /** Applies pending requests in arrival order. */
  private async drain(): Promise<void> {
    for (let r = this.requests.shift(); r !== undefined; r = this.requests.shift()) {
      if (r.kind === 'fact') await this.applyFact(r.fact);
      else if (r.kind === 'removed') this.applyRemoved(r.removed);
      else if (r.kind === 'pause') await this.applyPause(r.at);
      else await this.applyResume(r.at);
    }
  }

  private async applyFact(fact: LeadFactSignal): Promise<void> {
    if (this.s.enrolment === true) {
      // The row decides: counted when this fact ended a sequence still under way.
      const ended = await endLeadSequence({ campaignId: this.input.campaignId, accountId: this.input.accountId, leadId: fact.leadId, fact: fact.fact });
      if (ended.ended) countStop(this.s.counters, fact.fact);
      this.s.activeLeads = ended.activeLeads;
      this.refreshDetails();
      return;
    }
    // Counted only when it ends a sequence under way: a lead stopped by a batch that saw the
    // same fact, or a second fact of one lead (a reply that also unsubscribes), counts once.
    const before = this.s.leads.length;
    this.s.leads = this.s.leads.filter((l) => l.leadId !== fact.leadId);
    if (this.s.leads.length === before) return;
    countStop(this.s.counters, fact.fact);
    this.refreshDetails();
  }

  /** A lead the user took out: its row already says removed; a run that tracks leads drops it. */
  private applyRemoved(removed: LeadRemovedSignal): void {
    const s = this.s;
    if (s.enrolment === true) {
      if (removed.wasActive) s.activeLeads = Math.max(0, (s.activeLeads ?? 0) - 1);
    } else s.leads = s.leads.filter((l) => l.leadId !== removed.leadId);
    this.refreshDetails();
  }

  /** `at` is the API's commit time when it sent one. */
  private async applyPause(at: number | null): Promise<void> {
    const s = this.s;
    if (s.status !== 'starting' && s.status !== 'running' && s.status !== 'budget_paused') return;
    s.pausedFrom = s.status;
    await this.transition('paused', 'manual', [this.pausedWithoutBudgetEvent('manual')], at ?? Date.now());
  }

  private async applyResume(requestedAt: number | null): Promise<void> {
    if (!this.resumable()) return;
    const s = this.s;
    const at = requestedAt ?? Date.now();
    s.lastResumeAt = at;
    s.pausedFrom = null;
    s.spend = rollSpend(s.spend, Date.now());
    if (s.startedAt === null) await this.transition('starting', null, [], at);
    // A limit still reached: straight back to budget_paused (its events were sent in this window).
    else if (reachedLimits(s.spend, this.budget).length > 0) await this.transition('budget_paused', 'budget_exceeded', [], at);
    else await this.transition('running', null, [], at);
  }

  /** paused, or budget_paused with no limit reached in the current windows. */
  private resumable(): boolean {
    const s = this.s;
    return s.status === 'paused' || (s.status === 'budget_paused' && reachedLimits(rollSpend(s.spend, Date.now()), this.budget).length === 0);
  }

  // A function, not an inline test: the status changes inside awaited calls TypeScript cannot see.
  private isPaused(): boolean {
    return this.s.status === 'paused';
  }

  // Continue-as-new.

  private async maybeContinueAsNew(): Promise<void> {
    const info = workflowInfo();
    const limit = this.input.maxHistoryEvents ?? DEFAULT_MAX_HISTORY_EVENTS;
    if (!info.continueAsNewSuggested && info.historyLength < limit) return;
    await condition(allHandlersFinished);
    if (this.requests.length > 0) return; // apply them first; the next loop turn comes back here
    await continueAsNew<CampaignWorkflow>({ ...this.input, carried: carry(this.s) });
  }

  // Transitions, events, the end.

  /** `at` is the logical instant (a timer's due time, the API's commit time), not the task's. */
  private async transition(status: CampaignStatus, reason: string | null, events: CampaignEvent[] = [], at: number = Date.now()): Promise<void> {
    this.s.status = status;
    this.s.reason = reason;
    setStatusSearchAttribute(status);
    this.refreshDetails();
    await recordCampaignTransition({ campaignId: this.input.campaignId, accountId: this.input.accountId, status, reason, at: new Date(at).toISOString(), events });
  }

  private async emit(events: CampaignEvent[]): Promise<void> {
    if (events.length === 0) return;
    await emitCampaignEvents({ campaignId: this.input.campaignId, accountId: this.input.accountId, at: new Date().toISOString(), events });
  }

  private async complete(reason: 'trial_ended' | 'schedule_complete', at: number): Promise<CampaignStatusView> {
    await this.transition('completed', reason, [{ event: 'campaign.completed', data: { reason }, fill: 'final_stats' }], at);
    return this.view();
  }

  /** failed, for a failure the campaign cannot go on after; anything else is rethrown. */
  private async fail(err: unknown): Promise<CampaignStatusView> {
    const reason = failureReason(err);
    if (reason === null) throw err;
    log.warn('campaign failed', { campaignId: this.input.campaignId, reason });
    await this.transition('failed', reason);
    return this.view();
  }

  private refreshDetails(): void {
    setCurrentDetails(describe(this.input, this.s, this.budget, this.nextSend));
  }
}

/** campaign.paused with the budget figures the spec gives it (see pauseBudgetFigures for a manual or quota pause). */
function pausedEvent(reason: string, spent: number, limit: number | null): CampaignEvent {
  return { event: 'campaign.paused', data: { reason, budget_spent_usd: spent, budget_limit_usd: limit } };
}

/**
 * The reason a campaign fails for: a non-retryable activity failure (an LLM key refused, a lead
 * that vanished) or an invalid input. Anything else (a bug, a cancellation) is rethrown so Temporal
 * shows it as it is.
 */
function failureReason(err: unknown): string | null {
  if (err instanceof ActivityFailure && err.cause instanceof ApplicationFailure && err.cause.nonRetryable) {
    return `${err.cause.type ?? 'ActivityFailed'}: ${err.cause.message}`;
  }
  if (err instanceof ApplicationFailure && err.nonRetryable) return `${err.type ?? 'Failed'}: ${err.message}`;
  return null;
}

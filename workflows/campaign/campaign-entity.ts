import { ActivityFailure, allHandlersFinished, ApplicationFailure, condition, continueAsNew, log, patched, setCurrentDetails, workflowInfo } from '@temporalio/workflow';
import {
  adoptLeadTracks,
  applyEditNow,
  decideVariantWinners,
  emitCampaignEvents,
  endLeadSequence,
  enrolNewLeads,
  planLeads,
  prepareCampaign,
  recordCampaignTransition,
  recordTransitionNow,
  sendCampaignBatch,
  sendEnrolledBatch,
} from './activity-proxies';
import { addSpend, dueExceeded, dueWarnings, pauseBudgetFigures, reachedLimits, remainingUsd, rollSpend, roundUsd } from '../../src/campaigns/model/budget-windows';
import { addDays, DAY_MS, isoWeekday, localDate, localInstant, MINUTE_MS, nextBudgetReset, nextSendSlot, startOfUtcDate, type SendSlot } from '../../src/campaigns/model/calendar';
import { nextScheduleSlot, scheduleProblem } from '../../src/campaigns/model/schedule';
import type { CampaignSchedule } from '../../src/campaigns/model/schedule';
import { moveAllowed, refusedMoveReason, type CampaignMove } from '../../src/campaigns/model/transitions';
import type {
  BatchHalt,
  BatchItem,
  CampaignEdit,
  CampaignStatusView,
  CampaignWorkflowInput,
  ChangeRecord,
  ControlOutcome,
  ControlRequest,
  ControlSignal,
  EditOutcome,
  LeadFactSignal,
  LeadRemovedSignal,
  PrepareCampaignResult,
  SendBatchResult,
  SendEnrolledResult,
} from './contract';
import { MILESTONES, type CampaignBudget, type CampaignEvent, type CampaignStatus } from '../../src/campaigns/model/status';
import { setStatusSearchAttribute } from './search-attributes';
import { applyBatch, awaitingFirstEmail, countStop, dueItems, newLead, type StepsPlan } from './sequence';
import { activeLeadCount, budgetOf, carry, describe, initialState, sequenceOf, statusView, type CampaignState } from './state';
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
/** A lead-zone campaign never wakes sooner than this after a wake that sent nothing (a guard against a busy loop). */
const MIN_LEAD_WAKE_MS = MINUTE_MS;

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
  /**
   * Status changes, one at a time: the main loop's and those of Updates (which run while the loop
   * awaits an activity) are recorded in the order they are decided.
   */
  private lock: Promise<void> = Promise.resolve();
  /** Bumped by every Update: a wait of the main loop ends to look at the campaign again. */
  private wakeups = 0;
  /** A lead-zone campaign's next wake, as its last batch computed it (derived, never carried). */
  private leadWakeAt: number | null = null;

  constructor(
    private readonly input: CampaignWorkflowInput,
    now: number,
  ) {
    this.s = initialState(input, now);
  }

  /** The budget in force (an edit may have changed it). */
  private get budget(): CampaignBudget | undefined {
    return budgetOf(this.input, this.s);
  }

  /** The schedule in force; undefined for campaigns created before schedules were stored (and never edited). */
  private get schedule(): CampaignSchedule | undefined {
    return this.s.live?.schedule ?? this.input.schedule;
  }

  /** The campaign's own zone: its sending days, and the zone of leads whose own is not known. */
  private get timeZone(): string {
    return this.schedule?.timezone ?? this.input.timezone ?? 'UTC';
  }

  private get startDate(): string | undefined {
    const live = this.s.live?.startDate;
    return live === undefined ? this.input.startDate : (live ?? undefined);
  }

  private get trialDays(): number | undefined {
    const live = this.s.live?.trialDays;
    return live === undefined ? this.input.trialDays : (live ?? undefined);
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

  // Updates: pause, stop, resume and edit. A validator refuses (before the Update enters the
  // history) what the status does not allow; the handler takes the status lock, checks again (a
  // move decided while it waited may have changed things), applies and records, then wakes the
  // main loop. A refusal is an ApplicationFailure: `MoveRefused` (the API's 409) or `InvalidEdit` (400).

  validateControl(move: 'pause' | 'stop' | 'resume'): void {
    this.assertMove(move);
  }

  async control(move: 'pause' | 'stop' | 'resume', request: ControlRequest): Promise<ControlOutcome> {
    return this.exclusive(async () => {
      this.assertMove(move);
      const from = this.s.status;
      const at = Date.now();
      const change = (to: CampaignStatus): ChangeRecord => ({ id: request.changeId, kind: move, by: request.by, fields: [{ field: 'status', from, to }] });
      if (move === 'resume') await this.resumeLocked(at, change);
      else {
        this.s.pausedFrom = from;
        await this.record('paused', 'manual', [this.pausedWithoutBudgetEvent('manual')], at, { change: change('paused') });
      }
      this.wake();
      return { status: this.s.status, reason: this.s.reason, at: new Date(at).toISOString() };
    });
  }

  validateEdit(edit: CampaignEdit): void {
    this.assertMove('edit');
    const problem = editProblem(edit, this.s.startedAt !== null);
    if (problem !== null) throw ApplicationFailure.nonRetryable(problem, 'InvalidEdit');
  }

  async edit(edit: CampaignEdit): Promise<EditOutcome> {
    return this.exclusive(async () => {
      this.validateEdit(edit);
      const at = Date.now();
      const applied = await applyEditNow({ campaignId: this.input.campaignId, accountId: this.input.accountId, edit, at: new Date(at).toISOString() });
      const s = this.s;
      const { settings } = edit;
      const live = { ...(s.live ?? {}) };
      if (settings.budget !== undefined) {
        live.budget = settings.budget;
        // New limits: their warnings and limits are announced afresh in the current windows.
        s.spend = rollSpend(s.spend, at);
        for (const type of ['daily', 'weekly', 'monthly'] as const) s.spend[type] = { ...s.spend[type], warned: false, exceeded: false };
      }
      if (settings.schedule !== undefined) live.schedule = settings.schedule;
      if (settings.startDate !== undefined) live.startDate = settings.startDate;
      if (settings.trialDays !== undefined) {
        live.trialDays = settings.trialDays;
        if (s.startedAt !== null) s.trialEndsAt = settings.trialDays === null ? null : s.startedAt + settings.trialDays * DAY_MS;
      }
      if (applied.sequence !== null) {
        live.sequence = applied.sequence;
        // The variant tests start again on the new steps' figures.
        delete s.winners;
      }
      s.live = live;
      // A day already sent under the old schedule is not sent again; a new window opens later days.
      if (settings.schedule !== undefined && settings.schedule.leadTimezones !== true) this.leadWakeAt = null;
      if (settings.budget !== undefined) await this.budgetAfterEdit(at);
      this.wake();
      this.refreshDetails();
      const plan = sequenceOf(this.input, s);
      return { status: s.status, reason: s.reason, at: new Date(at).toISOString(), sequenceVersion: plan?.version ?? null };
    });
  }

  /** Why `move` is refused now, as an ApplicationFailure; nothing when it is allowed. */
  private assertMove(move: CampaignMove): void {
    const { status } = this.s;
    if (!moveAllowed(move, status)) throw ApplicationFailure.nonRetryable(refusedMoveReason(move, this.input.campaignId, status), 'MoveRefused');
    if (move === 'resume' && status === 'budget_paused' && !this.resumable()) {
      const reached = reachedLimits(rollSpend(this.s.spend, Date.now()), this.budget);
      throw ApplicationFailure.nonRetryable(
        `campaign ${this.input.campaignId} has reached its ${reached.join(' and ')} budget: it resumes by itself when that budget window resets (00:00 UTC, Monday or the 1st), or when an edit raises the limit`,
        'MoveRefused',
      );
    }
  }

  /**
   * After an edit of the budget: a limit now below the window's spend pauses a running campaign at
   * once (budget_exceeded, with its events); a budget_paused campaign whose limits all have room
   * again runs. The lock is held.
   */
  private async budgetAfterEdit(at: number): Promise<void> {
    const s = this.s;
    if (s.status === 'running' || s.status === 'starting') {
      const exceeded = dueExceeded(rollSpend(s.spend, at), this.budget);
      if (exceeded.first === null) return;
      s.spend = exceeded.spend;
      s.pausedFrom = s.status;
      const { spent, limit } = exceeded.first;
      await this.record('budget_paused', 'budget_exceeded', [pausedEvent('budget_exceeded', spent, limit), ...exceeded.events], at, { now: true });
    } else if (s.status === 'budget_paused' && reachedLimits(rollSpend(s.spend, at), this.budget).length === 0) {
      s.spend = rollSpend(s.spend, at);
      s.pausedFrom = null;
      await this.record(s.startedAt === null ? 'starting' : 'running', null, [], at, { now: true });
    }
  }

  /** The main loop looks again (an Update changed the status or the settings). */
  private wake(): void {
    this.wakeups++;
  }

  /** The campaign's life: returns its final view, or continues as new on the way. */
  async run(): Promise<CampaignStatusView> {
    this.refreshDetails();
    try {
      const template = findTemplate(this.input.mcp);
      if (template === undefined) throw ApplicationFailure.nonRetryable(`unknown outreach template ${this.input.mcp}`, 'UnknownTemplate');
      if (this.s.startedAt === null) await this.start(template);
      return await this.loop(template);
    } catch (err) {
      return this.fail(err);
    }
  }

  // Starting.

  /**
   * The stored sequence's steps (the last edit's); a campaign created before sequences were stored
   * follows its template's. Read every turn: an edit changes the steps of sends still to come.
   */
  private pace(template: OutreachTemplate): Pace {
    return { steps: sequenceOf(this.input, this.s)?.steps ?? template.steps, newLeadsPerDay: template.newLeadsPerDay };
  }

  /** 00:00 UTC of the start date (an edit may move it while the campaign is starting), or `begun`. */
  private startAt(begun: number): number {
    const date = this.startDate;
    return date === undefined ? begun : startOfUtcDate(date);
  }

  /** Starting: the start date, the target's scrape and the first leads; then running. */
  private async start(template: OutreachTemplate): Promise<void> {
    // Without a start date the campaign starts when its workflow does (the trial counts from then).
    const begun = Date.now();
    let prepared = false;
    for (;;) {
      while (Date.now() < this.startAt(begun) || this.isPaused()) await this.waitForRequests(this.isPaused() ? undefined : this.startAt(begun));
      if (!prepared) {
        await this.prepare();
        prepared = true;
        await this.drain();
        while (this.isPaused()) await this.waitForRequests();
      }

      // On its start date, or when resumed after it: the trial clock starts here.
      const s = this.s;
      s.startedAt = Math.max(this.startAt(begun), s.lastResumeAt);
      s.trialEndsAt = this.trialDays === undefined ? null : s.startedAt + this.trialDays * DAY_MS;
      await this.planNewLeads(this.pace(template), localDate(Date.now(), this.timeZone));
      const started = await this.transitionFrom(['starting'], 'running', null, [{ event: 'campaign.started', data: { mcp: this.input.mcp, target_url: this.input.targetUrl } }], s.startedAt);
      if (started) break;
      // Paused (an Update) while its first leads were planned: it starts again when resumed.
      s.startedAt = null;
      s.trialEndsAt = null;
    }
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
  private async loop(template: OutreachTemplate): Promise<CampaignStatusView> {
    for (;;) {
      await this.drain();
      const now = Date.now();
      if (this.trialEnded(now)) return this.complete('trial_ended', this.s.trialEndsAt as number);
      const turn = this.s.status === 'running' ? await this.runningTurn(this.pace(template), now) : await this.pausedTurn(now);
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
    if (this.schedule?.leadTimezones === true) return this.leadZoneTurn(template, now);
    const slot = this.nextSlot(now);
    // A schedule that can never send (a blackout on every sending day): wait for an edit.
    if (slot === null) {
      this.nextSend = null;
      return { next: 'wait', wake: undefined };
    }
    this.nextSend = slot.at;
    if (slot.at > now) return { next: 'wait', wake: slot.at };
    const outcome = await this.tick(template, slot.day);
    // A halted day is not done: after a resume within its window, it sends the rest.
    if (outcome !== 'halted') this.s.lastTickDay = slot.day;
    if (outcome === 'complete') return { next: 'end', view: await this.complete('schedule_complete', Date.now()) };
    return { next: 'again' };
  }

  /**
   * Running with `timezone: "lead"`: each lead is written in their own window. The campaign's day
   * (its own zone) paces the new leads: the first wake of a day plans them. Every wake sends what
   * is due now, then sleeps until the next window of a lead with something due opens (the batch
   * says when) or the campaign's next day begins.
   */
  private async leadZoneTurn(template: Pace, now: number): Promise<Turn> {
    const day = localDate(now, this.timeZone);
    const firstWakeOfDay = this.s.lastTickDay === null || this.s.lastTickDay < day;
    const outcome = firstWakeOfDay ? await this.tick(template, day) : await this.enrolledDay(template, day);
    if (outcome === 'complete') return { next: 'end', view: await this.complete('schedule_complete', Date.now()) };
    if (outcome === 'halted') return { next: 'again' };
    this.s.lastTickDay = day;
    const nextDay = localInstant(addDays(day, 1), 0, this.timeZone);
    const leadWake = this.leadWakeAt === null ? nextDay : Math.max(this.leadWakeAt, Date.now() + MIN_LEAD_WAKE_MS);
    this.nextSend = Math.min(leadWake, nextDay);
    return { next: 'wait', wake: this.nextSend };
  }

  /** Paused or budget_paused: running again when its time to resume on its own has come. */
  private async pausedTurn(now: number): Promise<Turn> {
    this.nextSend = null;
    const resumeAt = this.autoResumeAt(now);
    if (resumeAt === undefined || resumeAt > now) return { next: 'wait', wake: resumeAt };
    const { status, reason } = this.s;
    this.s.spend = rollSpend(this.s.spend, now);
    // An Update may have moved the campaign meanwhile: the resume on its own stands only if not.
    await this.transitionIf(() => this.s.status === status && this.s.reason === reason, 'running', null, [], resumeAt);
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

  /**
   * The next sending slot in the campaign's zone: by its schedule (per-weekday windows, blackout
   * dates; null when no day can ever come), or, for campaigns created before schedules were
   * stored, by frequency and window as they always did.
   */
  private nextSlot(now: number): SendSlot | null {
    const schedule = this.schedule;
    if (schedule !== undefined) return nextScheduleSlot(now, schedule, this.anchorWeekday(), this.s.lastTickDay);
    return nextSendSlot(now, {
      frequency: this.input.frequency ?? 'daily',
      timeZone: this.timeZone,
      window: this.input.sendWindow ?? DEFAULT_WINDOW,
      anchorWeekday: this.anchorWeekday(),
      lastTickDay: this.s.lastTickDay,
    });
  }

  /**
   * A weekly campaign sends on the weekday of its start date as the client wrote it (00:00 UTC of
   * that date is still the day before west of UTC), or of its first local day.
   */
  private anchorWeekday(): number {
    const startDate = this.startDate;
    return startDate === undefined ? isoWeekday(localDate(this.s.startedAt as number, this.timeZone)) : isoWeekday(startDate);
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
    const plan = sequenceOf(this.input, this.s);
    const version = plan === undefined ? {} : { sequenceVersion: plan.version };
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
      // Even a batch that found nothing due says when a lead's window opens next (lead zones).
      if (result.nextWakeAt !== undefined) this.leadWakeAt = result.nextWakeAt;
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
    const plan = sequenceOf(this.input, s);
    const schedule = this.schedule;
    try {
      return await sendEnrolledBatch({
        campaignId,
        accountId,
        mcp,
        companyId: s.companyId,
        day,
        steps: template.steps.map((step) => ({ delayDays: step.delayDays, kind: step.kind })),
        ...(plan === undefined ? {} : { sequenceVersion: plan.version }),
        firstEmailsLeft: Math.max(0, template.newLeadsPerDay - (s.plannedDay === day ? s.plannedToday : 0)),
        maxItems: ENROLLED_BATCH_ITEMS,
        budgetRemainingUsd: remainingUsd(rollSpend(s.spend, Date.now()), this.budget),
        // Campaigns with a stored schedule: rows are due in their own window at the workflow's instant.
        ...(schedule === undefined ? {} : { at: Date.now(), schedule }),
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
      await this.transitionIf(() => this.s.status === 'running', 'paused', 'quota_exceeded', [this.pausedWithoutBudgetEvent('quota_exceeded')], Date.now(), () => (this.s.pausedFrom = 'running'));
      return 'halted';
    }
    if (await this.pauseIfOverBudget()) return 'halted';
    // An Update paused the campaign while the batch ran (its row said so: the batch halted).
    if (this.s.status !== 'running') return 'halted';
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
    const plan = sequenceOf(this.input, this.s);
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
    // Paused by an Update meanwhile: that pause stands (the limit is seen again on resume).
    await this.transitionIf(() => this.s.status === 'running', 'budget_paused', 'budget_exceeded', [pausedEvent('budget_exceeded', spent, limit), ...exceeded.events]);
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

  /**
   * Waits for a request or an Update, or until `deadline` (epoch ms) when given; then applies
   * requests. An Update has already applied itself: the wait ends so the loop looks again.
   */
  private async waitForRequests(deadline?: number): Promise<void> {
    const seen = this.wakeups;
    const woken = (): boolean => this.requests.length > 0 || this.wakeups !== seen;
    if (deadline === undefined) await condition(woken);
    else if (deadline > Date.now()) await condition(woken, deadline - Date.now());
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

  /** The resume of an Update (the lock is held): as applyResume, recorded with the user's change. */
  private async resumeLocked(at: number, change: (to: CampaignStatus) => ChangeRecord): Promise<void> {
    const s = this.s;
    s.lastResumeAt = at;
    s.pausedFrom = null;
    s.spend = rollSpend(s.spend, at);
    if (s.startedAt === null) await this.record('starting', null, [], at, { change: change('starting') });
    else if (reachedLimits(s.spend, this.budget).length > 0) await this.record('budget_paused', 'budget_exceeded', [], at, { change: change('budget_paused') });
    else await this.record('running', null, [], at, { change: change('running') });
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
    await this.exclusive(() => this.record(status, reason, events, at));
  }

  /**
   * A transition the main loop decided before an await: made only if `still()` holds once the
   * lock is taken (an Update may have moved the campaign meanwhile). `before` runs just before it.
   */
  private async transitionIf(still: () => boolean, status: CampaignStatus, reason: string | null, events: CampaignEvent[] = [], at: number = Date.now(), before?: () => void): Promise<boolean> {
    return this.exclusive(async () => {
      if (!still()) return false;
      before?.();
      await this.record(status, reason, events, at);
      return true;
    });
  }

  private transitionFrom(from: readonly CampaignStatus[], status: CampaignStatus, reason: string | null, events: CampaignEvent[] = [], at: number = Date.now()): Promise<boolean> {
    return this.transitionIf(() => from.includes(this.s.status), status, reason, events, at);
  }

  /**
   * The status, its search attribute and the row (with events, and the user's change record): the
   * lock is held. An Update's move (`now`, or with a change) is recorded by a local activity: its
   * answer waits for it.
   */
  private async record(status: CampaignStatus, reason: string | null, events: CampaignEvent[], at: number, opts: { change?: ChangeRecord; now?: boolean } = {}): Promise<void> {
    this.s.status = status;
    this.s.reason = reason;
    setStatusSearchAttribute(status);
    this.refreshDetails();
    const t = { campaignId: this.input.campaignId, accountId: this.input.accountId, status, reason, at: new Date(at).toISOString(), events };
    if (opts.change !== undefined) await recordTransitionNow({ ...t, change: opts.change });
    else if (opts.now === true) await recordTransitionNow(t);
    else await recordCampaignTransition(t);
  }

  /** Runs `fn` once every status change before it has finished (see `lock`). */
  private async exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const previous = this.lock;
    let release!: () => void;
    this.lock = new Promise<void>((resolve) => (release = resolve));
    await previous;
    try {
      return await fn();
    } finally {
      release();
    }
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

/**
 * What an edit's validator refuses, as a 400's message (the API has checked the same, with the
 * surface's field names; this guards the workflow against a request that bypassed it).
 */
function editProblem(edit: CampaignEdit, started: boolean): string | null {
  const { settings } = edit;
  if (settings.schedule !== undefined) {
    const problem = scheduleProblem(settings.schedule);
    if (problem !== null) return `schedule.${problem.field}: ${problem.message}`;
  }
  if (settings.startDate !== undefined && started) return 'schedule.start_date: the campaign has started; its start date cannot change';
  if (settings.trialDays !== undefined && settings.trialDays !== null && (!Number.isInteger(settings.trialDays) || settings.trialDays < 1)) return 'schedule.trial_days: a whole number of days, at least 1';
  const budget = settings.budget;
  if (budget !== undefined && budget !== null) {
    for (const [name, v] of Object.entries(budget)) if (v !== null && !(Number.isFinite(v) && v >= 0)) return `budget.${name}: must be a number of USD, 0 or more`;
  }
  if (edit.sequence !== undefined) {
    if (edit.sequence.steps.length === 0) return 'sequence: at least one step';
    if (edit.sequence.steps.length < edit.sentSteps) return `sequence: step ${edit.sentSteps} was already sent; a change may rewrite or add steps, not remove one that was sent`;
  }
  return null;
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

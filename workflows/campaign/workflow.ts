import {
  ActivityFailure,
  allHandlersFinished,
  ApplicationFailure,
  condition,
  continueAsNew,
  log,
  proxyActivities,
  setCurrentDetails,
  setHandler,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import { AccountIdKey, CampaignIdKey, CampaignStatusKey, McpKey, type KeywordSearchAttribute } from '../search-attributes';
import { addSpend, dueExceeded, dueWarnings, pauseBudgetFigures, reachedLimits, remainingUsd, rollSpend, roundUsd } from '../../src/campaigns/model/budget-windows';
import { DAY_MS, isoWeekday, localDate, nextBudgetReset, nextSendSlot, startOfUtcDate, type SlotRules } from '../../src/campaigns/model/calendar';
import { leadFactSignal, pauseSignal, resumeSignal, statusQuery, stopSignal, type CampaignActivityContract, type CampaignStatusView, type CampaignWorkflowInput, type ControlSignal, type LeadFactSignal, type SendBatchResult } from './contract';
import { MILESTONES, type CampaignEvent, type CampaignStatus } from '../../src/campaigns/model/status';
import { applyBatch, awaitingFirstEmail, countStop, dueItems, newLead } from './sequence';
import { carry, describe, initialState, statusView } from './state';
import { findTemplate, type OutreachTemplate } from '../../src/campaigns/model/templates';

type SearchAttributeUpdate = { key: KeywordSearchAttribute; value: string };
function setSearchAttributes(pairs: SearchAttributeUpdate[]): void {
  upsertSearchAttributes(pairs as unknown as Parameters<typeof upsertSearchAttributes>[0]);
}

// Database writes and lead search: short, retried until the database is back.
const { recordCampaignTransition, emitCampaignEvents, planLeads } = proxyActivities<CampaignActivityContract>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
});
// Scraping the target: a few attempts, then the campaign goes on without the company's details.
const { prepareCampaign } = proxyActivities<CampaignActivityContract>({
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '5 seconds', backoffCoefficient: 3, maximumAttempts: 4 },
});
// One sending day's emails. Sends are idempotent per (campaign, lead, step), so a retry resumes
// where the last attempt stopped; a day that cannot finish within 20 hours gives its steps back
// to the next sending day.
const { sendCampaignBatch } = proxyActivities<CampaignActivityContract>({
  startToCloseTimeout: '2 hours',
  scheduleToCloseTimeout: '20 hours',
  heartbeatTimeout: '5 minutes',
  retry: { initialInterval: '10 seconds', maximumInterval: '10 minutes' },
});

const DEFAULT_WINDOW = { startMinute: 9 * 60, endMinute: 17 * 60 };
/** Continue as new beyond this many events even if the server has not suggested it yet. */
const DEFAULT_MAX_HISTORY_EVENTS = 8_000;

type Request = { kind: 'pause' | 'resume'; at: number | null } | { kind: 'fact'; fact: LeadFactSignal };

/**
 * The life of one campaign: waits for its start date, scrapes the target and plans its first
 * leads, then sends on its schedule (frequency, sending window, follow-up delays) until its trial
 * ends or its sequences are done. Pause, stop and resume arrive as signals; budgets, the plan's
 * quota and milestones are checked around every sending day. Every transition is mirrored to the
 * database, with its events for the webhook outbox, by an activity.
 */
export async function campaignWorkflow(input: CampaignWorkflowInput): Promise<CampaignStatusView> {
  const s = initialState(input, Date.now());
  const budget = input.budget;
  const timeZone = input.timezone ?? 'UTC';
  let nextSend: number | null = null;
  const view = (): CampaignStatusView => statusView(s, budget);
  const refreshDetails = (): void => setCurrentDetails(describe(input, s, budget, nextSend));

  const requests: Request[] = [];
  const control = (kind: 'pause' | 'resume') => (signal?: ControlSignal) => {
    const at = signal?.at === undefined ? NaN : Date.parse(signal.at);
    requests.push({ kind, at: Number.isNaN(at) ? null : at });
  };
  setHandler(statusQuery, view);
  setHandler(pauseSignal, control('pause'));
  setHandler(stopSignal, control('pause'));
  setHandler(resumeSignal, control('resume'));
  setHandler(leadFactSignal, (fact) => void requests.push({ kind: 'fact', fact }));

  setSearchAttributes([
    { key: CampaignIdKey, value: input.campaignId },
    { key: AccountIdKey, value: input.accountId },
    { key: McpKey, value: input.mcp },
    { key: CampaignStatusKey, value: s.status },
  ]);
  refreshDetails();

  /** `at` is the logical instant (a timer's due time, the API's commit time), not the task's. */
  async function transition(status: CampaignStatus, reason: string | null, events: CampaignEvent[] = [], at: number = Date.now()): Promise<void> {
    s.status = status;
    s.reason = reason;
    setSearchAttributes([{ key: CampaignStatusKey, value: status }]);
    refreshDetails();
    await recordCampaignTransition({ campaignId: input.campaignId, accountId: input.accountId, status, reason, at: new Date(at).toISOString(), events });
  }

  async function emit(events: CampaignEvent[]): Promise<void> {
    if (events.length === 0) return;
    await emitCampaignEvents({ campaignId: input.campaignId, accountId: input.accountId, at: new Date().toISOString(), events });
  }

  /** campaign.paused with the budget figures the spec gives it (see pauseBudgetFigures for a manual or quota pause). */
  function pausedEvent(reason: string, spent: number, limit: number | null): CampaignEvent {
    return { event: 'campaign.paused', data: { reason, budget_spent_usd: spent, budget_limit_usd: limit } };
  }
  function pausedWithoutBudgetEvent(reason: 'manual' | 'quota_exceeded'): CampaignEvent {
    const figures = pauseBudgetFigures(budget, s.spend);
    return pausedEvent(reason, figures.spentUsd, figures.limitUsd);
  }

  let lastResumeAt = 0;
  // A function, not an inline test: the status changes inside awaited calls TypeScript cannot see.
  const isPaused = (): boolean => s.status === 'paused';

  /** Applies pending requests in arrival order. */
  async function drain(): Promise<void> {
    for (let r = requests.shift(); r !== undefined; r = requests.shift()) {
      if (r.kind === 'fact') {
        // Counted only when it ends a sequence under way: a lead stopped by a batch that saw the
        // same fact, or a second fact of one lead (a reply that also unsubscribes), counts once.
        const before = s.leads.length;
        s.leads = s.leads.filter((l) => l.leadId !== r.fact.leadId);
        if (s.leads.length !== before) {
          countStop(s.counters, r.fact.fact);
          refreshDetails();
        }
      } else if (r.kind === 'pause' && (s.status === 'starting' || s.status === 'running' || s.status === 'budget_paused')) {
        s.pausedFrom = s.status;
        await transition('paused', 'manual', [pausedWithoutBudgetEvent('manual')], r.at ?? Date.now());
      } else if (r.kind === 'resume' && (s.status === 'paused' || (s.status === 'budget_paused' && reachedLimits(rollSpend(s.spend, Date.now()), budget).length === 0))) {
        const at = r.at ?? Date.now();
        lastResumeAt = at;
        s.pausedFrom = null;
        s.spend = rollSpend(s.spend, Date.now());
        if (s.startedAt === null) await transition('starting', null, [], at);
        // A limit still reached: straight back to budget_paused (its events were sent in this window).
        else if (reachedLimits(s.spend, budget).length > 0) await transition('budget_paused', 'budget_exceeded', [], at);
        else await transition('running', null, [], at);
      }
    }
  }

  /** Waits for a request, or until `deadline` (epoch ms) when given; then applies requests. */
  async function waitForRequests(deadline?: number): Promise<void> {
    if (deadline === undefined) await condition(() => requests.length > 0);
    else if (deadline > Date.now()) await condition(() => requests.length > 0, deadline - Date.now());
    await drain();
  }

  async function complete(reason: 'trial_ended' | 'schedule_complete', at: number): Promise<CampaignStatusView> {
    await transition('completed', reason, [{ event: 'campaign.completed', data: { reason }, fill: 'final_stats' }], at);
    return view();
  }

  try {
    const template = findTemplate(input.mcp);
    if (template === undefined) throw ApplicationFailure.nonRetryable(`unknown outreach template ${input.mcp}`, 'UnknownTemplate');
    if (s.startedAt === null) await start(template);
    return await run(template);
  } catch (err) {
    const reason = failureReason(err);
    if (reason === null) throw err;
    log.warn('campaign failed', { campaignId: input.campaignId, reason });
    await transition('failed', reason);
    return view();
  }

  /** Starting: the start date, the target's scrape and the first leads; then running. */
  async function start(template: OutreachTemplate): Promise<void> {
    const startAt = input.startDate === undefined ? Date.now() : startOfUtcDate(input.startDate);
    while (Date.now() < startAt || s.status === 'paused') await waitForRequests(s.status === 'paused' ? undefined : startAt);

    let prepared: { companyId: string | null; scrapeProblem: string | null };
    try {
      prepared = await prepareCampaign({ campaignId: input.campaignId, accountId: input.accountId });
    } catch (err) {
      if (!(err instanceof ActivityFailure)) throw err;
      prepared = { companyId: null, scrapeProblem: err.cause?.message ?? err.message };
    }
    s.companyId = prepared.companyId;
    if (prepared.scrapeProblem !== null) log.info('target not scraped; writing without it', { campaignId: input.campaignId, problem: prepared.scrapeProblem });
    await drain();
    while (isPaused()) await waitForRequests();

    // On its start date, or when resumed after it: the trial clock starts here.
    s.startedAt = Math.max(startAt, lastResumeAt);
    s.trialEndsAt = input.trialDays === undefined ? null : s.startedAt + input.trialDays * DAY_MS;
    await planNewLeads(template, localDate(Date.now(), timeZone));
    await transition('running', null, [{ event: 'campaign.started', data: { mcp: input.mcp, target_url: input.targetUrl } }], s.startedAt);
    log.info('campaign running', { campaignId: input.campaignId, workflowId: workflowInfo().workflowId });
  }

  /** Takes today's new leads (up to the template's number per day, counting those already taken). */
  async function planNewLeads(template: OutreachTemplate, day: string): Promise<void> {
    if (s.plannedDay !== day) {
      s.plannedDay = day;
      s.plannedToday = 0;
    }
    const limit = Math.max(0, template.newLeadsPerDay - s.plannedToday - awaitingFirstEmail(s.leads));
    if (limit === 0) return;
    const planned = await planLeads({ campaignId: input.campaignId, accountId: input.accountId, limit, exclude: s.leads.map((l) => l.leadId) });
    spend(planned.costUsd);
    s.plannedToday += planned.leadIds.length;
    s.leads.push(...planned.leadIds.map((id) => newLead(id, day)));
    s.leadPoolExhausted = planned.leadIds.length === 0;
  }

  function spend(usd: number): void {
    if (usd <= 0) return;
    s.spend = addSpend(s.spend, usd);
    s.totalCostUsd = roundUsd(s.totalCostUsd + usd);
  }

  /** budget_paused with its events, when a limit is reached (announced once per window). */
  async function pauseIfOverBudget(): Promise<boolean> {
    s.spend = rollSpend(s.spend, Date.now());
    const warned = dueWarnings(s.spend, budget);
    s.spend = warned.spend;
    const exceeded = dueExceeded(s.spend, budget);
    s.spend = exceeded.spend;
    if (exceeded.first === null) {
      await emit(warned.events);
      return false;
    }
    const { spent, limit } = exceeded.first;
    await emit(warned.events);
    await transition('budget_paused', 'budget_exceeded', [pausedEvent('budget_exceeded', spent, limit), ...exceeded.events]);
    return true;
  }

  async function celebrateMilestones(): Promise<void> {
    const events: CampaignEvent[] = [];
    for (const m of MILESTONES) {
      if (s.counters.emailsSent < m || s.milestonesReached.includes(m)) continue;
      s.milestonesReached.push(m);
      events.push({ event: 'campaign.milestone', data: { milestone: `${m}_emails` }, fill: 'stats' });
    }
    await emit(events);
  }

  /** One sending day: new leads, the due steps, then budgets, quota and milestones. */
  async function tick(template: OutreachTemplate, day: string): Promise<'done' | 'halted' | 'complete'> {
    if (await pauseIfOverBudget()) return 'halted';
    await planNewLeads(template, day);
    const items = dueItems(s.leads, day, template);
    if (items.length === 0) return scheduleComplete() ? 'complete' : 'done';

    let result: SendBatchResult;
    try {
      result = await sendCampaignBatch({
        campaignId: input.campaignId,
        accountId: input.accountId,
        mcp: input.mcp,
        companyId: s.companyId,
        items,
        budgetRemainingUsd: remainingUsd(rollSpend(s.spend, Date.now()), budget),
      });
    } catch (err) {
      // Out of retries on a failure a retry could fix (SMTP or the LLM down all day): the steps
      // stay due for the next sending day. A non-retryable failure fails the campaign.
      if (!(err instanceof ActivityFailure) || failureReason(err) !== null) throw err;
      log.warn('sending day gave up; its steps stay due', { campaignId: input.campaignId, day, error: err.cause?.message ?? err.message });
      return 'done';
    }
    const applied = applyBatch(s.leads, result.results, day, template);
    s.leads = applied.leads;
    s.counters.emailsSent += applied.sent;
    s.counters.leadsContacted += applied.contacted;
    s.counters.sequencesFinished += applied.finished;
    for (const fact of applied.stopped) countStop(s.counters, fact);
    spend(result.costUsd);
    refreshDetails();

    await celebrateMilestones();
    if (result.halted === 'quota_exceeded') {
      s.pausedFrom = 'running';
      await transition('paused', 'quota_exceeded', [pausedWithoutBudgetEvent('quota_exceeded')]);
      return 'halted';
    }
    if (await pauseIfOverBudget()) return 'halted';
    if (result.halted === 'not_running') {
      // The API committed a pause; its signal is on the way (it is sent before the commit).
      await condition(() => requests.length > 0, '1 minute');
      return 'halted';
    }
    if (result.halted !== null) return 'halted';
    return scheduleComplete() ? 'complete' : 'done';
  }

  /** Every lead found has finished or stopped, and the last search found nobody new. */
  function scheduleComplete(): boolean {
    return s.leadPoolExhausted && s.leads.length === 0 && s.counters.leadsContacted > 0;
  }

  /** When a paused campaign resumes on its own: the next budget window, or the next month's quota. */
  function autoResumeAt(now: number): number | undefined {
    // The end of the window the limit was reached in (a window's key is its first date).
    const windowEnd = (type: 'daily' | 'weekly' | 'monthly'): number => {
      const key = s.spend[type].key;
      return nextBudgetReset(type, startOfUtcDate(type === 'monthly' ? `${key}-01` : key));
    };
    if (s.status === 'budget_paused') {
      const reached = reachedLimits(s.spend, budget);
      if (reached.length === 0) return now;
      return Math.max(...reached.map(windowEnd));
    }
    // The spend windows were rolled at the start of the batch that hit the quota: monthly is its month.
    if (s.status === 'paused' && s.reason === 'quota_exceeded') return windowEnd('monthly');
    return undefined;
  }

  async function maybeContinueAsNew(): Promise<void> {
    const info = workflowInfo();
    const limit = input.maxHistoryEvents ?? DEFAULT_MAX_HISTORY_EVENTS;
    if (!info.continueAsNewSuggested && info.historyLength < limit) return;
    await condition(allHandlersFinished);
    if (requests.length > 0) return; // apply them first; the next loop turn comes back here
    await continueAsNew<typeof campaignWorkflow>({ ...input, carried: carry(s) });
  }

  /** Running, paused or budget_paused until the trial ends, the schedule completes or it fails. */
  async function run(template: OutreachTemplate): Promise<CampaignStatusView> {
    const startedAt = s.startedAt as number;
    const rules = (): SlotRules => ({
      frequency: input.frequency ?? 'daily',
      timeZone,
      window: input.sendWindow ?? DEFAULT_WINDOW,
      // A weekly campaign sends on the weekday of its start date as the client wrote it (00:00 UTC
      // of that date is still the day before west of UTC), or of its first local day.
      anchorWeekday: input.startDate === undefined ? isoWeekday(localDate(startedAt, timeZone)) : isoWeekday(input.startDate),
      lastTickDay: s.lastTickDay,
    });
    for (;;) {
      await drain();
      const now = Date.now();
      // The trial is calendar time: it ends on its day, paused or not.
      if (s.trialEndsAt !== null && now >= s.trialEndsAt) return complete('trial_ended', s.trialEndsAt);

      let wake: number | undefined;
      if (s.status === 'running') {
        const slot = nextSendSlot(now, rules());
        nextSend = slot.at;
        if (slot.at <= now) {
          const outcome = await tick(template, slot.day);
          // A halted day is not done: after a resume within its window, it sends the rest.
          if (outcome !== 'halted') s.lastTickDay = slot.day;
          if (outcome === 'complete') return complete('schedule_complete', Date.now());
          continue;
        }
        wake = slot.at;
      } else {
        nextSend = null;
        const resumeAt = autoResumeAt(now);
        if (resumeAt !== undefined && resumeAt <= now) {
          s.spend = rollSpend(s.spend, now);
          await transition('running', null, [], resumeAt);
          continue;
        }
        wake = resumeAt;
      }
      refreshDetails();
      await maybeContinueAsNew();
      const deadline = s.trialEndsAt === null ? wake : wake === undefined ? s.trialEndsAt : Math.min(wake, s.trialEndsAt);
      await waitForRequests(deadline);
    }
  }
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

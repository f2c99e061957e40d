/**
 * Budget windows of a campaign (pure), the one definition both sides use: which window an instant
 * falls in (UTC day, ISO week from Monday, month), spend per window, when each window's 80%
 * warning and limit are due, and how much may still be spent.
 *
 * The workflow owns the live accounting: every cost its activities incur comes back in their
 * results, so the windows follow the workflow's clock (and the time-skipping tests) exactly. The
 * API reads recorded costs from the windows `windowStarts` gives (resume, usage).
 */
import { budgetWindowKey, nextBudgetReset, startOfUtcDate } from './calendar';
import { BUDGET_TYPES, BUDGET_WARNING_FRACTION, type BudgetType, type CampaignBudget, type CampaignEvent, type SpendWindow } from './status';

export { BUDGET_TYPES };
export type Spend = Record<BudgetType, SpendWindow>;

/** USD rounded to the micro-dollar, as costs are stored: sums of floats must not drift. */
export function roundUsd(v: number): number {
  return Math.round(v * 1e6) / 1e6;
}

export function limitOf(budget: CampaignBudget | undefined, type: BudgetType): number | null {
  if (budget === undefined) return null;
  return type === 'daily' ? budget.dailyUsd : type === 'weekly' ? budget.weeklyUsd : budget.monthlyUsd;
}

/**
 * The budget a pause that is not a budget's own (manual, quota) reports in campaign.paused: the
 * first of daily, weekly and monthly that the campaign has, with its window's spend. Without any
 * budget, the day's spend and no limit (null: there is none to report).
 */
export function pauseBudgetFigures(budget: CampaignBudget | undefined, spend: Spend): { spentUsd: number; limitUsd: number | null } {
  for (const type of BUDGET_TYPES) {
    const limit = limitOf(budget, type);
    if (limit !== null) return { spentUsd: spend[type].usd, limitUsd: limit };
  }
  return { spentUsd: spend.daily.usd, limitUsd: null };
}

export function emptySpend(now: number): Spend {
  const fresh = (type: BudgetType): SpendWindow => ({ key: budgetWindowKey(type, now), usd: 0, warned: false, exceeded: false });
  return { daily: fresh('daily'), weekly: fresh('weekly'), monthly: fresh('monthly') };
}

/** Starts a new window for every type whose window `now` has left. */
export function rollSpend(spend: Spend, now: number): Spend {
  const next = { ...spend };
  for (const type of BUDGET_TYPES) {
    const key = budgetWindowKey(type, now);
    if (spend[type].key !== key) next[type] = { key, usd: 0, warned: false, exceeded: false };
  }
  return next;
}

export function addSpend(spend: Spend, usd: number): Spend {
  const add = (w: SpendWindow): SpendWindow => ({ ...w, usd: roundUsd(w.usd + usd) });
  return { daily: add(spend.daily), weekly: add(spend.weekly), monthly: add(spend.monthly) };
}

/** USD spent in each current window. */
export type WindowAmounts = Record<BudgetType, number>;

/** The first instant (epoch ms, UTC) of each window holding `now`. */
export function windowStarts(now: number): Record<BudgetType, number> {
  const start = (type: BudgetType): number => {
    const key = budgetWindowKey(type, now);
    return startOfUtcDate(type === 'monthly' ? `${key}-01` : key);
  };
  return { daily: start('daily'), weekly: start('weekly'), monthly: start('monthly') };
}

/**
 * The monthly window named by its key (`YYYY-MM`, as budgetWindowKey gives it): [start, end) in
 * epoch ms. The plan's quota and the usage report count the same months as the monthly budget.
 */
export function monthlyWindow(key: string): { readonly start: number; readonly end: number } {
  const start = startOfUtcDate(`${key}-01`);
  return { start, end: nextBudgetReset('monthly', start) };
}

/** Budget types whose limit the amounts have reached. A limit of 0 allows no spend at all. */
export function reachedBudgets(spent: WindowAmounts, budget: CampaignBudget | undefined): BudgetType[] {
  return BUDGET_TYPES.filter((type) => {
    const limit = limitOf(budget, type);
    return limit !== null && spent[type] >= limit;
  });
}

/** Budget types whose limit the workflow's spend windows have reached. */
export function reachedLimits(spend: Spend, budget: CampaignBudget | undefined): BudgetType[] {
  return reachedBudgets({ daily: spend.daily.usd, weekly: spend.weekly.usd, monthly: spend.monthly.usd }, budget);
}

/** The smallest room left under any limit, or null without a budget. */
export function remainingUsd(spend: Spend, budget: CampaignBudget | undefined): number | null {
  let room: number | null = null;
  for (const type of BUDGET_TYPES) {
    const limit = limitOf(budget, type);
    if (limit === null) continue;
    const left = Math.max(0, roundUsd(limit - spend[type].usd));
    room = room === null ? left : Math.min(room, left);
  }
  return room;
}

/**
 * The 80% warnings that are due and not yet sent in their window, as events (both kinds the spec
 * lists, same payload), with the windows marked as warned.
 */
export function dueWarnings(spend: Spend, budget: CampaignBudget | undefined): { spend: Spend; events: CampaignEvent[] } {
  const next = { ...spend };
  const events: CampaignEvent[] = [];
  for (const type of BUDGET_TYPES) {
    const limit = limitOf(budget, type);
    const w = spend[type];
    if (limit === null || limit <= 0 || w.warned || w.usd < roundUsd(limit * BUDGET_WARNING_FRACTION)) continue;
    next[type] = { ...w, warned: true };
    const data = { budget_type: type, spent_usd: w.usd, limit_usd: limit, percentage: Math.floor(roundUsd((w.usd / limit) * 100)) };
    events.push({ event: 'budget.warning', data }, { event: 'campaign.budget_warning', data });
  }
  return { spend: next, events };
}

/**
 * The limits reached and not yet announced in their window: `campaign.budget_exceeded` for each,
 * with the windows marked. `first` is the one the pause reports.
 */
export function dueExceeded(spend: Spend, budget: CampaignBudget | undefined): { spend: Spend; events: CampaignEvent[]; first: { type: BudgetType; spent: number; limit: number } | null } {
  const next = { ...spend };
  const events: CampaignEvent[] = [];
  let first: { type: BudgetType; spent: number; limit: number } | null = null;
  for (const type of reachedLimits(spend, budget)) {
    const limit = limitOf(budget, type) as number;
    const w = spend[type];
    first ??= { type, spent: w.usd, limit };
    if (w.exceeded) continue;
    next[type] = { ...w, exceeded: true };
    events.push({ event: 'campaign.budget_exceeded', data: { budget_type: type, spent_usd: w.usd, limit_usd: limit } });
  }
  return { spend: next, events, first };
}

/**
 * The figures of one emailed report: what happened to a campaign's emails in a period [start, end),
 * counted with the definitions of GET /campaigns/:id/stats (campaign-counts.ts, cost-breakdown.ts,
 * rates.ts), so a period covering the whole campaign shows exactly the statistics' figures.
 */
import { QueryTypes, type Sequelize } from 'sequelize';
import type { CampaignStatus } from '../../db/models/campaign';
import { addDays, localDate } from '../model/calendar';
import { windowStarts } from '../model/budget-windows';
import { BUDGET_TYPES, type BudgetType } from '../model/status';
import { campaignCounts, countColumns, type CampaignCounts } from './campaign-counts';
import { campaignCosts, type CampaignCosts } from './cost-breakdown';
import { dailyActivity, type DailyActivity } from './daily-activity';
import { campaignRates, rate, type CampaignRates } from './rates';

/** The campaign as a report names it. */
export interface ReportCampaign {
  readonly id: string;
  readonly accountId: string;
  readonly name: string;
  readonly status: CampaignStatus;
  readonly timezone: string;
  readonly reportingFrequency: string | null;
  readonly maxDailyUsd: number | null;
  readonly maxWeeklyUsd: number | null;
  readonly maxMonthlyUsd: number | null;
  readonly createdAt: Date;
}

export interface ReplyCategoryCount {
  /** The qualifier's category (interested, meeting_booked, not_interested, ...); `uncategorised` before qualification. */
  readonly category: string;
  readonly replies: number;
}

export interface BudgetUse {
  readonly type: BudgetType;
  readonly limitUsd: number;
  /** Spend in the budget window (UTC day, ISO week, month) holding the period's end, up to that end. */
  readonly spentUsd: number;
  /** First instant of that window. */
  readonly windowStart: Date;
}

export interface StepFigures {
  /** 1 for the first email. */
  readonly step: number;
  readonly emailsSent: number;
  readonly delivered: number;
  readonly openRate: number;
  readonly replyRate: number;
  readonly clickRate: number;
}

export interface PeriodReport {
  readonly campaign: ReportCampaign;
  readonly period: { readonly start: Date; readonly end: Date };
  readonly counts: CampaignCounts;
  readonly rates: CampaignRates;
  readonly costs: CampaignCosts;
  /** Replies people wrote (not auto-replies or bounces) received in the period, most first. */
  readonly repliesByCategory: readonly ReplyCategoryCount[];
  /** Only the budgets the campaign has. */
  readonly budgets: readonly BudgetUse[];
  /** Best and worst step by STEP_RANKING; null when too few steps have the emails to compare. */
  readonly bestStep: StepFigures | null;
  readonly worstStep: StepFigures | null;
  /** Local days of the chart: the period's days, at least the CHART_MIN_DAYS ending with its last. */
  readonly daily: readonly DailyActivity[];
  /** Nothing at all happened in the period: no fact, no cost. */
  readonly empty: boolean;
}

/**
 * How steps are ranked (docs/decisions.md, "Reports by email"): over each step's emails since the
 * campaign began up to the period's end (a period of a day holds too few emails per step to rank
 * them), among steps with at least STEP_MIN_DELIVERED delivered emails: reply rate first, then
 * open rate, then click rate, then the earlier step. Best is the first; worst the last, shown only
 * when at least two steps qualify.
 */
export const STEP_MIN_DELIVERED = 10;
export const CHART_MIN_DAYS = 7;

const STEP_COUNTS = countColumns(['emailsSent', 'delivered', 'opened', 'clicked', 'replied']);

export async function readReportCampaign(sequelize: Sequelize, campaignId: string): Promise<(ReportCampaign & { reportingEmail: string | null }) | null> {
  const rows = await sequelize.query<ReportCampaign & { reportingEmail: string | null }>(
    `SELECT id, account_id AS "accountId", name, status, timezone, reporting_email AS "reportingEmail", reporting_frequency AS "reportingFrequency",
            budget_max_daily_usd::float8 AS "maxDailyUsd", budget_max_weekly_usd::float8 AS "maxWeeklyUsd", budget_max_monthly_usd::float8 AS "maxMonthlyUsd",
            created_at AS "createdAt"
       FROM campaigns WHERE id = $1`,
    { bind: [campaignId], type: QueryTypes.SELECT },
  );
  return rows[0] ?? null;
}

export async function periodReport(sequelize: Sequelize, campaign: ReportCampaign, period: { start: Date; end: Date }): Promise<PeriodReport> {
  const id = campaign.id;
  const lastDay = localDate(period.end.getTime() - 1, campaign.timezone);
  const firstDay = localDate(Math.min(period.start.getTime(), period.end.getTime() - 1), campaign.timezone);
  const chartFrom = [firstDay, addDays(lastDay, 1 - CHART_MIN_DAYS)].sort()[0]!;
  const [counts, costs, repliesByCategory, budgets, steps, daily] = await Promise.all([
    campaignCounts(sequelize, id, period),
    campaignCosts(sequelize, id, period),
    replyCategories(sequelize, id, period),
    budgetUse(sequelize, campaign, period.end),
    stepFigures(sequelize, id, period.end),
    dailyActivity(sequelize, id, chartFrom, lastDay, campaign.timezone),
  ]);
  const ranked = rankSteps(steps);
  const empty = Object.values(counts).every((n) => n === 0) && costs.totalUsd === 0 && repliesByCategory.length === 0;
  return {
    campaign,
    period,
    counts,
    rates: campaignRates(counts),
    costs,
    repliesByCategory,
    budgets,
    bestStep: ranked[0] ?? null,
    worstStep: ranked.length >= 2 ? ranked[ranked.length - 1]! : null,
    daily,
    empty,
  };
}

async function replyCategories(sequelize: Sequelize, campaignId: string, period: { start: Date; end: Date }): Promise<ReplyCategoryCount[]> {
  return sequelize.query<ReplyCategoryCount>(
    `SELECT coalesce(category, 'uncategorised') AS category, count(*)::int AS replies
       FROM replies WHERE campaign_id = $1 AND kind = 'reply' AND received_at >= $2 AND received_at < $3
      GROUP BY 1 ORDER BY 2 DESC, 1`,
    { bind: [campaignId, period.start.toISOString(), period.end.toISOString()], type: QueryTypes.SELECT },
  );
}

async function budgetUse(sequelize: Sequelize, c: ReportCampaign, end: Date): Promise<BudgetUse[]> {
  const limits: Record<BudgetType, number | null> = { daily: c.maxDailyUsd, weekly: c.maxWeeklyUsd, monthly: c.maxMonthlyUsd };
  const types = BUDGET_TYPES.filter((t) => limits[t] !== null);
  if (types.length === 0) return [];
  // The windows the budget check itself uses (windowStarts), holding the period's last instant.
  const starts = windowStarts(end.getTime() - 1);
  const [row] = await sequelize.query<Record<BudgetType, number>>(
    `SELECT round(coalesce(sum(amount_usd) FILTER (WHERE occurred_at >= $2), 0), 6)::float8 AS daily,
            round(coalesce(sum(amount_usd) FILTER (WHERE occurred_at >= $3), 0), 6)::float8 AS weekly,
            round(coalesce(sum(amount_usd) FILTER (WHERE occurred_at >= $4), 0), 6)::float8 AS monthly
       FROM costs WHERE campaign_id = $1 AND occurred_at >= least($2::timestamptz, $3::timestamptz, $4::timestamptz) AND occurred_at < $5`,
    {
      bind: [c.id, ...BUDGET_TYPES.map((t) => new Date(starts[t]).toISOString()), end.toISOString()],
      type: QueryTypes.SELECT,
    },
  );
  const spent = (t: BudgetType): number => row![t];
  return types.map((type) => ({ type, limitUsd: limits[type]!, spentUsd: spent(type), windowStart: new Date(starts[type]) }));
}

async function stepFigures(sequelize: Sequelize, campaignId: string, end: Date): Promise<StepFigures[]> {
  const rows = await sequelize.query<Pick<CampaignCounts, 'emailsSent' | 'delivered' | 'opened' | 'clicked' | 'replied'> & { step: number }>(
    `SELECT e.step, ${STEP_COUNTS}
       FROM email_events ev JOIN emails e ON e.id = ev.email_id
      WHERE ev.campaign_id = $1 AND ev.occurred_at < $2
      GROUP BY e.step`,
    { bind: [campaignId, end.toISOString()], type: QueryTypes.SELECT },
  );
  return rows.map((r) => ({
    step: r.step + 1,
    emailsSent: r.emailsSent,
    delivered: r.delivered,
    openRate: rate(r.opened, r.delivered),
    replyRate: rate(r.replied, r.delivered),
    clickRate: rate(r.clicked, r.delivered),
  }));
}

/** Steps with enough emails, best first (STEP_MIN_DELIVERED, STEP_RANKING above). */
export function rankSteps(steps: readonly StepFigures[]): StepFigures[] {
  return steps
    .filter((s) => s.delivered >= STEP_MIN_DELIVERED)
    .sort((a, b) => b.replyRate - a.replyRate || b.openRate - a.openRate || b.clickRate - a.clickRate || a.step - b.step);
}

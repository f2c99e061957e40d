import { QueryTypes, type Sequelize } from 'sequelize';
import { toUsd, type Campaign, type CampaignStatus } from '../../db/models/campaign';
import { preparedQuery } from '../../db/prepared-query';
import { COUNT_COLUMNS, countsOf, type CampaignCounts } from './campaign-counts';
import { DAY_MS } from './utc-dates';

/** One campaign as its owner reads it: settings, live status and headline figures. */
export interface CampaignDetail {
  readonly id: string;
  /** The surface the campaign was created on; both surfaces show every campaign. */
  readonly createdVia: 'a' | 'b';
  readonly name: string;
  readonly status: CampaignStatus;
  readonly statusReason: string | null;
  readonly mcp: string;
  readonly targetUrl: string;
  /** The brand the campaign speaks for: the host name of its target (brandUrl on Surface B), without www. */
  readonly brandId: string | null;
  readonly targetAudience: string | null;
  readonly targetOutcome: string | null;
  readonly valueForTarget: string | null;
  readonly createdAt: Date;
  readonly budget: {
    readonly maxDailyUsd: number | null;
    readonly maxWeeklyUsd: number | null;
    readonly maxMonthlyUsd: number | null;
    readonly spentTodayUsd: number;
  };
  readonly schedule: {
    readonly frequency: string;
    readonly trialDays: number | null;
    readonly startDate: string | null;
    readonly daysRemaining: number | null;
    readonly timezone: string;
    readonly sendWindow: { readonly startMinute: number; readonly endMinute: number };
  };
  readonly reporting: { readonly frequency: string | null; readonly email: string | null; readonly webhookUrl: string | null };
  readonly counts: CampaignCounts;
  readonly startedAt: Date | null;
  readonly pausedAt: Date | null;
  readonly resumedAt: Date | null;
  readonly completedAt: Date | null;
  readonly failedAt: Date | null;
}

type TrialFields = Pick<Campaign, 'scheduleTrialDays' | 'startedAt' | 'status'>;

/**
 * Days left in the trial: the whole trial before the campaign has started, then the days until
 * `startedAt + trialDays` (a day begun counts as a day left, as the workflow ends the trial at
 * that instant), 0 once it has passed or the campaign has ended; null without a trial.
 */
export function trialDaysRemaining(c: TrialFields, now: Date): number | null {
  if (c.scheduleTrialDays === null) return null;
  if (c.status === 'completed' || c.status === 'failed') return 0;
  if (c.startedAt === null) return c.scheduleTrialDays;
  const endsAt = c.startedAt.getTime() + c.scheduleTrialDays * DAY_MS;
  return Math.min(c.scheduleTrialDays, Math.max(0, Math.ceil((endsAt - now.getTime()) / DAY_MS)));
}

/** The row of CAMPAIGN_DETAIL_QUERY: the campaign's columns plus its counts and spend. */
export interface CampaignDetailRow extends CampaignCounts {
  id: string;
  created_via: 'a' | 'b';
  name: string;
  mcp: string;
  target_url: string;
  brand_id: string | null;
  target_audience: string | null;
  target_outcome: string | null;
  value_for_target: string | null;
  budget_max_daily_usd: string | null;
  budget_max_weekly_usd: string | null;
  budget_max_monthly_usd: string | null;
  schedule_frequency: string;
  schedule_trial_days: number | null;
  schedule_start_date: string | null;
  timezone: string;
  send_window_start_minute: number;
  send_window_end_minute: number;
  reporting_frequency: string | null;
  reporting_email: string | null;
  reporting_webhook_url: string | null;
  status: CampaignStatus;
  status_reason: string | null;
  started_at: Date | null;
  paused_at: Date | null;
  resumed_at: Date | null;
  completed_at: Date | null;
  failed_at: Date | null;
  created_at: Date;
  spent_today_usd: number;
}

/** The columns and joins of a campaign's detail over the campaigns `source` gives (a table or a subquery named c). */
const detailFrom = (source: string): string => `
SELECT c.id, c.created_via, c.name, c.mcp, c.target_url, c.brand_id, c.target_audience, c.target_outcome, c.value_for_target,
       c.budget_max_daily_usd::text, c.budget_max_weekly_usd::text, c.budget_max_monthly_usd::text,
       c.schedule_frequency, c.schedule_trial_days, c.schedule_start_date::text, c.timezone,
       c.send_window_start_minute, c.send_window_end_minute,
       c.reporting_frequency, c.reporting_email, c.reporting_webhook_url,
       c.status, c.status_reason, c.started_at, c.paused_at, c.resumed_at, c.completed_at, c.failed_at, c.created_at,
       e.*,
       (SELECT round(coalesce(sum(amount_usd), 0), 6)::float8 FROM costs
         WHERE campaign_id = c.id AND occurred_at >= date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC') AS spent_today_usd
  FROM ${source}
  CROSS JOIN LATERAL (SELECT ${COUNT_COLUMNS} FROM email_events WHERE campaign_id = c.id) e
`;

/**
 * One statement, prepared per connection: the campaign by primary key (and owner), its counts
 * over `email_events` and today's spend over `costs`, both through their campaign indexes. A GET
 * of a campaign is the hottest read of both surfaces, so it costs one round trip, not three.
 * Exported so the benchmark's database floor runs exactly this read.
 */
export const CAMPAIGN_DETAIL_QUERY = `${detailFrom('campaigns c')}
 WHERE c.id = $1 AND c.account_id = $2`;

/** The campaign if `accountId` owns it, with its counts and spend; null otherwise. */
export async function campaignDetail(sequelize: Sequelize, accountId: string, campaignId: string, now = new Date()): Promise<CampaignDetail | null> {
  const rows = await preparedQuery<CampaignDetailRow>(sequelize, 'campaign_detail', CAMPAIGN_DETAIL_QUERY, [campaignId, accountId]);
  const c = rows[0];
  return c === undefined ? null : detailOf(c, now);
}

/** The detail of a row of CAMPAIGN_DETAIL_QUERY (exported for the benchmark's floor, which renders the same body). */
export function detailOf(c: CampaignDetailRow, now: Date): CampaignDetail {
  return {
    id: c.id,
    createdVia: c.created_via,
    name: c.name,
    status: c.status,
    statusReason: c.status_reason,
    mcp: c.mcp,
    targetUrl: c.target_url,
    brandId: c.brand_id,
    targetAudience: c.target_audience,
    targetOutcome: c.target_outcome,
    valueForTarget: c.value_for_target,
    createdAt: c.created_at,
    budget: {
      maxDailyUsd: toUsd(c.budget_max_daily_usd),
      maxWeeklyUsd: toUsd(c.budget_max_weekly_usd),
      maxMonthlyUsd: toUsd(c.budget_max_monthly_usd),
      spentTodayUsd: c.spent_today_usd,
    },
    schedule: {
      frequency: c.schedule_frequency,
      trialDays: c.schedule_trial_days,
      startDate: c.schedule_start_date,
      daysRemaining: trialDaysRemaining({ scheduleTrialDays: c.schedule_trial_days, startedAt: c.started_at, status: c.status }, now),
      timezone: c.timezone,
      sendWindow: { startMinute: c.send_window_start_minute, endMinute: c.send_window_end_minute },
    },
    reporting: { frequency: c.reporting_frequency, email: c.reporting_email, webhookUrl: c.reporting_webhook_url },
    counts: countsOf(c),
    startedAt: c.started_at,
    pausedAt: c.paused_at,
    resumedAt: c.resumed_at,
    completedAt: c.completed_at,
    failedAt: c.failed_at,
  };
}

export interface CampaignPage {
  readonly details: readonly CampaignDetail[];
  readonly total: number;
}

/**
 * A page of the account's campaigns, newest first (the order of Surface A's list), each with its
 * detail: the page's rows are picked first (the (account, created_at) index), and the counts and
 * spend are read for those rows only, however many campaigns the account has.
 */
export async function campaignDetailsPage(
  sequelize: Sequelize,
  accountId: string,
  opts: { readonly status?: CampaignStatus; readonly limit: number; readonly offset: number },
  now = new Date(),
): Promise<CampaignPage> {
  const page = `(SELECT * FROM campaigns WHERE account_id = $1 AND ($2::text IS NULL OR status = $2)
                 ORDER BY created_at DESC, id DESC LIMIT $3 OFFSET $4) c`;
  const sql = `${detailFrom(page)}
 ORDER BY c.created_at DESC, c.id DESC`;
  const bind = [accountId, opts.status ?? null];
  const [rows, counted] = await Promise.all([
    sequelize.query<CampaignDetailRow>(sql, { bind: [...bind, opts.limit, opts.offset], type: QueryTypes.SELECT }),
    sequelize.query<{ total: number }>('SELECT count(*)::int AS total FROM campaigns WHERE account_id = $1 AND ($2::text IS NULL OR status = $2)', {
      bind,
      type: QueryTypes.SELECT,
    }),
  ]);
  return { details: rows.map((r) => detailOf(r, now)), total: counted[0]!.total };
}

import { QueryTypes, type Sequelize } from 'sequelize';
import type { Campaign } from '../../db/models/campaign';
import { addDays, daysBetween, utcDate } from './utc-dates';

/** One UTC day of a campaign. */
export interface DailyStat {
  readonly date: string;
  readonly emailsSent: number;
  /** Emails first opened that day. */
  readonly opened: number;
  /** Emails first replied to that day. */
  readonly replied: number;
  readonly costUsd: number;
}

/** The longest range one request may ask for, in days (a leap year's worth). */
export const MAX_DAILY_RANGE_DAYS = 366;

export type DailyRange = { readonly start: string; readonly end: string } | { readonly problem: string };

/**
 * The days to report. Without `end`: today, or the day the campaign ended. Without `start`: the
 * campaign's first day (started, else created), but never after `end` and never more than the
 * maximum range before it, so a request without dates is always valid. Dates the caller gives
 * are checked: start after end, or a range longer than MAX_DAILY_RANGE_DAYS, is a problem.
 */
export function resolveDailyRange(c: Pick<Campaign, 'startedAt' | 'createdAt' | 'completedAt' | 'failedAt'>, given: { start?: string; end?: string }, now: Date): DailyRange {
  const end = given.end ?? utcDate(c.completedAt ?? c.failedAt ?? now);
  let start = given.start;
  if (start === undefined) {
    const first = utcDate(c.startedAt ?? c.createdAt);
    const earliest = addDays(end, -(MAX_DAILY_RANGE_DAYS - 1));
    start = first > end ? end : first < earliest ? earliest : first;
  }
  if (start > end) return { problem: `start (${start}) is after end (${end})` };
  const days = daysBetween(start, end) + 1;
  if (days > MAX_DAILY_RANGE_DAYS) return { problem: `the range covers ${days} days; at most ${MAX_DAILY_RANGE_DAYS} are allowed` };
  return { start, end };
}

// Every day of the range, zero days included. Facts and costs are bucketed by their UTC date; the
// range bounds are turned into instants once so the indexes on (campaign_id, …, occurred_at) serve.
const SQL = `
WITH days AS (
  SELECT d::date AS day FROM generate_series($2::date, $3::date, interval '1 day') AS d
), bounds AS (
  SELECT $2::date::timestamp AT TIME ZONE 'UTC' AS lo, ($3::date + 1)::timestamp AT TIME ZONE 'UTC' AS hi
), facts AS (
  SELECT (e.occurred_at AT TIME ZONE 'UTC')::date AS day,
         count(*) FILTER (WHERE e.type = 'sent') AS sent,
         count(DISTINCT e.email_id) FILTER (WHERE e.type = 'opened') AS opened,
         count(DISTINCT e.email_id) FILTER (WHERE e.type = 'replied') AS replied
    FROM email_events e, bounds b
   WHERE e.campaign_id = $1 AND e.type IN ('sent', 'opened', 'replied') AND e.occurred_at >= b.lo AND e.occurred_at < b.hi
   GROUP BY 1
), spend AS (
  SELECT (c.occurred_at AT TIME ZONE 'UTC')::date AS day, sum(c.amount_usd) AS usd
    FROM costs c, bounds b
   WHERE c.campaign_id = $1 AND c.occurred_at >= b.lo AND c.occurred_at < b.hi
   GROUP BY 1
)
SELECT to_char(days.day, 'YYYY-MM-DD') AS "date",
       coalesce(facts.sent, 0)::int AS "emailsSent",
       coalesce(facts.opened, 0)::int AS "opened",
       coalesce(facts.replied, 0)::int AS "replied",
       round(coalesce(spend.usd, 0), 6)::float8 AS "costUsd"
  FROM days
  LEFT JOIN facts ON facts.day = days.day
  LEFT JOIN spend ON spend.day = days.day
 ORDER BY days.day`;

export async function dailyStats(sequelize: Sequelize, campaignId: string, start: string, end: string): Promise<DailyStat[]> {
  return sequelize.query<DailyStat>(SQL, { bind: [campaignId, start, end], type: QueryTypes.SELECT });
}

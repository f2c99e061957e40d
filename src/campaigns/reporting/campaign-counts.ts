import { QueryTypes, type Sequelize } from 'sequelize';

/** What happened to a campaign's emails, counted from its facts (`email_events`). */
export interface CampaignCounts {
  /** 'sent' facts: emails that left (including one whose acceptance is unknown after a crash). */
  readonly emailsSent: number;
  /** Emails accepted by the receiving server and not bounced later (a DSN turns a delivery into a bounce). */
  readonly delivered: number;
  readonly bounced: number;
  /** Emails opened at least once (a click counts as an open). */
  readonly opened: number;
  /** Emails with at least one tracked link clicked. */
  readonly clicked: number;
  /** Emails that got a real reply (auto-replies and bounces are not replies). */
  readonly replied: number;
  readonly unsubscribed: number;
  /** Meetings booked: every booking counts, even two by the same lead. */
  readonly meetingsBooked: number;
}

/**
 * Each count as an SQL aggregate over rows of `email_events`, shared by a campaign's statistics,
 * its read model (the headline counts) and the benchmarks (which group them by campaign), so none
 * can disagree. Per-email counts are distinct email ids: an email opened from three devices or
 * with two links clicked counts once. "Delivered" is |delivered ∪ bounced| − |bounced|: delivered
 * emails that never bounced, in one pass.
 */
const COUNT_SQL: Readonly<Record<keyof CampaignCounts, string>> = {
  emailsSent: `count(*) FILTER (WHERE type = 'sent')::int`,
  delivered: `(count(DISTINCT email_id) FILTER (WHERE type IN ('delivered', 'bounced'))
    - count(DISTINCT email_id) FILTER (WHERE type = 'bounced'))::int`,
  bounced: `count(DISTINCT email_id) FILTER (WHERE type = 'bounced')::int`,
  opened: `count(DISTINCT email_id) FILTER (WHERE type = 'opened')::int`,
  clicked: `count(DISTINCT email_id) FILTER (WHERE type = 'clicked')::int`,
  replied: `count(DISTINCT email_id) FILTER (WHERE type = 'replied')::int`,
  unsubscribed: `count(DISTINCT email_id) FILTER (WHERE type = 'unsubscribed')::int`,
  meetingsBooked: `count(*) FILTER (WHERE type = 'meeting_booked')::int`,
};

/** The select list of the named counts, each aliased by its name: a query computes only what it returns. */
export function countColumns(names: readonly (keyof CampaignCounts)[]): string {
  return names.map((name) => `\n  ${COUNT_SQL[name]} AS "${name}"`).join(',');
}

/** Every count (CampaignCounts) as a select list. */
export const COUNT_COLUMNS = countColumns(['emailsSent', 'delivered', 'bounced', 'opened', 'clicked', 'replied', 'unsubscribed', 'meetingsBooked']);

/** [start, end) instants: only the facts that occurred in it (an emailed report's period). */
export interface FactPeriod {
  readonly start: Date;
  readonly end: Date;
}

/** The campaign's counts over all its facts, or over those of `period`. */
export async function campaignCounts(sequelize: Sequelize, campaignId: string, period?: FactPeriod): Promise<CampaignCounts> {
  const sql =
    period === undefined
      ? `SELECT ${COUNT_COLUMNS} FROM email_events WHERE campaign_id = $1`
      : `SELECT ${COUNT_COLUMNS} FROM email_events WHERE campaign_id = $1 AND occurred_at >= $2 AND occurred_at < $3`;
  const bind = period === undefined ? [campaignId] : [campaignId, period.start.toISOString(), period.end.toISOString()];
  const rows = await sequelize.query<CampaignCounts>(sql, { bind, type: QueryTypes.SELECT });
  // An aggregate without GROUP BY always returns its one row.
  return rows[0]!;
}

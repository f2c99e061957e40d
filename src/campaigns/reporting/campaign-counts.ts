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
 * The counts as SQL aggregates over rows of `email_events`, shared by a campaign's statistics and
 * the benchmarks (which group them by campaign), so the two cannot disagree. Per-email counts are
 * distinct email ids: an email opened from three devices or with two links clicked counts once.
 * "Delivered" is |delivered ∪ bounced| − |bounced|: delivered emails that never bounced, in one pass.
 */
export const COUNT_COLUMNS = `
  count(*) FILTER (WHERE type = 'sent')::int AS "emailsSent",
  (count(DISTINCT email_id) FILTER (WHERE type IN ('delivered', 'bounced'))
    - count(DISTINCT email_id) FILTER (WHERE type = 'bounced'))::int AS "delivered",
  count(DISTINCT email_id) FILTER (WHERE type = 'bounced')::int AS "bounced",
  count(DISTINCT email_id) FILTER (WHERE type = 'opened')::int AS "opened",
  count(DISTINCT email_id) FILTER (WHERE type = 'clicked')::int AS "clicked",
  count(DISTINCT email_id) FILTER (WHERE type = 'replied')::int AS "replied",
  count(DISTINCT email_id) FILTER (WHERE type = 'unsubscribed')::int AS "unsubscribed",
  count(*) FILTER (WHERE type = 'meeting_booked')::int AS "meetingsBooked"`;

/** Just the counts of a row that carries COUNT_COLUMNS among others (a response lists exactly these). */
export function countsOf(row: CampaignCounts): CampaignCounts {
  return {
    emailsSent: row.emailsSent,
    delivered: row.delivered,
    bounced: row.bounced,
    opened: row.opened,
    clicked: row.clicked,
    replied: row.replied,
    unsubscribed: row.unsubscribed,
    meetingsBooked: row.meetingsBooked,
  };
}

export async function campaignCounts(sequelize: Sequelize, campaignId: string): Promise<CampaignCounts> {
  const rows = await sequelize.query<CampaignCounts>(`SELECT ${COUNT_COLUMNS} FROM email_events WHERE campaign_id = $1`, {
    bind: [campaignId],
    type: QueryTypes.SELECT,
  });
  // An aggregate without GROUP BY always returns its one row.
  return rows[0]!;
}

import { QueryTypes, type Sequelize } from 'sequelize';
import { COUNT_COLUMNS } from './campaign-counts';

/**
 * Delivery statistics of an account's campaigns, or of one brand's (GET /v1/email-gateway/stats):
 * the spec's fourteen integers.
 */
export interface GatewayStats {
  /** Distinct leads at least one email was sent to. */
  readonly emailsContacted: number;
  readonly emailsSent: number;
  readonly emailsDelivered: number;
  readonly emailsOpened: number;
  readonly emailsClicked: number;
  readonly emailsReplied: number;
  readonly emailsBounced: number;
  readonly repliesInterested: number;
  readonly repliesMeetingBooked: number;
  readonly repliesClosed: number;
  readonly repliesNeutral: number;
  readonly repliesNotInterested: number;
  readonly repliesOutOfOffice: number;
  readonly repliesUnsubscribe: number;
}

// The email counts are the campaign statistics' own aggregates (COUNT_COLUMNS) over every campaign
// in scope, so one campaign's figures here equal its /stats. The reply counters count qualified
// inbound messages by category: auto-replies included (they are where out_of_office comes from),
// bounces not (they are not answers), and a lead who answers twice is two replies.
const SQL = `
WITH scope AS (
  SELECT id FROM campaigns WHERE account_id = $1 AND ($2::text IS NULL OR brand_id = $2)
), facts AS (
  SELECT count(DISTINCT e.lead_id) FILTER (WHERE e.type = 'sent')::int AS "emailsContacted", ${COUNT_COLUMNS}
    FROM email_events e JOIN scope ON scope.id = e.campaign_id
), answers AS (
  SELECT count(*) FILTER (WHERE r.category = 'interested')::int AS "repliesInterested",
         count(*) FILTER (WHERE r.category = 'meeting_booked')::int AS "repliesMeetingBooked",
         count(*) FILTER (WHERE r.category = 'closed')::int AS "repliesClosed",
         count(*) FILTER (WHERE r.category = 'neutral')::int AS "repliesNeutral",
         count(*) FILTER (WHERE r.category = 'not_interested')::int AS "repliesNotInterested",
         count(*) FILTER (WHERE r.category = 'out_of_office')::int AS "repliesOutOfOffice",
         count(*) FILTER (WHERE r.category = 'unsubscribe')::int AS "repliesUnsubscribe"
    FROM replies r JOIN scope ON scope.id = r.campaign_id
   WHERE r.kind <> 'bounce'
)
SELECT f."emailsContacted", f."emailsSent", f."delivered" AS "emailsDelivered", f."opened" AS "emailsOpened", f."clicked" AS "emailsClicked",
       f."replied" AS "emailsReplied", f."bounced" AS "emailsBounced", a.*
  FROM facts f CROSS JOIN answers a`;

/** Over the account's campaigns, or only those of `brandId` when it is given. */
export async function gatewayStats(sequelize: Sequelize, accountId: string, brandId: string | null): Promise<GatewayStats> {
  const rows = await sequelize.query<GatewayStats>(SQL, { bind: [accountId, brandId], type: QueryTypes.SELECT });
  // Both sides are aggregates without GROUP BY: exactly one row.
  return rows[0]!;
}

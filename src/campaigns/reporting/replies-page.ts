import { QueryTypes, type Sequelize } from 'sequelize';
import type { Sentiment } from '../../db/models/reply';

/** A real reply to one of the campaign's emails (auto-replies and bounces are not listed). */
export interface CampaignReply {
  readonly id: string;
  /** The lead the reply was matched to (its thread on the dashboard); null when matched to none. */
  readonly leadId: string | null;
  /** The sender's address. */
  readonly email: string;
  /** Who replied; null when neither the lead record nor the From header names them. */
  readonly name: string | null;
  /** The lead's company when the reply arrived; null when unknown. */
  readonly company: string | null;
  readonly sentiment: Sentiment;
  /** The qualifier's category (interested, out_of_office, ...); null before qualification. */
  readonly category: string | null;
  readonly preview: string;
  readonly receivedAt: Date;
}

export interface RepliesPage {
  readonly replies: CampaignReply[];
  readonly total: number;
}

export interface RepliesQuery {
  readonly sentiment?: Sentiment;
  readonly page: number;
  readonly perPage: number;
}

// The name follows the reply.received event: the lead's own name when the lead answered, the
// sender's when someone else did (a colleague the email was forwarded to). Sentiment is set for
// every qualified reply; 'neutral' stands in as the event does should one ever lack it.
const PAGE_SQL = `
SELECT r.id, r.lead_id AS "leadId", r.from_email AS "email",
       CASE WHEN e.id IS NULL OR lower(r.from_email) = lower(e.to_email)
            THEN coalesce(r.lead_name, r.from_name) ELSE coalesce(r.from_name, r.lead_name) END AS "name",
       r.lead_company AS "company",
       coalesce(r.sentiment, 'neutral') AS "sentiment", r.category,
       r.preview, r.received_at AS "receivedAt"
  FROM replies r
  LEFT JOIN emails e ON e.id = r.email_id
 WHERE r.campaign_id = $1 AND r.kind = 'reply' AND ($2::text IS NULL OR r.sentiment = $2 OR ($2 = 'neutral' AND r.sentiment IS NULL))
 ORDER BY r.received_at DESC, r.id DESC
 LIMIT $3 OFFSET $4`;

const COUNT_SQL = `
SELECT count(*)::int AS total FROM replies r
 WHERE r.campaign_id = $1 AND r.kind = 'reply' AND ($2::text IS NULL OR r.sentiment = $2 OR ($2 = 'neutral' AND r.sentiment IS NULL))`;

/** One page of the campaign's replies, newest first, and how many match in all. */
export async function repliesPage(sequelize: Sequelize, campaignId: string, q: RepliesQuery): Promise<RepliesPage> {
  const sentiment = q.sentiment ?? null;
  const [replies, counted] = await Promise.all([
    sequelize.query<CampaignReply>(PAGE_SQL, { bind: [campaignId, sentiment, q.perPage, (q.page - 1) * q.perPage], type: QueryTypes.SELECT }),
    sequelize.query<{ total: number }>(COUNT_SQL, { bind: [campaignId, sentiment], type: QueryTypes.SELECT }),
  ]);
  return { replies, total: counted[0]!.total };
}

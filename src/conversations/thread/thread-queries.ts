import { QueryTypes, type Sequelize } from 'sequelize';
import type { EmailStatus } from '../../db/models/email';
import type { ReplyCategory, ReplyKind, Sentiment } from '../../db/models/reply';
import { MAX_HTML_CHARS, MAX_TEXT_CHARS } from './thread-bounds';
import { SOURCE_RANK, type ThreadPosition } from './thread-cursor';
import type { ThreadEventType } from './thread-types';

/**
 * The reads of one lead's thread, one statement per source (campaign emails, inbound messages,
 * answers), each giving its newest `limit` rows before a position, newest first. Every statement is
 * scoped by account as well as lead. Bodies are read cut to one character beyond their bound, so
 * a long body costs no more than that and the cut still shows.
 */

export interface LeadHeaderRow {
  readonly id: string;
  readonly email: string;
  readonly first_name: string | null;
  readonly last_name: string | null;
  readonly company: string | null;
  readonly title: string | null;
}

/** Every source row has its place in the thread (thread-cursor.ts). */
interface Positioned {
  readonly id: string;
  /** Microseconds since the epoch, as text. */
  readonly at_us: string;
}

export interface CampaignEmailRow extends Positioned {
  readonly campaign_id: string;
  readonly campaign_name: string;
  readonly step: number;
  readonly variant: string | null;
  readonly mailbox_id: string | null;
  readonly mailbox_from: string | null;
  readonly from_email: string;
  readonly to_email: string;
  readonly subject: string;
  readonly body_text: string | null;
  readonly body_html: string | null;
  readonly message_id: string;
  readonly status: EmailStatus;
  readonly sent_at: Date | null;
  readonly created_at: Date;
}

export interface InboundRow extends Positioned {
  readonly kind: ReplyKind;
  readonly campaign_id: string | null;
  readonly campaign_name: string | null;
  readonly email_id: string | null;
  readonly from_email: string;
  readonly from_name: string | null;
  readonly to_email: string | null;
  readonly subject: string | null;
  readonly body_text: string;
  readonly body_html: string | null;
  readonly message_id: string | null;
  readonly in_reply_to: string | null;
  readonly category: ReplyCategory | null;
  readonly sentiment: Sentiment | null;
  readonly model_category: ReplyCategory | null;
  readonly user_category: ReplyCategory | null;
  readonly read: boolean;
  readonly received_at: Date;
}

export interface AnswerRow extends Positioned {
  readonly campaign_id: string | null;
  readonly campaign_name: string | null;
  readonly mailbox_id: string | null;
  readonly mailbox_from: string | null;
  readonly from_email: string;
  readonly to_email: string;
  readonly cc: unknown;
  readonly subject: string;
  readonly body_text: string | null;
  readonly body_html: string | null;
  readonly message_id: string;
  readonly in_reply_to: string | null;
  readonly status: 'sending' | 'sent' | 'failed';
  readonly sent_at: Date | null;
  readonly created_at: Date;
  readonly error: string | null;
}

export interface EventRow {
  readonly email_id: string;
  readonly type: ThreadEventType;
  readonly occurred_at: Date;
  readonly url: string | null;
}

export interface PageRequest {
  readonly accountId: string;
  readonly leadId: string;
  readonly before: ThreadPosition | null;
  readonly limit: number;
}

const micros = (timeExpr: string): string => `(extract(epoch FROM ${timeExpr}) * 1000000)::bigint`;

/**
 * Wraps a source's SELECT (which must give `id` and `at_us`) with the cursor and the order.
 * Binds: $1 account, $2 lead, $3 position's micros, $4 its rank, $5 its id, $6 limit, $7 text
 * bound, $8 HTML bound. Ids compare in code-unit order (COLLATE "C"), as the merge does.
 */
function paged(select: string, rank: number): string {
  return `SELECT * FROM (${select}) t
   WHERE $3::bigint IS NULL OR (t.at_us::bigint, ${rank}, t.id COLLATE "C") < ($3::bigint, $4::int, $5::text COLLATE "C")
   ORDER BY t.at_us::bigint DESC, t.id COLLATE "C" DESC
   LIMIT $6`;
}

function binds(p: PageRequest): unknown[] {
  return [p.accountId, p.leadId, p.before?.atMicros ?? null, p.before?.rank ?? null, p.before?.id ?? null, p.limit, MAX_TEXT_CHARS + 1, MAX_HTML_CHARS + 1];
}

const CAMPAIGN_EMAILS = paged(
  `SELECT m.id, m.campaign_id, c.name AS campaign_name, m.step, m.variant, m.mailbox_id, mb.from_email AS mailbox_from,
          m.from_email, m.to_email, m.subject, left(m.body_text, $7) AS body_text, left(m.body_html, $8) AS body_html,
          m.message_id, m.status, m.sent_at, m.created_at, ${micros('COALESCE(m.sent_at, m.created_at)')}::text AS at_us
     FROM emails m
     JOIN campaigns c ON c.id = m.campaign_id
     LEFT JOIN mailboxes mb ON mb.id = m.mailbox_id
    WHERE m.account_id = $1 AND m.lead_id = $2`,
  SOURCE_RANK.campaign_email,
);

const INBOUND = paged(
  `SELECT r.id, r.kind, r.campaign_id, c.name AS campaign_name, r.email_id, r.from_email, r.from_name, r.to_email, r.subject,
          left(r.body_text, $7) AS body_text, left(r.body_html, $8) AS body_html, r.message_id, r.in_reply_to,
          r.category, r.sentiment, r.model_category, r.user_category, r.read_at IS NOT NULL AS read, r.received_at,
          ${micros('r.received_at')}::text AS at_us
     FROM replies r
     LEFT JOIN campaigns c ON c.id = r.campaign_id
    WHERE r.account_id = $1 AND r.lead_id = $2`,
  SOURCE_RANK.inbound,
);

const ANSWERS = paged(
  `SELECT s.id, s.campaign_id, c.name AS campaign_name, s.mailbox_id, mb.from_email AS mailbox_from, s.from_email, s.to_email, s.cc,
          s.subject, left(s.body_text, $7) AS body_text, left(s.body_html, $8) AS body_html, s.message_id, s.in_reply_to,
          s.status, s.sent_at, s.created_at, s.error, ${micros('COALESCE(s.sent_at, s.created_at)')}::text AS at_us
     FROM service_emails s
     LEFT JOIN campaigns c ON c.id = s.campaign_id
     LEFT JOIN mailboxes mb ON mb.id = s.mailbox_id
    WHERE s.account_id = $1 AND s.lead_id = $2 AND s.kind = 'reply_answer'`,
  SOURCE_RANK.answer,
);

const select = <T extends object>(sequelize: Sequelize, sql: string, bind: unknown[]): Promise<T[]> => sequelize.query<T>(sql, { bind, type: QueryTypes.SELECT });

/** The lead the thread is about; null when the account has no such lead (or it was erased). */
export async function readLeadHeader(sequelize: Sequelize, accountId: string, leadId: string): Promise<LeadHeaderRow | null> {
  const rows = await select<LeadHeaderRow>(
    sequelize,
    'SELECT id, email, first_name, last_name, company, title FROM leads WHERE account_id = $1 AND id = $2 AND erased_at IS NULL',
    [accountId, leadId],
  );
  return rows[0] ?? null;
}

export const readCampaignEmails = (sequelize: Sequelize, p: PageRequest): Promise<CampaignEmailRow[]> => select(sequelize, CAMPAIGN_EMAILS, binds(p));
export const readInbound = (sequelize: Sequelize, p: PageRequest): Promise<InboundRow[]> => select(sequelize, INBOUND, binds(p));
export const readAnswers = (sequelize: Sequelize, p: PageRequest): Promise<AnswerRow[]> => select(sequelize, ANSWERS, binds(p));

/** The facts of these emails after they left ('sent' is the email's own time), oldest first. */
export async function readEmailEvents(sequelize: Sequelize, accountId: string, emailIds: readonly string[]): Promise<EventRow[]> {
  if (emailIds.length === 0) return [];
  return select<EventRow>(
    sequelize,
    `SELECT email_id, type, occurred_at, CASE WHEN type = 'clicked' THEN data->>'url' END AS url
       FROM email_events
      WHERE account_id = $1 AND email_id = ANY($2::text[]) AND type <> 'sent'
      ORDER BY occurred_at, id`,
    [accountId, emailIds],
  );
}

import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import type { ReplyKind } from '../db/models/reply';
import type { LeadSnapshot } from './sent-email';
import type { Qualification } from './qualifier';

export interface NewReply {
  readonly id: string;
  readonly accountId: string;
  readonly campaignId: string | null;
  readonly emailId: string | null;
  readonly leadId: string | null;
  readonly kind: ReplyKind;
  readonly fromEmail: string;
  readonly fromName: string | null;
  readonly toEmail: string | null;
  readonly subject: string | null;
  readonly messageId: string;
  readonly inReplyTo: string | null;
  readonly bodyText: string;
  /** The HTML part as received, bounded; null when the message has none. */
  readonly bodyHtml: string | null;
  readonly preview: string;
  readonly lead: LeadSnapshot;
  readonly qualification: Qualification | null;
  readonly receivedAt: Date;
}

/** A reply as stored, enough to answer a repeated delivery of the same message. */
export interface StoredReply {
  readonly replyId: string;
  readonly kind: ReplyKind;
  readonly campaignId: string | null;
  readonly emailId: string | null;
}

interface Row {
  id: string;
  kind: ReplyKind;
  campaign_id: string | null;
  email_id: string | null;
}

const toStored = (r: Row): StoredReply => ({ replyId: r.id, kind: r.kind, campaignId: r.campaign_id, emailId: r.email_id });

export async function findReply(sequelize: Sequelize, accountId: string, messageId: string, tx: Transaction | null = null): Promise<StoredReply | null> {
  const rows = await sequelize.query<Row>(`SELECT id, kind, campaign_id, email_id FROM replies WHERE account_id = $1 AND message_id = $2`, {
    bind: [accountId, messageId],
    type: QueryTypes.SELECT,
    transaction: tx,
  });
  return rows[0] ? toStored(rows[0]) : null;
}

/**
 * Inserts the reply unless the account already has this Message-ID (a relay retrying, the same
 * message over HTTP and SMTP). `created` tells the caller whether to record the facts. The
 * qualifier's label is stored twice: as the effective label (what statistics read) and as the
 * model's, kept beside a later correction by the user.
 */
export async function insertReply(sequelize: Sequelize, tx: Transaction, r: NewReply): Promise<{ reply: StoredReply; created: boolean }> {
  const q = r.qualification;
  const inserted = await sequelize.query<{ id: string }>(
    `INSERT INTO replies (id, account_id, campaign_id, email_id, lead_id, kind, from_email, from_name, to_email, subject, message_id,
                          in_reply_to, body_text, preview, lead_name, lead_company, lead_title, category, sentiment, confidence,
                          next_action, qualified_by, received_at, model_category, model_sentiment, body_html)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $18, $19, $24)
     ON CONFLICT (account_id, message_id) DO NOTHING RETURNING id`,
    {
      bind: [
        r.id,
        r.accountId,
        r.campaignId,
        r.emailId,
        r.leadId,
        r.kind,
        r.fromEmail,
        r.fromName,
        r.toEmail,
        r.subject,
        r.messageId,
        r.inReplyTo,
        r.bodyText,
        r.preview,
        r.lead.name,
        r.lead.company,
        r.lead.title,
        q?.category ?? null,
        q?.sentiment ?? null,
        q === null ? null : Math.min(1, Math.max(0, q.confidence)),
        q?.nextAction ?? null,
        q?.qualifiedBy ?? null,
        r.receivedAt.toISOString(),
        r.bodyHtml,
      ],
      type: QueryTypes.SELECT,
      transaction: tx,
    },
  );
  if (inserted.length > 0) return { reply: { replyId: r.id, kind: r.kind, campaignId: r.campaignId, emailId: r.emailId }, created: true };
  const existing = await findReply(sequelize, r.accountId, r.messageId, tx);
  if (existing === null) throw new Error(`reply ${r.messageId} conflicted but cannot be read`);
  return { reply: existing, created: false };
}

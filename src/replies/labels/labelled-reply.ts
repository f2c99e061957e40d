import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import type { ReplyCategory, ReplyKind, Sentiment } from '../../db/models/reply';

/** The sent email a reply answers, as its effects need it. */
export interface AnsweredEmail {
  readonly emailId: string;
  readonly campaignId: string;
  readonly leadId: string;
  /** The lead's address the email went to. */
  readonly toEmail: string;
}

/** A reply locked for a change of its label or read state, with what its effects need. */
export interface LabelledReply {
  readonly id: string;
  readonly accountId: string;
  readonly kind: ReplyKind;
  readonly category: ReplyCategory | null;
  readonly sentiment: Sentiment | null;
  readonly modelCategory: ReplyCategory | null;
  readonly modelSentiment: Sentiment | null;
  readonly userCategory: ReplyCategory | null;
  readonly fromEmail: string;
  readonly fromName: string | null;
  readonly leadName: string | null;
  readonly leadCompany: string | null;
  readonly leadTitle: string | null;
  readonly preview: string;
  readonly receivedAt: Date;
  /** Null when the reply matched no sent email (or that email was deleted): only its label changes. */
  readonly answered: AnsweredEmail | null;
}

interface Row {
  id: string;
  account_id: string;
  kind: ReplyKind;
  category: ReplyCategory | null;
  sentiment: Sentiment | null;
  model_category: ReplyCategory | null;
  model_sentiment: Sentiment | null;
  user_category: ReplyCategory | null;
  from_email: string;
  from_name: string | null;
  lead_name: string | null;
  lead_company: string | null;
  lead_title: string | null;
  preview: string;
  received_at: Date;
  email_id: string | null;
  campaign_id: string | null;
  lead_id: string | null;
  to_email: string | null;
}

/**
 * The account's reply, its row locked until the transaction ends (two corrections of one reply
 * apply one after the other, each seeing the other's result). Null: no such reply in the account.
 */
export async function lockReply(sequelize: Sequelize, tx: Transaction, accountId: string, replyId: string): Promise<LabelledReply | null> {
  const rows = await sequelize.query<Row>(
    `SELECT r.id, r.account_id, r.kind, r.category, r.sentiment, r.model_category, r.model_sentiment, r.user_category,
            r.from_email, r.from_name, r.lead_name, r.lead_company, r.lead_title, r.preview, r.received_at,
            e.id AS email_id, e.campaign_id, e.lead_id, e.to_email
       FROM replies r LEFT JOIN emails e ON e.id = r.email_id
      WHERE r.id = $1 AND r.account_id = $2
        FOR UPDATE OF r`,
    { bind: [replyId, accountId], type: QueryTypes.SELECT, transaction: tx },
  );
  const r = rows[0];
  if (r === undefined) return null;
  return {
    id: r.id,
    accountId: r.account_id,
    kind: r.kind,
    category: r.category,
    sentiment: r.sentiment,
    modelCategory: r.model_category,
    modelSentiment: r.model_sentiment,
    userCategory: r.user_category,
    fromEmail: r.from_email,
    fromName: r.from_name,
    leadName: r.lead_name,
    leadCompany: r.lead_company,
    leadTitle: r.lead_title,
    preview: r.preview,
    receivedAt: r.received_at,
    answered:
      r.email_id === null || r.campaign_id === null || r.lead_id === null || r.to_email === null
        ? null
        : { emailId: r.email_id, campaignId: r.campaign_id, leadId: r.lead_id, toEmail: r.to_email },
  };
}

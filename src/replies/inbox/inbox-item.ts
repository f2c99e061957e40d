import type { ReplyCategory, ReplyKind, Sentiment } from '../../db/models/reply';

/** One inbound message of the account's inbox, as the API and the dashboard show it. */
export interface InboxReply {
  readonly id: string;
  readonly kind: ReplyKind;
  readonly campaignId: string | null;
  readonly campaignName: string | null;
  readonly leadId: string | null;
  /** The sender's address. */
  readonly email: string;
  /** The lead's name when the lead answered, the sender's when someone else did. */
  readonly name: string | null;
  readonly company: string | null;
  /** The lead's title, only when the lead is the one who answered. */
  readonly title: string | null;
  readonly subject: string | null;
  readonly preview: string;
  /** Effective: the user's label when there is one, else the model's. */
  readonly category: ReplyCategory | null;
  readonly sentiment: Sentiment | null;
  readonly modelCategory: ReplyCategory | null;
  readonly modelSentiment: Sentiment | null;
  readonly userCategory: ReplyCategory | null;
  readonly labelledAt: Date | null;
  readonly read: boolean;
  readonly readAt: Date | null;
  readonly receivedAt: Date;
  /** The mailbox of the sent email the reply answers; null when unmatched or sent without a mailbox. */
  readonly mailbox: { readonly id: string; readonly fromEmail: string } | null;
}

/** One reply with its full text. */
export interface InboxReplyDetail extends InboxReply {
  readonly bodyText: string;
}

/** The columns of an InboxReply (aliases below), from `replies r` joined as INBOX_FROM does. */
export const INBOX_COLUMNS = `
  r.id, r.kind, r.campaign_id, c.name AS campaign_name, r.lead_id, r.from_email,
  CASE WHEN e.id IS NULL OR lower(r.from_email) = lower(e.to_email)
       THEN coalesce(r.lead_name, r.from_name) ELSE coalesce(r.from_name, r.lead_name) END AS name,
  r.lead_company,
  CASE WHEN e.id IS NULL OR lower(r.from_email) = lower(e.to_email) THEN r.lead_title END AS title,
  r.subject, r.preview, r.category, r.sentiment, r.model_category, r.model_sentiment, r.user_category, r.labelled_at,
  r.read_at, r.received_at, m.id AS mailbox_id, m.from_email AS mailbox_from_email`;

// The sent email answered gives the mailbox (and tells whether the lead or someone else wrote).
export const INBOX_FROM = `
  replies r
  LEFT JOIN campaigns c ON c.id = r.campaign_id
  LEFT JOIN emails e ON e.id = r.email_id
  LEFT JOIN mailboxes m ON m.id = e.mailbox_id`;

export interface InboxRow {
  id: string;
  kind: ReplyKind;
  campaign_id: string | null;
  campaign_name: string | null;
  lead_id: string | null;
  from_email: string;
  name: string | null;
  lead_company: string | null;
  title: string | null;
  subject: string | null;
  preview: string;
  category: ReplyCategory | null;
  sentiment: Sentiment | null;
  model_category: ReplyCategory | null;
  model_sentiment: Sentiment | null;
  user_category: ReplyCategory | null;
  labelled_at: Date | null;
  read_at: Date | null;
  received_at: Date;
  mailbox_id: string | null;
  mailbox_from_email: string | null;
}

export function inboxReply(r: InboxRow): InboxReply {
  return {
    id: r.id,
    kind: r.kind,
    campaignId: r.campaign_id,
    campaignName: r.campaign_name,
    leadId: r.lead_id,
    email: r.from_email,
    name: r.name,
    company: r.lead_company,
    title: r.title,
    subject: r.subject,
    preview: r.preview,
    category: r.category,
    sentiment: r.sentiment,
    modelCategory: r.model_category,
    modelSentiment: r.model_sentiment,
    userCategory: r.user_category,
    labelledAt: r.labelled_at,
    read: r.read_at !== null,
    readAt: r.read_at,
    receivedAt: r.received_at,
    mailbox: r.mailbox_id === null || r.mailbox_from_email === null ? null : { id: r.mailbox_id, fromEmail: r.mailbox_from_email },
  };
}

import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import { REPLY_ANSWER_KIND } from '../../service-mail/kinds';
import { normalMessageId } from './threading';

/** One message of a lead's conversation, as an answer needs it. */
export interface ConversationMessage {
  readonly source: 'email' | 'answer' | 'reply';
  readonly id: string;
  /** `<id>`, or null when the stored one is unusable (see normalMessageId). */
  readonly messageId: string | null;
  readonly subject: string | null;
  readonly at: Date;
  readonly campaignId: string | null;
  /** Outbound only: the mailbox that wrote it (null: the default sender) and its From address. */
  readonly mailboxId: string | null;
  readonly fromEmail: string;
}

export interface Conversation {
  /** Oldest first; same-instant messages in a fixed order (source, then id). */
  readonly messages: readonly ConversationMessage[];
  /** The latest campaign email or answer sent to the lead: whose mailbox and From it keeps. */
  readonly lastOutbound: ConversationMessage | null;
}

interface Row {
  source: ConversationMessage['source'];
  id: string;
  message_id: string | null;
  subject: string | null;
  at: Date;
  campaign_id: string | null;
  mailbox_id: string | null;
  from_email: string;
}

/**
 * Every message of the lead's conversation: the campaign emails that left (sent, or bounced
 * later), the answers written in the thread (sent or still being sent: a second answer written
 * while the first waits for its server threads under it; failed ones never reached the lead), and
 * the lead's inbound replies and auto-replies (bounces come from a mail server, not the lead).
 * Across campaigns: the lead is one person, and the thread is theirs.
 */
const CONVERSATION_SQL = `
SELECT * FROM (
  SELECT 'email' AS source, e.id, e.message_id, e.subject, e.sent_at AS at, e.campaign_id, e.mailbox_id, e.from_email
    FROM emails e WHERE e.account_id = $1 AND e.lead_id = $2 AND e.status IN ('sent', 'bounced') AND e.sent_at IS NOT NULL
  UNION ALL
  SELECT 'answer', s.id, s.message_id, s.subject, coalesce(s.sent_at, s.created_at), s.campaign_id, s.mailbox_id, s.from_email
    FROM service_emails s WHERE s.account_id = $1 AND s.lead_id = $2 AND s.kind = $3 AND s.status IN ('sending', 'sent')
  UNION ALL
  SELECT 'reply', r.id, r.message_id, r.subject, r.received_at, r.campaign_id, NULL, r.from_email
    FROM replies r WHERE r.account_id = $1 AND r.lead_id = $2 AND r.kind IN ('reply', 'auto_reply')
) m
ORDER BY at, source, id`;

/** The lead's conversation (see CONVERSATION_SQL), read in `tx`. */
export async function readConversation(sequelize: Sequelize, tx: Transaction, accountId: string, leadId: string): Promise<Conversation> {
  const rows = await sequelize.query<Row>(CONVERSATION_SQL, { bind: [accountId, leadId, REPLY_ANSWER_KIND], type: QueryTypes.SELECT, transaction: tx });
  const messages = rows.map(
    (r): ConversationMessage => ({
      source: r.source,
      id: r.id,
      messageId: normalMessageId(r.message_id),
      subject: r.subject,
      at: r.at,
      campaignId: r.campaign_id,
      mailboxId: r.mailbox_id,
      fromEmail: r.from_email,
    }),
  );
  const lastOutbound = [...messages].reverse().find((m) => m.source !== 'reply') ?? null;
  return { messages, lastOutbound };
}

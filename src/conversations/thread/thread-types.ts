import type { EmailEventType } from '../../db/models/email-event';
import type { ReplyCategory, ReplyKind, Sentiment } from '../../db/models/reply';
import type { EmailStatus } from '../../db/models/email';
import type { AnswerRefusal } from '../answerability';

/** Times are ISO 8601 UTC strings; Message-IDs are bare (no angle brackets). */

/** The mailbox a message left from; null on a message sent through the account's default sender. */
export interface ThreadMailbox {
  readonly id: string;
  readonly fromEmail: string;
}

/** A fact about a campaign email after it left ('sent' is its `sentAt`). */
export type ThreadEventType = Exclude<EmailEventType, 'sent'>;

export interface ThreadEvent {
  readonly type: ThreadEventType;
  readonly occurredAt: string;
  /** The link followed, on a `clicked` event; null otherwise. */
  readonly url: string | null;
}

/** What every message has: where it sits in the thread and what it says (bounded, see thread-bounds.ts). */
interface MessageBase {
  readonly id: string;
  /** The time the thread is ordered by: sent (or, not sent yet, created) for ours, received for theirs. */
  readonly at: string;
  readonly campaignId: string | null;
  readonly campaignName: string | null;
  readonly from: string;
  readonly subject: string | null;
  readonly text: string | null;
  /** Sanitised (clean-html.ts); null when the message has no HTML part. */
  readonly html: string | null;
  /** The text or the HTML was cut to its bound. */
  readonly truncated: boolean;
  readonly messageId: string | null;
}

/** A step of a campaign's sequence as sent (or being sent) to the lead. */
export interface ThreadCampaignEmail extends MessageBase {
  readonly direction: 'out';
  readonly type: 'campaign_email';
  readonly campaignId: string;
  readonly campaignName: string;
  /** 1-based, as the API numbers steps everywhere. */
  readonly step: number;
  readonly variant: string | null;
  readonly mailbox: ThreadMailbox | null;
  readonly to: string;
  readonly subject: string;
  readonly status: EmailStatus;
  readonly sentAt: string | null;
  readonly createdAt: string;
  readonly events: readonly ThreadEvent[];
}

/** A message the lead's address (or a colleague, or a mail server) sent to us: a reply, an automatic answer, a bounce. */
export interface ThreadInbound extends MessageBase {
  readonly direction: 'in';
  readonly type: ReplyKind;
  readonly fromName: string | null;
  readonly to: string | null;
  readonly inReplyTo: string | null;
  /** The campaign email it answers; null when it matched none. */
  readonly inReplyToEmailId: string | null;
  /** The effective label (the user's correction, else the model's): what the statistics count. */
  readonly category: ReplyCategory | null;
  readonly sentiment: Sentiment | null;
  readonly modelCategory: ReplyCategory | null;
  readonly userCategory: ReplyCategory | null;
  readonly read: boolean;
  readonly receivedAt: string;
}

/** An answer the user wrote in the thread (POST /v1/leads/:id/reply). */
export interface ThreadAnswer extends MessageBase {
  readonly direction: 'out';
  readonly type: 'answer';
  readonly mailbox: ThreadMailbox | null;
  readonly to: string;
  readonly cc: readonly string[];
  readonly inReplyTo: string | null;
  readonly status: 'sending' | 'sent' | 'failed';
  readonly sentAt: string | null;
  readonly createdAt: string;
  readonly error: string | null;
}

export type ThreadMessage = ThreadCampaignEmail | ThreadInbound | ThreadAnswer;

export interface ThreadLead {
  readonly id: string;
  readonly email: string;
  readonly name: string | null;
  readonly company: string | null;
  readonly title: string | null;
  /** Whether the user may answer now, and if not why (answerability.ts). */
  readonly answer: { readonly allowed: boolean; readonly reason: AnswerRefusal | null };
}

export interface LeadThread {
  readonly lead: ThreadLead;
  /** Oldest first; at most the newest `limit` messages before the cursor. */
  readonly messages: readonly ThreadMessage[];
  /** Older messages exist: ask again with `before: nextBefore`. */
  readonly hasMore: boolean;
  /** The cursor of the oldest message shown, when there are older ones; null otherwise. */
  readonly nextBefore: string | null;
}

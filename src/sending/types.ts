import type { ReservedMailbox } from './mailbox-slots';

/** What the campaign tracks of its emails, and whether they have an HTML part at all. */
export interface TrackingChoice {
  readonly opens: boolean;
  readonly clicks: boolean;
  /** Only a text/plain part: no HTML, so no open pixel and no rewritten links. */
  readonly plainTextOnly: boolean;
}

export const TRACK_EVERYTHING: TrackingChoice = { opens: true, clicks: true, plainTextOnly: false };

/** One email of a campaign's sequence to one lead, ready to send. */
export interface SendEmailInput {
  readonly accountId: string;
  readonly campaignId: string;
  readonly leadId: string;
  /** Position in the sequence: 0 for the first email, 1.. for follow-ups. */
  readonly step: number;
  readonly content: { readonly subject: string; readonly html: string; readonly text: string };
  /** Message-ID of the first email (with its angle brackets), so a follow-up threads under it. */
  readonly inReplyTo?: string;
  /** The thread's Message-IDs, oldest first. Defaults to [inReplyTo] when only that is given. */
  readonly references?: readonly string[];
  /**
   * Send only while the campaign's row is 'running': the reservation of the email's row takes a
   * share lock on the campaign row and checks its status in the same statement, so once a pause
   * has committed no new email of the campaign is reserved (outcome 'not_running'). The campaign
   * batch sets it.
   */
  readonly onlyWhileRunning?: boolean;
  /**
   * A mailbox slot the caller already took (the batch takes it before writing, to write as that
   * mailbox's sender): the email goes through it. Without it, a slot is taken here when the
   * account has mailboxes.
   */
  readonly mailbox?: ReservedMailbox;
  /** The From display name for the default transport (a mailbox's own name wins when it has one). */
  readonly fromName?: string | null;
  /** Kept with the email: the step's variant, and whether it opens a thread. */
  readonly variant?: string | null;
  readonly startsThread?: boolean;
  /** Default: everything tracked, HTML and text. */
  readonly tracking?: TrackingChoice;
}

/**
 * - sent: accepted by the SMTP server now;
 * - already_sent: an earlier attempt sent it (or may have: see EmailSender), nothing was sent now;
 * - suppressed: the address is on the suppression list or the lead bounced/unsubscribed;
 * - bounced: the server refused the recipient permanently (5xx); the address is now suppressed;
 * - deferred: every mailbox of the account is at its daily cap or within its minimum gap; try
 *   again after `retryAfterSeconds`;
 * - not_running: `onlyWhileRunning` was set and the campaign is not running (nothing was reserved).
 * A temporary SMTP failure (4xx, connection refused, timeout) is not an outcome: it is thrown
 * (SmtpTemporaryFailure, see send-failures.ts).
 */
export type SendOutcome = 'sent' | 'already_sent' | 'suppressed' | 'bounced' | 'deferred' | 'not_running';

export interface SendEmailResult {
  readonly outcome: SendOutcome;
  readonly emailId?: string;
  /** With angle brackets, as in the header: `<em_….…@domain>`. */
  readonly messageId?: string;
  readonly retryAfterSeconds?: number;
  /** Why a 'suppressed' email may not go (a suppression's cause, blocklisted, removed from campaign, invalid address). */
  readonly blockedBy?: string;
}

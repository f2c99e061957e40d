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
}

/**
 * - sent: accepted by the SMTP server now;
 * - already_sent: an earlier attempt sent it (or may have: see EmailSender), nothing was sent now;
 * - suppressed: the address is on the suppression list or the lead bounced/unsubscribed;
 * - bounced: the server refused the recipient permanently (5xx); the address is now suppressed;
 * - deferred: every mailbox of the account is at its daily cap or within its minimum gap; try
 *   again after `retryAfterSeconds`.
 * A temporary SMTP failure (4xx, connection refused, timeout) is not an outcome: it is thrown.
 */
export type SendOutcome = 'sent' | 'already_sent' | 'suppressed' | 'bounced' | 'deferred';

export interface SendEmailResult {
  readonly outcome: SendOutcome;
  readonly emailId?: string;
  /** With angle brackets, as in the header: `<em_….…@domain>`. */
  readonly messageId?: string;
  readonly retryAfterSeconds?: number;
}

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
}

/**
 * The kinds of service email, as `service_emails.kind` stores them, and what each kind implies.
 * `campaign_report` is named by its sender (src/campaigns/reporting/send-report.ts).
 */

/** An answer the user wrote to a lead in its thread (POST /v1/leads/:id/reply). */
export const REPLY_ANSWER_KIND = 'reply_answer';

/**
 * Kinds a person wrote to a lead: sent without `Auto-Submitted` (RFC 3834: vacation responders
 * should answer a person), and charged as an email the account sent (`email_sending`), like a
 * campaign email. Everything else is mail the service writes by itself (a report): auto-generated
 * and not charged.
 */
const PERSONAL_KINDS: ReadonlySet<string> = new Set([REPLY_ANSWER_KIND]);

export const writtenByPerson = (kind: string): boolean => PERSONAL_KINDS.has(kind);

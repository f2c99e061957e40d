import type { ServiceEmailStatus, StoredServiceEmail } from '../../service-mail/service-email-repository';

/** An answer as the API and the dashboard show it. */
export interface LeadAnswer {
  readonly id: string;
  readonly leadId: string;
  /** `sending` until the SMTP server took it (retried through temporary trouble), then `sent`; `failed` when refused for good. */
  readonly status: ServiceEmailStatus;
  readonly messageId: string;
  readonly from: string;
  readonly fromName: string | null;
  readonly to: string;
  readonly cc: readonly string[];
  readonly subject: string;
  readonly inReplyTo: string | null;
  readonly references: readonly string[];
  /** The mailbox the lead knows (sticky sender); null: the default sender. */
  readonly mailboxId: string | null;
  readonly campaignId: string | null;
  /** The text as sent (signature included). */
  readonly text: string;
  /** The last SMTP error: why it failed, or why it is still being sent. */
  readonly error: string | null;
  readonly createdAt: Date;
  readonly sentAt: Date | null;
}

export function toLeadAnswer(row: StoredServiceEmail): LeadAnswer {
  return {
    id: row.id,
    leadId: row.leadId ?? '',
    status: row.status,
    messageId: row.messageId,
    from: row.fromEmail,
    fromName: row.fromName,
    to: row.toEmail,
    cc: row.cc,
    subject: row.subject,
    inReplyTo: row.inReplyTo,
    references: row.referencesIds,
    mailboxId: row.mailboxId,
    campaignId: row.campaignId,
    text: row.bodyText ?? '',
    error: row.error,
    createdAt: row.createdAt,
    sentAt: row.sentAt,
  };
}

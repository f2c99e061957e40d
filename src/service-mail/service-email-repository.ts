import { QueryTypes, type Sequelize } from 'sequelize';

/**
 * The rows of `service_emails`: mail the service sends on its own behalf (see the migration
 * 20261128100000-campaign-reports). A row is reserved before SMTP under its dedupe key, so a retry
 * finds it (with the Message-ID to send again) instead of sending a second message.
 */
export type ServiceEmailStatus = 'sending' | 'sent' | 'failed';

export interface ServiceEmailRow {
  readonly id: string;
  readonly accountId: string;
  readonly kind: string;
  readonly dedupeKey: string;
  readonly fromEmail: string;
  readonly fromName: string | null;
  readonly toEmail: string;
  readonly subject: string;
  readonly messageId: string;
  readonly status: ServiceEmailStatus;
  readonly attempts: number;
  readonly error: string | null;
  readonly sentAt: Date | null;
}

export type NewServiceEmail = Omit<ServiceEmailRow, 'status' | 'attempts' | 'error' | 'sentAt'>;

const COLUMNS = `id, account_id AS "accountId", kind, dedupe_key AS "dedupeKey", from_email AS "fromEmail", from_name AS "fromName",
  to_email AS "toEmail", subject, message_id AS "messageId", status, attempts, error, sent_at AS "sentAt"`;

/**
 * The row of `e.dedupeKey`, inserted as 'sending' if there is none, and this attempt counted. An
 * existing row keeps its Message-ID, sender and recipient: every attempt sends the same message
 * identity. One statement, so two attempts racing on the same key share one row.
 */
export async function reserveServiceEmail(sequelize: Sequelize, e: NewServiceEmail): Promise<ServiceEmailRow> {
  const rows = await sequelize.query<ServiceEmailRow>(
    `INSERT INTO service_emails (id, account_id, kind, dedupe_key, from_email, from_name, to_email, subject, message_id, status, attempts)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'sending', 1)
     ON CONFLICT (dedupe_key) DO UPDATE
       SET attempts = service_emails.attempts + CASE WHEN service_emails.status = 'sending' THEN 1 ELSE 0 END, updated_at = now()
     RETURNING ${COLUMNS}`,
    { bind: [e.id, e.accountId, e.kind, e.dedupeKey, e.fromEmail, e.fromName, e.toEmail, e.subject, e.messageId], type: QueryTypes.SELECT },
  );
  return rows[0]!;
}

/** The server took the message. */
export async function markServiceEmailSent(sequelize: Sequelize, id: string, smtpResponse: string): Promise<Date> {
  const rows = await sequelize.query<{ sentAt: Date }>(
    `UPDATE service_emails SET status = 'sent', smtp_response = $2, error = NULL, sent_at = coalesce(sent_at, now()), updated_at = now()
      WHERE id = $1 RETURNING sent_at AS "sentAt"`,
    { bind: [id, smtpResponse], type: QueryTypes.SELECT },
  );
  return rows[0]?.sentAt ?? new Date();
}

/** Why the last attempt did not send: kept on a row still 'sending' (a retry follows) or made 'failed' (none will). */
export async function recordServiceEmailError(sequelize: Sequelize, id: string, error: string, final: boolean): Promise<void> {
  await sequelize.query(
    `UPDATE service_emails SET error = $2, status = CASE WHEN $3::boolean THEN 'failed' ELSE status END, updated_at = now()
      WHERE id = $1 AND status <> 'sent'`,
    { bind: [id, error, final] },
  );
}

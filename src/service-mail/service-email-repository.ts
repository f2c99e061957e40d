import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';

/**
 * The rows of `service_emails`: mail the service sends on its own behalf or for the user (see the
 * migrations 20261128100000-campaign-reports and 20261201091000-lead-answers). A row is reserved
 * before SMTP under its dedupe key, so a retry finds it (with the Message-ID to send again)
 * instead of sending a second message.
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

/**
 * A row that carries its whole message (an answer to a lead): what `sendStoredServiceEmail` needs
 * to send it again, identically, after a crash or an SMTP outage.
 */
export interface StoredServiceEmail extends ServiceEmailRow {
  readonly leadId: string | null;
  readonly campaignId: string | null;
  /** The mailbox it goes out through while that mailbox is active (the default transport otherwise, or when null). */
  readonly mailboxId: string | null;
  readonly cc: readonly string[];
  readonly inReplyTo: string | null;
  /** Message-IDs (`<id>`), oldest first. */
  readonly referencesIds: readonly string[];
  readonly bodyText: string | null;
  readonly bodyHtml: string | null;
  readonly createdAt: Date;
}

export type NewStoredServiceEmail = NewServiceEmail &
  Pick<StoredServiceEmail, 'leadId' | 'campaignId' | 'mailboxId' | 'cc' | 'inReplyTo' | 'referencesIds' | 'bodyText' | 'bodyHtml'>;

const COLUMNS = `id, account_id AS "accountId", kind, dedupe_key AS "dedupeKey", from_email AS "fromEmail", from_name AS "fromName",
  to_email AS "toEmail", subject, message_id AS "messageId", status, attempts, error, sent_at AS "sentAt"`;

const STORED_COLUMNS = `${COLUMNS}, lead_id AS "leadId", campaign_id AS "campaignId", mailbox_id AS "mailboxId", cc,
  in_reply_to AS "inReplyTo", references_ids AS "referencesIds", body_text AS "bodyText", body_html AS "bodyHtml", created_at AS "createdAt"`;

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

/**
 * Inserts a row with its whole message, as 'sending' with no attempt yet (its workflow makes them),
 * in the caller's transaction. A dedupe key used before is a unique violation: such a caller
 * (one answer per request) makes a new key each time, and a retried request is the API's
 * Idempotency-Key's business.
 */
export async function insertStoredServiceEmail(sequelize: Sequelize, tx: Transaction, e: NewStoredServiceEmail): Promise<StoredServiceEmail> {
  const rows = await sequelize.query<StoredServiceEmail>(
    `INSERT INTO service_emails (id, account_id, kind, dedupe_key, from_email, from_name, to_email, subject, message_id, status, attempts,
                                 lead_id, campaign_id, mailbox_id, cc, in_reply_to, references_ids, body_text, body_html)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'sending', 0, $10, $11, $12, $13::jsonb, $14, $15::jsonb, $16, $17)
     RETURNING ${STORED_COLUMNS}`,
    {
      bind: [
        e.id,
        e.accountId,
        e.kind,
        e.dedupeKey,
        e.fromEmail,
        e.fromName,
        e.toEmail,
        e.subject,
        e.messageId,
        e.leadId,
        e.campaignId,
        e.mailboxId,
        JSON.stringify(e.cc),
        e.inReplyTo,
        JSON.stringify(e.referencesIds),
        e.bodyText,
        e.bodyHtml,
      ],
      type: QueryTypes.SELECT,
      transaction: tx,
    },
  );
  return rows[0]!;
}

/** One row with its whole message, or null. */
export async function findStoredServiceEmail(sequelize: Sequelize, id: string): Promise<StoredServiceEmail | null> {
  const rows = await sequelize.query<StoredServiceEmail>(`SELECT ${STORED_COLUMNS} FROM service_emails WHERE id = $1`, { bind: [id], type: QueryTypes.SELECT });
  return rows[0] ?? null;
}

/** The account's row of kind `kind` for the lead, or null (another account's or lead's id is not found). */
export async function findLeadServiceEmail(sequelize: Sequelize, accountId: string, leadId: string, kind: string, id: string): Promise<StoredServiceEmail | null> {
  const rows = await sequelize.query<StoredServiceEmail>(
    `SELECT ${STORED_COLUMNS} FROM service_emails WHERE id = $1 AND account_id = $2 AND lead_id = $3 AND kind = $4`,
    { bind: [id, accountId, leadId, kind], type: QueryTypes.SELECT },
  );
  return rows[0] ?? null;
}

/** This attempt at a stored row, counted (only while it is still 'sending'). */
export async function countServiceEmailAttempt(sequelize: Sequelize, id: string): Promise<void> {
  await sequelize.query(`UPDATE service_emails SET attempts = attempts + 1, updated_at = now() WHERE id = $1 AND status = 'sending'`, { bind: [id] });
}

/**
 * The server took the message. Inside `tx` when given (the answer's cost is recorded with it).
 * `note`: what the row's error keeps of a message taken for some recipients only.
 */
export async function markServiceEmailSent(sequelize: Sequelize, id: string, smtpResponse: string, tx: Transaction | null = null, note: string | null = null): Promise<Date> {
  const rows = await sequelize.query<{ sentAt: Date }>(
    `UPDATE service_emails SET status = 'sent', smtp_response = $2, error = $3, sent_at = coalesce(sent_at, now()), updated_at = now()
      WHERE id = $1 RETURNING sent_at AS "sentAt"`,
    { bind: [id, smtpResponse.slice(0, 2000), note], type: QueryTypes.SELECT, transaction: tx },
  );
  return rows[0]?.sentAt ?? new Date();
}

/** Why the last attempt did not send: kept on a row still 'sending' (a retry follows) or made 'failed' (none will). */
export async function recordServiceEmailError(sequelize: Sequelize, id: string, error: string, final: boolean): Promise<void> {
  await sequelize.query(
    `UPDATE service_emails SET error = $2, status = CASE WHEN $3::boolean THEN 'failed' ELSE status END, updated_at = now()
      WHERE id = $1 AND status <> 'sent'`,
    { bind: [id, error.slice(0, 2000), final] },
  );
}

import type { Sequelize } from 'sequelize';
import type { EmailStatus } from '../db/models/email';
import { preparedQuery } from '../db/prepared-query';

/** What one send needs to know before it decides anything, read in one statement. */
export interface SendState {
  readonly lead: {
    readonly email: string;
    readonly firstName: string | null;
    readonly lastName: string | null;
    /** Why the lead must not get mail, or null: a suppression reason, 'bounced' or 'unsubscribed'. */
    readonly blockedBy: string | null;
  };
  /** The row of an earlier attempt at this (campaign, lead, step), if any. */
  readonly existing: { readonly id: string; readonly status: EmailStatus; readonly messageId: string } | null;
  /** The account has at least one active mailbox (otherwise the default transport sends). */
  readonly hasMailboxes: boolean;
}

interface StateRow {
  n: number;
  email: string;
  first_name: string | null;
  last_name: string | null;
  blocked_by: string | null;
  email_id: string | null;
  status: EmailStatus | null;
  message_id: string | null;
  has_mailboxes: boolean;
  claimed: boolean;
}

/**
 * The state of several sends at once (one JSON array parameter, its items numbered by `n`), each
 * with its optional claim; see DefaultClaim. Two items of one batch for the same (campaign, lead,
 * step) cannot both claim: the unique key lets the first insert through and ON CONFLICT skips the
 * second, which then finds no claim and goes the slow way (where it meets the first's row). Rows
 * are inserted in key order, so two batches in flight that share keys wait for each other in the
 * same order instead of deadlocking.
 */
const STATE_SQL = `
WITH i AS (
  SELECT * FROM jsonb_to_recordset($1::jsonb) AS i(n int, account_id text, campaign_id text, lead_id text, step int,
    claim_id text, from_email text, subject text, claim_message_id text)
), s AS (
  SELECT i.*, l.email, l.first_name, l.last_name,
    COALESCE(
      (SELECT s.reason FROM suppressions s WHERE s.account_id = l.account_id AND s.email = l.email),
      CASE WHEN l.bounced_at IS NOT NULL THEN 'bounced' WHEN l.unsubscribed_at IS NOT NULL THEN 'unsubscribed' END
    ) AS blocked_by,
    e.id AS email_id, e.status, e.message_id,
    EXISTS (SELECT 1 FROM mailboxes m WHERE m.account_id = l.account_id AND m.active) AS has_mailboxes
  FROM i
  -- LATERAL ... LIMIT 1: one index lookup per item. As plain joins the planner, which guesses 100
  -- rows for any jsonb_to_recordset, hashes whole tables (a scan of all leads and emails per batch).
  CROSS JOIN LATERAL (SELECT * FROM leads l WHERE l.id = i.lead_id AND l.account_id = i.account_id LIMIT 1) l
  LEFT JOIN LATERAL (SELECT * FROM emails e WHERE e.campaign_id = i.campaign_id AND e.lead_id = i.lead_id AND e.step = i.step LIMIT 1) e ON true
), claim AS (
  INSERT INTO emails (id, account_id, campaign_id, lead_id, step, mailbox_id, from_email, to_email, subject, message_id, status, attempts)
  SELECT s.claim_id, s.account_id, s.campaign_id, s.lead_id, s.step, NULL, s.from_email, s.email, s.subject, s.claim_message_id, 'sending', 1 FROM s
  WHERE s.claim_id IS NOT NULL AND s.email_id IS NULL AND s.blocked_by IS NULL AND NOT s.has_mailboxes
  ORDER BY s.campaign_id, s.lead_id, s.step, s.n
  ON CONFLICT (campaign_id, lead_id, step) DO NOTHING
  RETURNING id
)
SELECT s.n, s.email, s.first_name, s.last_name, s.blocked_by, s.email_id, s.status, s.message_id, s.has_mailboxes,
  EXISTS (SELECT 1 FROM claim c WHERE c.id = s.claim_id) AS claimed
FROM s`;

/**
 * A first attempt through the default transport reserves its row in the same statement that reads
 * the state (one round trip instead of two on the path where throughput matters: mailboxes are
 * capped and gapped, the default relay is not). It takes effect only when nothing stands in the
 * way: no earlier row, the lead not blocked, the account without mailboxes.
 */
export interface DefaultClaim {
  readonly emailId: string;
  readonly fromEmail: string;
  readonly subject: string;
  readonly messageId: string;
}

export interface StateRequest {
  readonly accountId: string;
  readonly campaignId: string;
  readonly leadId: string;
  readonly step: number;
  readonly claim: DefaultClaim | null;
}

/**
 * For each request: the lead, any earlier attempt, and whether the account has mailboxes; null if
 * the lead is not the account's. With a claim, `claimed` says whether the row was reserved as
 * 'sending' for it. One statement, so one transaction: every claim of the batch is committed when
 * this resolves.
 */
export async function readSendStates(sequelize: Sequelize, requests: readonly StateRequest[]): Promise<Array<(SendState & { readonly claimed: boolean }) | null>> {
  const items = requests.map((r, n) => ({
    n,
    account_id: r.accountId,
    campaign_id: r.campaignId,
    lead_id: r.leadId,
    step: r.step,
    claim_id: r.claim?.emailId ?? null,
    from_email: r.claim?.fromEmail ?? null,
    subject: r.claim?.subject ?? null,
    claim_message_id: r.claim?.messageId ?? null,
  }));
  const rows = await preparedQuery<StateRow>(sequelize, 'sending_states', STATE_SQL, [JSON.stringify(items)]);
  const out: Array<(SendState & { readonly claimed: boolean }) | null> = requests.map(() => null);
  for (const r of rows) {
    out[r.n] = {
      lead: { email: r.email, firstName: r.first_name, lastName: r.last_name, blockedBy: r.blocked_by },
      existing: r.email_id === null ? null : { id: r.email_id, status: r.status as EmailStatus, messageId: r.message_id as string },
      hasMailboxes: r.has_mailboxes,
      claimed: r.claimed,
    };
  }
  return out;
}

export interface Reservation {
  readonly emailId: string;
  readonly accountId: string;
  readonly campaignId: string;
  readonly leadId: string;
  readonly step: number;
  readonly mailboxId: string | null;
  readonly fromEmail: string;
  readonly toEmail: string;
  readonly subject: string;
  readonly messageId: string;
}

const INSERT_SQL = `
INSERT INTO emails (id, account_id, campaign_id, lead_id, step, mailbox_id, from_email, to_email, subject, message_id, status, attempts)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'sending', 1)
ON CONFLICT (campaign_id, lead_id, step) DO NOTHING
RETURNING id`;

const RETRY_SQL = `
UPDATE emails SET status = 'sending', attempts = attempts + 1, mailbox_id = $2, from_email = $3, to_email = $4, subject = $5,
  error = NULL, updated_at = now()
WHERE id = $1 AND status = 'deferred'
RETURNING message_id`;

/**
 * Marks the email 'sending' before a byte goes to SMTP: a first attempt inserts the row (its
 * Message-ID fixed now), a retry after a deferral takes the deferred row back (keeping its
 * Message-ID). Returns the Message-ID to send with, or null when another attempt got the row first.
 */
export async function reserveEmailRow(sequelize: Sequelize, r: Reservation, retryOf: string | null): Promise<string | null> {
  if (retryOf === null) {
    const rows = await preparedQuery<{ id: string }>(sequelize, 'sending_insert_email', INSERT_SQL, [
      r.emailId,
      r.accountId,
      r.campaignId,
      r.leadId,
      r.step,
      r.mailboxId,
      r.fromEmail,
      r.toEmail,
      r.subject,
      r.messageId,
    ]);
    return rows.length === 1 ? r.messageId : null;
  }
  const rows = await preparedQuery<{ message_id: string }>(sequelize, 'sending_retry_email', RETRY_SQL, [retryOf, r.mailboxId, r.fromEmail, r.toEmail, r.subject]);
  return rows[0]?.message_id ?? null;
}

/** Back to 'deferred' after a temporary failure: the server did not take it, a retry sends it. */
export async function markDeferred(sequelize: Sequelize, emailId: string, error: string): Promise<void> {
  // Only from 'sending': if a later attempt already settled the row, that outcome stands.
  await preparedQuery(sequelize, 'sending_mark_deferred', `UPDATE emails SET status = 'deferred', error = $2, updated_at = now() WHERE id = $1 AND status = 'sending'`, [
    emailId,
    error.slice(0, 2000),
  ]);
}

/** A deferred email whose lead became suppressed in the meantime: it will never be sent. */
export async function markAbandoned(sequelize: Sequelize, emailId: string, reason: string): Promise<void> {
  await preparedQuery(sequelize, 'sending_mark_failed', `UPDATE emails SET status = 'failed', error = $2, updated_at = now() WHERE id = $1 AND status = 'deferred'`, [
    emailId,
    `not sent: ${reason}`,
  ]);
}

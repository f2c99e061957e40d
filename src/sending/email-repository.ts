import type { Sequelize } from 'sequelize';
import type { EmailStatus } from '../db/models/email';
import { preparedQuery, type BatchPart } from '../db/prepared-query';
import { leadBlockSql } from './lead-block-sql';

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
  /** False only when the request asked for a running campaign and its row is not 'running'. */
  readonly campaignOpen: boolean;
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
  campaign_open: boolean;
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
    claim_id text, from_email text, subject text, claim_message_id text, claim_token text, only_running boolean,
    variant text, starts_thread boolean, body_text text, body_html text)
), gate AS MATERIALIZED (
  -- The running campaigns among those whose items asked for it, share-locked until this statement
  -- commits: see RUNNING_GATE.
  SELECT c.id FROM campaigns c
  WHERE c.id IN (SELECT i.campaign_id FROM i WHERE i.only_running) AND c.status = 'running'
  ORDER BY c.id
  FOR SHARE
), s AS (
  SELECT i.*, l.email, l.first_name, l.last_name,
    (NOT i.only_running OR i.campaign_id IN (SELECT gate.id FROM gate)) AS campaign_open,
    COALESCE(
      (SELECT s.reason FROM suppressions s WHERE s.account_id = l.account_id AND s.email = l.email),
      CASE WHEN l.bounced_at IS NOT NULL THEN 'bounced' WHEN l.unsubscribed_at IS NOT NULL THEN 'unsubscribed' END,
      ${leadBlockSql('l.account_id', 'l.email', 'i.campaign_id', 'l.id', 'l.verification')}
    ) AS blocked_by,
    e.id AS email_id, e.status, e.message_id,
    EXISTS (SELECT 1 FROM mailboxes m WHERE m.account_id = l.account_id AND m.active) AS has_mailboxes
  FROM i
  -- LATERAL ... LIMIT 1: one index lookup per item. As plain joins the planner, which guesses 100
  -- rows for any jsonb_to_recordset, hashes whole tables (a scan of all leads and emails per batch).
  -- The lead is looked up by its id alone, so that the primary key is the only index that fits:
  -- with the account in the same lookup, a plan made before the statistics exist may take any of
  -- the (account_id, ...) indexes and read every lead of the account for each item (the generic
  -- plan is made once per connection and kept). The account is checked on the row found.
  CROSS JOIN LATERAL (SELECT * FROM leads l WHERE l.id = i.lead_id LIMIT 1) l
  LEFT JOIN LATERAL (SELECT * FROM emails e WHERE e.campaign_id = i.campaign_id AND e.lead_id = i.lead_id AND e.step = i.step LIMIT 1) e ON true
  WHERE l.account_id = i.account_id
), claim AS (
  INSERT INTO emails (id, account_id, campaign_id, lead_id, step, mailbox_id, from_email, to_email, subject, message_id, status, attempts, smtp_phase, send_token,
    variant, starts_thread, body_text, body_html)
  SELECT s.claim_id, s.account_id, s.campaign_id, s.lead_id, s.step, NULL, s.from_email, s.email, s.subject, s.claim_message_id, 'sending', 1, 'reserved', s.claim_token,
    s.variant, s.starts_thread, s.body_text, s.body_html FROM s
  WHERE s.claim_id IS NOT NULL AND s.email_id IS NULL AND s.blocked_by IS NULL AND NOT s.has_mailboxes AND s.campaign_open
  ORDER BY s.campaign_id, s.lead_id, s.step, s.n
  ON CONFLICT (campaign_id, lead_id, step) DO NOTHING
  RETURNING id
)
SELECT s.n, s.email, s.first_name, s.last_name, s.blocked_by, s.email_id, s.status, s.message_id, s.has_mailboxes, s.campaign_open,
  EXISTS (SELECT 1 FROM claim c WHERE c.id = s.claim_id) AS claimed
FROM s`;

/**
 * A first attempt through the default transport reserves its row in the same statement that reads
 * the state (one round trip instead of two on the path where throughput matters: mailboxes are
 * capped and gapped, the default relay is not). It takes effect only when nothing stands in the
 * way: no earlier row, the lead not blocked, the account without mailboxes, and (when asked) the
 * campaign running.
 */
export interface DefaultClaim {
  readonly emailId: string;
  readonly fromEmail: string;
  readonly subject: string;
  readonly messageId: string;
  /** The attempt's token (see Reservation.token). */
  readonly token: string;
  readonly content: StoredContent;
}

/** What an email's row keeps of its content besides the subject: a resend sends exactly this. */
export interface StoredContent {
  readonly variant: string | null;
  readonly startsThread: boolean | null;
  readonly text: string | null;
  readonly html: string | null;
}

export interface StateRequest {
  readonly accountId: string;
  readonly campaignId: string;
  readonly leadId: string;
  readonly step: number;
  readonly claim: DefaultClaim | null;
  /** Reserve only while the campaign is running (see RUNNING_GATE). */
  readonly onlyWhileRunning: boolean;
}

export type ClaimedSendState = SendState & { readonly claimed: boolean };

/**
 * For each request: the lead, any earlier attempt, and whether the account has mailboxes; null if
 * the lead is not the account's. With a claim, `claimed` says whether the row was reserved as
 * 'sending' for it. A part of a batch (see runBatchParts): one execution for all the requests, so
 * every claim is committed with the batch's transaction.
 */
export function sendStatesPart(requests: readonly StateRequest[]): BatchPart<Array<ClaimedSendState | null>> {
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
    claim_token: r.claim?.token ?? null,
    only_running: r.onlyWhileRunning,
    variant: r.claim?.content.variant ?? null,
    starts_thread: r.claim?.content.startsThread ?? null,
    body_text: r.claim?.content.text ?? null,
    body_html: r.claim?.content.html ?? null,
  }));
  return {
    steps: [{ name: 'sending_states_content', text: STATE_SQL, values: [JSON.stringify(items)] }],
    read: ([result]) => {
      const out: Array<ClaimedSendState | null> = requests.map(() => null);
      for (const r of (result?.rows ?? []) as unknown as StateRow[]) {
        out[r.n] = {
          lead: { email: r.email, firstName: r.first_name, lastName: r.last_name, blockedBy: r.blocked_by },
          existing: r.email_id === null ? null : { id: r.email_id, status: r.status as EmailStatus, messageId: r.message_id as string },
          hasMailboxes: r.has_mailboxes,
          campaignOpen: r.campaign_open,
          claimed: r.claimed,
        };
      }
      return out;
    },
  };
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
  /**
   * Names this attempt as the row's owner. Only the owner records the end of its data (and so
   * releases the terminating dot, see data-end-gate.ts) or a deferral; a later attempt that takes
   * the row over makes an earlier one still running abort before its dot.
   */
  readonly token: string;
  /** Reserve only while the campaign is running (see RUNNING_GATE). */
  readonly onlyWhileRunning: boolean;
  readonly content: StoredContent;
}

/**
 * RUNNING_GATE: a reservation that must not outlive a pause reads the campaign row FOR SHARE in
 * its own statement and goes ahead only if the row says 'running'. A pause is an UPDATE of that
 * row, which conflicts with the share lock: a pause that committed first is seen (the statement
 * starts after it, or waits for it and then re-reads the row: PostgreSQL re-checks a locked row's
 * conditions on its newest version), and a pause that comes second waits until the reservation
 * has committed. So once the pause's UPDATE has committed, no new email of the campaign is
 * reserved, and none goes to SMTP without a reservation.
 *
 * `gate` is that row (share-locked) when the flag asks for the check and the campaign is running.
 */
const gate = (campaign: string, flag: string): string => `gate AS MATERIALIZED (
  SELECT c.id FROM campaigns c WHERE ${flag}::boolean AND c.id = ${campaign}::text AND c.status = 'running' FOR SHARE
)`;
const GATE_OPEN = (flag: string): string => `(NOT ${flag}::boolean OR EXISTS (SELECT 1 FROM gate))`;

const INSERT_SQL = `
WITH ${gate('$3', '$11')}, blocked AS MATERIALIZED (
  SELECT ${leadBlockSql('$2::text', '$8::text', '$3::text', '$4::text')} AS reason
), ins AS (
  INSERT INTO emails (id, account_id, campaign_id, lead_id, step, mailbox_id, from_email, to_email, subject, message_id, status, attempts, smtp_phase, send_token,
    variant, starts_thread, body_text, body_html)
  SELECT $1::text, $2::text, $3::text, $4::text, $5::int, $6::text, $7::text, $8::text, $9::text, $10::text, 'sending', 1, 'reserved', $12::text,
    $13::text, $14::boolean, $15::text, $16::text
  WHERE ${GATE_OPEN('$11')} AND (SELECT reason FROM blocked) IS NULL
  ON CONFLICT (campaign_id, lead_id, step) DO NOTHING
  RETURNING id
)
SELECT ${GATE_OPEN('$11')} AS open, (SELECT count(*) FROM ins)::int AS reserved, (SELECT reason FROM blocked) AS blocked_by`;

/**
 * Takes back a row that no attempt settled: 'deferred' (the server said "not now") or 'sending'
 * (an attempt stopped mid-transaction: a crash, or a worker that lost its activity). Either way
 * the email is sent again with its Message-ID. A row whose last attempt had reached the end of its
 * data becomes a possible duplicate (the server may have accepted that copy).
 */
const RETRY_SQL = `
WITH ${gate('$6', '$7')}, blocked AS MATERIALIZED (
  SELECT ${leadBlockSql('e.account_id', '$4::text', 'e.campaign_id', 'e.lead_id')} AS reason FROM emails e WHERE e.id = $1
), upd AS (
  UPDATE emails SET status = 'sending', attempts = attempts + 1, mailbox_id = $2, from_email = $3, to_email = $4, subject = $5,
    possible_duplicate = possible_duplicate OR COALESCE(smtp_phase = 'data_sent', false),
    smtp_phase = 'reserved', smtp_started_at = NULL, data_sent_at = NULL, send_token = $8, error = NULL, updated_at = now(),
    -- A row written before content was kept takes this attempt's; a row that has content keeps it.
    variant = coalesce(variant, $9::text), starts_thread = coalesce(starts_thread, $10::boolean),
    body_text = coalesce(body_text, $11::text), body_html = coalesce(body_html, $12::text)
  WHERE id = $1 AND status IN ('deferred', 'sending') AND ${GATE_OPEN('$7')} AND NOT EXISTS (SELECT 1 FROM blocked WHERE reason IS NOT NULL)
  RETURNING message_id, possible_duplicate
)
SELECT ${GATE_OPEN('$7')} AS open, (SELECT message_id FROM upd) AS message_id, (SELECT possible_duplicate FROM upd) AS possible_duplicate,
  (SELECT reason FROM blocked) AS blocked_by`;

/**
 * - reserved: the row is ours, send with this Message-ID;
 * - taken: another attempt got the row first;
 * - not_running: the campaign is not running (only with `onlyWhileRunning`); nothing was reserved.
 */
export type ReservationResult =
  | { readonly reserved: string; readonly possibleDuplicate: boolean }
  | { readonly refused: 'taken' | 'not_running' }
  | { readonly refused: 'blocked'; readonly reason: string };

/**
 * Marks the email 'sending' before a byte goes to SMTP: a first attempt inserts the row (its
 * Message-ID fixed now), a retry after a deferral takes the deferred row back (keeping its
 * Message-ID).
 */
export async function reserveEmailRow(sequelize: Sequelize, r: Reservation, retryOf: string | null): Promise<ReservationResult> {
  if (retryOf === null) {
    const rows = await preparedQuery<{ open: boolean; reserved: number; blocked_by: string | null }>(sequelize, 'sending_insert_email_content', INSERT_SQL, [
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
      r.onlyWhileRunning,
      r.token,
      r.content.variant,
      r.content.startsThread,
      r.content.text,
      r.content.html,
    ]);
    const row = rows[0];
    if (row?.open === false) return { refused: 'not_running' };
    if (row?.blocked_by) return { refused: 'blocked', reason: row.blocked_by };
    return row?.reserved === 1 ? { reserved: r.messageId, possibleDuplicate: false } : { refused: 'taken' };
  }
  const rows = await preparedQuery<{ open: boolean; message_id: string | null; possible_duplicate: boolean | null; blocked_by: string | null }>(sequelize, 'sending_retry_email_content', RETRY_SQL, [
    retryOf,
    r.mailboxId,
    r.fromEmail,
    r.toEmail,
    r.subject,
    r.campaignId,
    r.onlyWhileRunning,
    r.token,
    r.content.variant,
    r.content.startsThread,
    r.content.text,
    r.content.html,
  ]);
  const row = rows[0];
  if (row?.open === false) return { refused: 'not_running' };
  if (row?.blocked_by) return { refused: 'blocked', reason: row.blocked_by };
  return row?.message_id ? { reserved: row.message_id, possibleDuplicate: row.possible_duplicate === true } : { refused: 'taken' };
}

/** An attempt's end of data, to record before its terminating dot goes out. */
export interface DataSent {
  readonly emailId: string;
  readonly token: string;
  readonly startedAt: Date;
}

/**
 * One row by its primary key, the only index that fits: a plan that stays right however small the
 * table was when the connection planned it. (A set-based UPDATE ... FROM the items' JSON was
 * planned as a hash join over a sequential scan of emails whenever the table was small at the
 * time, and the connection kept that plan as the table grew: a scan of every email per mark.)
 */
const DATA_SENT_SQL = `
UPDATE emails SET smtp_phase = 'data_sent', smtp_started_at = $3::timestamptz, data_sent_at = now(), updated_at = now()
WHERE id = $1::text AND status = 'sending' AND send_token = $2::text`;

/**
 * Records that each attempt reached the end of its data (see data-end-gate.ts), as a part of a
 * batch (see runBatchParts): one execution each, in one transaction. For each: true when the
 * attempt still owns its row; false when a later attempt took the row over (or it was settled
 * meanwhile), and this attempt must not release its dot.
 */
export function dataSentPart(marks: readonly DataSent[]): BatchPart<boolean[]> {
  return {
    steps: marks.map((m) => ({ name: 'sending_mark_data_sent', text: DATA_SENT_SQL, values: [m.emailId, m.token, m.startedAt.toISOString()] })),
    read: (results) => results.map((r) => r.rowCount === 1),
  };
}

/**
 * Back to 'deferred' after a temporary failure. `answered`: the server replied (a 4xx), so it did
 * not take the message; otherwise (a dropped connection, a timeout) a row that had reached the end
 * of its data keeps 'data_sent': the server may have taken that copy, and the resend is marked a
 * possible duplicate (RETRY_SQL).
 */
export async function markDeferred(sequelize: Sequelize, emailId: string, token: string, error: string, answered: boolean): Promise<void> {
  // Only this attempt's own 'sending': a later attempt's row, or an outcome already settled, stands.
  await preparedQuery(
    sequelize,
    'sending_mark_deferred',
    `UPDATE emails SET status = 'deferred', smtp_phase = CASE WHEN $4::boolean THEN NULL ELSE smtp_phase END, error = $2, updated_at = now()
     WHERE id = $1 AND status = 'sending' AND send_token = $3`,
    [emailId, error.slice(0, 2000), token, answered],
  );
}

/** A deferred email whose lead became suppressed in the meantime: it will never be sent. */
export async function markAbandoned(sequelize: Sequelize, emailId: string, reason: string): Promise<void> {
  await preparedQuery(sequelize, 'sending_mark_failed', `UPDATE emails SET status = 'failed', error = $2, updated_at = now() WHERE id = $1 AND status = 'deferred'`, [
    emailId,
    `not sent: ${reason}`,
  ]);
}

import type { Sequelize } from 'sequelize';
import { preparedQuery } from '../db/prepared-query';

/** A mailbox whose send slot was just taken. */
export interface ReservedMailbox {
  readonly id: string;
  readonly fromEmail: string;
  readonly fromName: string | null;
  /** Plain text the batch adds under the email (null: the account's default sender's signature). */
  readonly signature: string | null;
  readonly smtpUrl: string;
  readonly dkim: { readonly domainName: string; readonly keySelector: string; readonly privateKey: string } | null;
}

export type SlotReservation = { readonly reserved: ReservedMailbox } | { readonly retryAfterSeconds: number };

interface MailboxRow {
  id: string;
  from_email: string;
  from_name: string | null;
  signature: string | null;
  smtp_url: string;
  dkim_domain: string | null;
  dkim_selector: string | null;
  dkim_private_key: string | null;
}

// The cap and gap conditions, written once and used twice below.
const HAS_ROOM = (m: string): string => `${m}.active
    AND (${m}.sent_day IS DISTINCT FROM (now() AT TIME ZONE 'UTC')::date OR ${m}.sent_today < ${m}.daily_cap)
    AND (${m}.min_gap_seconds = 0 OR ${m}.last_sent_at IS NULL OR ${m}.last_sent_at <= now() - make_interval(secs => ${m}.min_gap_seconds))`;

/**
 * The mailboxes a send may use: only `$2` when it names an active mailbox of the account (a lead
 * stays with the mailbox that first wrote to it, so its thread comes from one sender: "sticky"),
 * otherwise every active mailbox.
 */
const CANDIDATE = (m: string): string => `${m}.account_id = $1
    AND ($2::text IS NULL OR ${m}.id = $2 OR NOT EXISTS (SELECT 1 FROM mailboxes s WHERE s.id = $2 AND s.account_id = $1 AND s.active))`;

/**
 * Takes one send slot of the account's least recently used mailbox that has room, in ONE
 * statement: the inner SELECT picks and row-locks the candidate; the outer UPDATE's conditions are
 * evaluated again on the row as it is once the lock is ours (PostgreSQL re-checks an UPDATE's
 * WHERE on the newest row version), so two workers racing for the last slot of a cap, or within
 * one minimum gap, cannot both get it: the loser moves on to the next mailbox or gets nothing.
 * The day is the UTC day; the first send of a new day resets the counter.
 */
const RESERVE_SQL = `
UPDATE mailboxes m SET
  sent_today = CASE WHEN m.sent_day = (now() AT TIME ZONE 'UTC')::date THEN m.sent_today + 1 ELSE 1 END,
  sent_day = (now() AT TIME ZONE 'UTC')::date,
  last_sent_at = now(),
  updated_at = now()
WHERE m.id = (
    SELECT c.id FROM mailboxes c
    WHERE ${CANDIDATE('c')} AND ${HAS_ROOM('c')}
    ORDER BY c.last_sent_at ASC NULLS FIRST, c.id
    LIMIT 1
    FOR UPDATE
  )
  AND ${HAS_ROOM('m')}
RETURNING m.id, m.from_email, m.from_name, m.signature, m.smtp_url, m.dkim_domain, m.dkim_selector, m.dkim_private_key`;

/**
 * When the earliest mailbox has room again: the end of its gap, or the next UTC midnight for a
 * mailbox at its cap (and its gap, if that ends later still).
 */
const RETRY_AFTER_SQL = `
SELECT GREATEST(1, ceil(extract(epoch FROM min(GREATEST(
    CASE WHEN sent_day = (now() AT TIME ZONE 'UTC')::date AND sent_today >= daily_cap
      THEN (((now() AT TIME ZONE 'UTC')::date + 1)::timestamp AT TIME ZONE 'UTC') ELSE now() END,
    COALESCE(last_sent_at + make_interval(secs => min_gap_seconds), now())
  )) - now())))::int AS wait
FROM mailboxes m WHERE ${CANDIDATE('m')} AND m.active`;

/**
 * Reserves a slot of one of the account's active mailboxes, or says how long until one has room.
 * With `stickTo` (the mailbox that already wrote to the lead), only that mailbox is used while it
 * is active: the lead's thread keeps one sender, and waits for that mailbox's gap or cap.
 */
export async function reserveMailboxSlot(sequelize: Sequelize, accountId: string, stickTo: string | null = null): Promise<SlotReservation> {
  const rows = await preparedQuery<MailboxRow>(sequelize, 'sending_reserve_mailbox_sticky', RESERVE_SQL, [accountId, stickTo]);
  const row = rows[0];
  if (row !== undefined) {
    const dkim =
      row.dkim_domain !== null && row.dkim_selector !== null && row.dkim_private_key !== null
        ? { domainName: row.dkim_domain, keySelector: row.dkim_selector, privateKey: row.dkim_private_key }
        : null;
    return { reserved: { id: row.id, fromEmail: row.from_email, fromName: row.from_name, signature: row.signature, smtpUrl: row.smtp_url, dkim } };
  }
  const wait = await preparedQuery<{ wait: number | null }>(sequelize, 'sending_mailbox_retry_after_sticky', RETRY_AFTER_SQL, [accountId, stickTo]);
  // No active mailbox left (deactivated in between): a minute, by then the caller sees the default transport.
  return { retryAfterSeconds: wait[0]?.wait ?? 60 };
}

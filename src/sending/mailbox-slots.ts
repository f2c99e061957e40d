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

/**
 * A slot taken, or how long until a candidate has room. `noActiveMailbox`: no active mailbox may
 * send at all (the campaign's set is all deactivated, or the account has none left); the wait is
 * then a guess for callers that only wait, and a campaign batch stops trying instead.
 */
export type SlotReservation = { readonly reserved: ReservedMailbox } | { readonly retryAfterSeconds: number; readonly noActiveMailbox?: true };

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
 * The campaign's own mailboxes (`$3`, the campaign's id; null or a campaign without a set: none
 * named). Cast, so that ANY reads it as the array it is rather than as a subquery's rows.
 */
const CAMPAIGN_SET = `(SELECT k.mailbox_ids FROM campaigns k WHERE k.id = $3::text AND k.account_id = $1)::text[]`;

/** The mailbox `id` is one the campaign may send from: its set names it, or it names none (every mailbox of the account). */
const IN_SET = (id: string): string => `(${CAMPAIGN_SET} IS NULL OR ${id} = ANY (${CAMPAIGN_SET}))`;

/**
 * The mailboxes a send may use: the account's, within the campaign's set (`$3`) when it has one;
 * only `$2` when it names an active mailbox of that set (a lead stays with the mailbox that first
 * wrote to it, so its thread comes from one sender: "sticky"), otherwise any of them. A lead whose
 * mailbox was deactivated or taken out of the campaign's set moves to one the campaign may use.
 */
const CANDIDATE = (m: string): string => `${m}.account_id = $1 AND ${IN_SET(`${m}.id`)}
    AND ($2::text IS NULL OR ${m}.id = $2 OR NOT EXISTS (SELECT 1 FROM mailboxes s WHERE s.id = $2 AND s.account_id = $1 AND s.active AND ${IN_SET('s.id')}))`;

/**
 * Takes one send slot of the least recently used candidate mailbox that has room, in ONE
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
 * With `campaignId`, only the mailboxes that campaign names (all of the account's when it names
 * none), read from its row in the same statement: a change of the set counts from the next email.
 * With `stickTo` (the mailbox that already wrote to the lead), only that mailbox is used while it
 * is active and one the campaign may use: the lead's thread keeps one sender, and waits for that
 * mailbox's gap or cap. Caps and gaps are each mailbox's own, shared by all the account's campaigns.
 */
export async function reserveMailboxSlot(sequelize: Sequelize, accountId: string, stickTo: string | null = null, campaignId: string | null = null): Promise<SlotReservation> {
  const rows = await preparedQuery<MailboxRow>(sequelize, 'sending_reserve_mailbox_of_campaign', RESERVE_SQL, [accountId, stickTo, campaignId]);
  const row = rows[0];
  if (row !== undefined) {
    const dkim =
      row.dkim_domain !== null && row.dkim_selector !== null && row.dkim_private_key !== null
        ? { domainName: row.dkim_domain, keySelector: row.dkim_selector, privateKey: row.dkim_private_key }
        : null;
    return { reserved: { id: row.id, fromEmail: row.from_email, fromName: row.from_name, signature: row.signature, smtpUrl: row.smtp_url, dkim } };
  }
  const wait = await preparedQuery<{ wait: number | null }>(sequelize, 'sending_mailbox_retry_after_of_campaign', RETRY_AFTER_SQL, [accountId, stickTo, campaignId]);
  const seconds = wait[0]?.wait ?? null;
  // No candidate at all: every mailbox the send may use was deactivated (in between, or all of a campaign's set).
  return seconds === null ? { retryAfterSeconds: 60, noActiveMailbox: true } : { retryAfterSeconds: seconds };
}

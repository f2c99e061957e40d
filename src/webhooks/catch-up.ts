import { QueryTypes, type Sequelize } from 'sequelize';
import { TEST_EVENT_KIND } from './event-kinds';

/**
 * Receivers that come back. A delivery that ended `failed` (the ladder's last retry failed, or the
 * egress policy refused the destination) waits until its URL answers 2xx to anything of the same
 * account: a first attempt, a retry, a resend, a catch-up or a test event. Then the oldest of that
 * account's failed deliveries to the URL (by the event's own time, then its id) starts its next
 * cycle exactly as a resend does: pending, same event id and body, a failure climbing the ladder
 * again. Its success brings the next one, and so on: a chain, one delivery of the backlog in flight
 * per URL at a time, so the receiver gets what it missed in order and is not flooded, and the work
 * per success is one index probe (one row moved at most per URL).
 *
 * Conditions are re-checked where the rows are written, so two dispatchers or API processes that
 * see the same success at once never start a cycle twice: the oldest row is locked with SKIP LOCKED
 * (a row another statement is moving is left to it, and nothing younger is taken in its place) and
 * must still be `failed`; a URL that already has a later cycle pending (a catch-up or a resend on
 * its way) moves nothing, unless that very delivery is being settled by the same statement.
 *
 * Not resent: test events (sent once on request, never retried), and deliveries to other URLs or of
 * other accounts (one receiver coming back says nothing of another, and a URL shared by two
 * accounts is two receivers as far as the secrets go).
 */

/**
 * The CTEs `next_up` and `caught_up` for a statement whose CTE `recovered` lists the
 * (account_id, url) pairs that just answered 2xx. `settling` names a CTE (with an `id` column) of
 * deliveries the same statement settles: their pending rows are still in its snapshot and must not
 * count as a catch-up in flight. `leaseMs` is an SQL expression: the lease the moved deliveries get
 * (0: expired at once, for any dispatcher to take over). `caught_up` returns `id` and `cycle`.
 */
export function catchUpCtes(recovered: string, settling: string | null, leaseMs: string): string {
  const notSettling = settling === null ? '' : `AND p.id NOT IN (SELECT id FROM ${settling})`;
  return `next_up AS (
       SELECT f.id FROM webhook_deliveries f
        WHERE f.status = 'failed' AND f.id IN (
          SELECT oldest.id FROM ${recovered} r
           CROSS JOIN LATERAL (
             SELECT w.id FROM webhook_deliveries w
              WHERE w.account_id = r.account_id AND w.url = r.url AND w.status = 'failed' AND w.event <> '${TEST_EVENT_KIND}'
              ORDER BY w.event_at, w.event_id LIMIT 1
           ) oldest
           WHERE NOT EXISTS (
             SELECT 1 FROM webhook_deliveries p
              WHERE p.account_id = r.account_id AND p.url = r.url AND p.status = 'pending' AND p.cycle > 1 ${notSettling}))
        FOR UPDATE OF f SKIP LOCKED
     ), caught_up AS (
       UPDATE webhook_deliveries d
          SET status = 'pending', cycle = d.cycle + 1, lease_until = now() + (${leaseMs}) * interval '1 millisecond', retry_workflow_id = NULL,
              next_attempt_at = now(), failed_at = NULL, updated_at = now()
         FROM next_up n WHERE d.id = n.id AND d.status = 'failed'
       RETURNING d.id, d.cycle
     )`;
}

/**
 * The catch-up after a 2xx recorded outside the dispatcher's statements (a test event): the URL's
 * oldest failed delivery, if any and if none is already on its way, moves to its next cycle with
 * its lease expired, and NOTIFY wakes a dispatcher to take it over. Returns the moved delivery ids.
 */
export async function catchUpAfterSuccess(sequelize: Sequelize, accountId: string, url: string): Promise<string[]> {
  const rows = await sequelize.query<{ id: string }>(
    `WITH recovered AS (SELECT $1::text AS account_id, $2::text AS url), ${catchUpCtes('recovered', null, '0')}
     -- NOTIFY only when a row moved; it is sent at commit, so the dispatcher sees the new cycle.
     SELECT id, pg_notify('outbox', '') FROM caught_up`,
    { bind: [accountId, url], type: QueryTypes.SELECT },
  );
  return rows.map((r) => r.id);
}

/** Wakes the dispatchers (after a statement that moved deliveries with their lease expired). */
export async function wakeDispatchers(sequelize: Sequelize): Promise<void> {
  await sequelize.query(`SELECT pg_notify('outbox', '')`);
}

import { QueryTypes, type Sequelize } from 'sequelize';
import { catchUpCtes, wakeDispatchers } from './catch-up';
import type { AttemptOutcome } from './post-webhook';

/** One finished attempt of a delivery, as the log records it. */
export interface FinishedAttempt {
  readonly deliveryId: string;
  readonly cycle: number;
  readonly outcome: AttemptOutcome;
}

/** A delivery whose attempt failed, with the instant its attempt ended. */
export interface FailedAttempt {
  readonly deliveryId: string;
  readonly cycle: number;
  readonly failedAt: Date;
}

interface Recorded {
  readonly attempts: Array<{ deliveryId: string; ok: boolean; failed: FailedAttempt | null }>;
  /** Failed deliveries moved to their next cycle because their URL answered 2xx (catch-up.ts). */
  readonly caughtUp: string[];
}

/**
 * Records attempts, many in one statement: each attempt row (numbered on from the delivery's
 * count), and the delivery moved to `delivered`, or kept `retrying` with its next retry due
 * `nextRetryMs` after the failure (none when null), or — for a failure that is not retryable (the
 * destination refused by the egress policy) — moved to `failed` at once, with nothing due. Only
 * deliveries in state `from` and in the attempt's cycle are touched: one taken over by another
 * dispatcher, resent or settled meanwhile is left alone. Returns the attempts it recorded, failed
 * ones that still climb the ladder with the instant they ended.
 *
 * In the same statement, every URL that answered 2xx gets its catch-up (catch-up.ts): the
 * account's oldest failed delivery to it starts its next cycle, leased to the caller for
 * `catchUpLeaseMs` (a dispatcher posts it itself), or with its lease expired when null (a
 * dispatcher is woken to take it over). Being part of the statement that records the success, the
 * catch-up cannot be lost between the two.
 */
async function recordAttempts(
  sequelize: Sequelize,
  from: 'pending' | 'retrying',
  attempts: ReadonlyArray<{ attempt: FinishedAttempt; nextRetryMs: number | null }>,
  catchUpLeaseMs: number | null,
): Promise<Recorded> {
  if (attempts.length === 0) return { attempts: [], caughtUp: [] };
  const records = attempts.map(({ attempt: a, nextRetryMs }) => ({
    id: a.deliveryId,
    cycle: a.cycle,
    attempted_at: a.outcome.attemptedAt.toISOString(),
    duration_ms: a.outcome.durationMs,
    status_code: a.outcome.statusCode,
    error: a.outcome.error,
    ok: a.outcome.ok,
    refused: !a.outcome.ok && !a.outcome.retryable,
    next_retry_ms: nextRetryMs,
  }));
  const rows = await sequelize.query<{ kind: 'attempt' | 'caught_up'; id: string; cycle: number; ok: boolean; refused: boolean; ended_at: Date }>(
    `WITH x AS (
       SELECT * FROM jsonb_to_recordset($1::jsonb)
         AS x(id text, cycle int, attempted_at timestamptz, duration_ms int, status_code int, error text, ok boolean, refused boolean, next_retry_ms bigint)
     ), upd AS (
       UPDATE webhook_deliveries d SET
         attempt_count = d.attempt_count + 1,
         status = CASE WHEN x.ok THEN 'delivered' WHEN x.refused THEN 'failed' ELSE 'retrying' END,
         lease_until = NULL,
         last_attempt_at = x.attempted_at, last_status_code = x.status_code, last_error = x.error,
         delivered_at = CASE WHEN x.ok THEN x.attempted_at + x.duration_ms * interval '1 millisecond' END,
         failed_at = CASE WHEN x.refused THEN x.attempted_at + x.duration_ms * interval '1 millisecond' ELSE d.failed_at END,
         next_attempt_at = CASE WHEN x.ok OR x.refused OR x.next_retry_ms IS NULL THEN NULL
                                ELSE x.attempted_at + (x.duration_ms + x.next_retry_ms) * interval '1 millisecond' END,
         updated_at = now()
       FROM x WHERE d.id = x.id AND d.cycle = x.cycle AND d.status = $2
       RETURNING d.id, d.account_id, d.url, d.cycle, d.attempt_count, x.attempted_at, x.duration_ms, x.status_code, x.error, x.ok, x.refused
     ), logged AS (
       INSERT INTO webhook_attempts (delivery_id, number, cycle, attempted_at, duration_ms, status_code, error, succeeded)
       SELECT id, attempt_count, cycle, attempted_at, duration_ms, status_code, error, ok FROM upd
     ), recovered AS (
       SELECT DISTINCT account_id, url FROM upd WHERE ok
     ), ${catchUpCtes('recovered', 'upd', 'COALESCE($3::bigint, 0)')}
     SELECT 'attempt' AS kind, id, cycle, ok, refused, attempted_at + duration_ms * interval '1 millisecond' AS ended_at FROM upd
     UNION ALL
     SELECT 'caught_up', id, cycle, NULL, NULL, NULL FROM caught_up`,
    { bind: [JSON.stringify(records), from, catchUpLeaseMs], type: QueryTypes.SELECT },
  );
  const caughtUp = rows.filter((r) => r.kind === 'caught_up').map((r) => r.id);
  // Moved with the lease expired: a dispatcher must hear of it (NOTIFY), not only find it when it polls.
  if (caughtUp.length > 0 && catchUpLeaseMs === null) await wakeDispatchers(sequelize);
  return {
    attempts: rows
      .filter((r) => r.kind === 'attempt')
      .map((r) => ({
        deliveryId: r.id,
        ok: r.ok,
        failed: r.ok || r.refused ? null : { deliveryId: r.id, cycle: r.cycle, failedAt: new Date(r.ended_at) },
      })),
    caughtUp,
  };
}

/** What the dispatcher's recording of first attempts leaves it to do. */
export interface RecordedFirstAttempts {
  /** Deliveries left retrying: each needs its retry workflow started. */
  readonly failed: FailedAttempt[];
  /** Failed deliveries whose URL answered 2xx, now pending in their next cycle and leased to the caller: it posts them. */
  readonly caughtUp: string[];
}

/**
 * The dispatcher's first attempts of a cycle: `pending` → `delivered`, or → `retrying` with the
 * first retry due `firstRetryMs` after the failure, or → `failed` when the destination was refused
 * (not retryable). A URL that answered 2xx brings its oldest failed delivery back (catch-up.ts),
 * leased to the caller for `leaseMs`.
 */
export async function recordFirstAttempts(sequelize: Sequelize, attempts: readonly FinishedAttempt[], firstRetryMs: number, leaseMs: number): Promise<RecordedFirstAttempts> {
  const recorded = await recordAttempts(sequelize, 'pending', attempts.map((attempt) => ({ attempt, nextRetryMs: firstRetryMs })), leaseMs);
  return { failed: recorded.attempts.flatMap((r) => (r.failed === null ? [] : [r.failed])), caughtUp: recorded.caughtUp };
}

/**
 * One retry's attempt: `delivered` on success; on failure the delivery stays `retrying` with the
 * next retry's due time (none after the last: the workflow marks it failed next), or is `failed` at
 * once when the destination was refused. A success brings the URL's oldest failed delivery back
 * (catch-up.ts) for a dispatcher to take over. Returns false when the delivery was not retrying in
 * that cycle (nothing recorded).
 */
export async function recordRetryAttempt(sequelize: Sequelize, attempt: FinishedAttempt, nextRetryInMs: number | null): Promise<boolean> {
  const recorded = await recordAttempts(sequelize, 'retrying', [{ attempt, nextRetryMs: nextRetryInMs }], null);
  return recorded.attempts.length > 0;
}

/** After the last retry failed: the delivery is `failed` (it can still be resent). */
export async function markDeliveryFailed(sequelize: Sequelize, deliveryId: string, cycle: number): Promise<void> {
  await sequelize.query(
    `UPDATE webhook_deliveries SET status = 'failed', failed_at = now(), next_attempt_at = NULL, updated_at = now()
      WHERE id = $1 AND cycle = $2 AND status = 'retrying'`,
    { bind: [deliveryId, cycle] },
  );
}

/** Notes which workflow owns this cycle's retries (until then the dispatcher's sweep may start it again). */
export async function markRetryOwned(sequelize: Sequelize, deliveryId: string, cycle: number, workflowId: string): Promise<void> {
  await sequelize.query(
    `UPDATE webhook_deliveries SET retry_workflow_id = $3, updated_at = now() WHERE id = $1 AND cycle = $2 AND status = 'retrying' AND retry_workflow_id IS NULL`,
    { bind: [deliveryId, cycle, workflowId] },
  );
}

/**
 * Deliveries waiting for a retry workflow that was never recorded as started (the dispatcher died
 * between recording the failure and starting it), idle for at least `idleMs`. The failure instant
 * is the end of the cycle's last attempt (its start plus its duration), the same instant the
 * dispatcher hands over, so the ladder counts from the failure even when the sweep starts it:
 * the attempt's start alone would make the first retry up to the 10 s attempt timeout early.
 */
export async function unownedRetries(sequelize: Sequelize, idleMs: number, limit: number): Promise<FailedAttempt[]> {
  const rows = await sequelize.query<{ id: string; cycle: number; failed_at: Date }>(
    `SELECT d.id, d.cycle, COALESCE(a.ended_at, d.last_attempt_at, d.updated_at) AS failed_at
       FROM webhook_deliveries d
       LEFT JOIN LATERAL (
         SELECT attempted_at + duration_ms * interval '1 millisecond' AS ended_at FROM webhook_attempts
          WHERE delivery_id = d.id AND cycle = d.cycle ORDER BY number DESC LIMIT 1
       ) a ON true
      WHERE d.status = 'retrying' AND d.retry_workflow_id IS NULL AND d.updated_at < now() - $1 * interval '1 millisecond'
      ORDER BY d.updated_at LIMIT $2`,
    { bind: [idleMs, limit], type: QueryTypes.SELECT },
  );
  return rows.map((r) => ({ deliveryId: r.id, cycle: r.cycle, failedAt: new Date(r.failed_at) }));
}

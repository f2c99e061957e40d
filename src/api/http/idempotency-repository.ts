import { randomUUID } from 'node:crypto';
import { QueryTypes, type Sequelize } from 'sequelize';

/** How long a key holds its first answer, from the first request. */
export const IDEMPOTENCY_KEY_HOURS = 24;
/**
 * A claim whose heartbeat is older than this was left by a process that died mid-request (the
 * owner refreshes it every IDEMPOTENCY_HEARTBEAT_MS while its work runs, however long that is):
 * the next request with the key takes it over and runs anew.
 */
export const IDEMPOTENCY_TAKEOVER_MINUTES = 5;
export const IDEMPOTENCY_HEARTBEAT_MS = 60_000;
/** Expired rows of any account deleted by one claim, so the table does not grow with old keys. */
const PURGE_BATCH = 100;

/** What identifies one request with a key (idempotency.ts hashes it). */
export interface KeyedRequest {
  readonly accountId: string;
  readonly key: string;
  readonly requestHash: string;
  readonly method: string;
  readonly path: string;
}

/** The first answer to a key, as stored. `bodyText` is the JSON text sent, null for no body. */
export interface StoredAnswer {
  readonly status: number;
  readonly bodyText: string | null;
  readonly headers: Readonly<Record<string, string>>;
}

export type ClaimOutcome =
  | { readonly kind: 'claimed'; readonly token: string }
  | { readonly kind: 'replay'; readonly answer: StoredAnswer }
  | { readonly kind: 'different_request' }
  | { readonly kind: 'in_flight' };

// One predicate for "no longer holds its key": an answer older than its 24 hours, or a claim
// whose owner stopped beating. Spelled once so the key's own check and the purge agree.
const GONE = `((state = 'done' AND created_at < now() - make_interval(hours => ${IDEMPOTENCY_KEY_HOURS}))
  OR (state = 'in_flight' AND heartbeat_at < now() - make_interval(mins => ${IDEMPOTENCY_TAKEOVER_MINUTES})))`;

interface ExistingRow {
  request_hash: string;
  state: 'in_flight' | 'done';
  response_status: number | null;
  response_body: string | null;
  response_headers: Record<string, string> | null;
}

/**
 * Claims `key` for this request, or says why not. Each statement commits on its own: the claim is
 * visible to every other API process before the work starts, and no transaction is held open
 * across the work. Of two requests racing with one key (on one process or two), the INSERT lets
 * exactly one through; the other reads the winner's row.
 */
export async function claimKey(sequelize: Sequelize, req: KeyedRequest): Promise<ClaimOutcome> {
  // The key's own expired or abandoned row, so the INSERT below can take it (the primary key
  // finds it), then a batch of expired rows of any account (the created_at index finds them).
  // Two statements: with an OR between them the planner would scan the table.
  await sequelize.query(`DELETE FROM idempotency_keys WHERE account_id = $1 AND key = $2 AND ${GONE}`, { bind: [req.accountId, req.key] });
  await sequelize.query(
    `DELETE FROM idempotency_keys
      WHERE ctid = ANY (ARRAY(
              SELECT ctid FROM idempotency_keys
               WHERE created_at < now() - make_interval(hours => ${IDEMPOTENCY_KEY_HOURS}) AND ${GONE}
               LIMIT ${PURGE_BATCH}))`,
  );
  // A row released between our INSERT and SELECT (a 5xx) lets the next attempt claim it.
  for (let attempt = 0; attempt < 3; attempt++) {
    const token = randomUUID();
    const inserted = await sequelize.query<{ claim_token: string }>(
      `INSERT INTO idempotency_keys (account_id, key, request_hash, method, path, state, claim_token)
       VALUES ($1, $2, $3, $4, $5, 'in_flight', $6)
       ON CONFLICT (account_id, key) DO NOTHING
       RETURNING claim_token`,
      { bind: [req.accountId, req.key, req.requestHash, req.method, req.path, token], type: QueryTypes.SELECT },
    );
    if (inserted.length === 1) return { kind: 'claimed', token };
    const [row] = await sequelize.query<ExistingRow>(
      `SELECT request_hash, state, response_status, response_body::text AS response_body, response_headers
         FROM idempotency_keys WHERE account_id = $1 AND key = $2`,
      { bind: [req.accountId, req.key], type: QueryTypes.SELECT },
    );
    if (row === undefined) continue;
    if (row.request_hash !== req.requestHash) return { kind: 'different_request' };
    if (row.state === 'in_flight') return { kind: 'in_flight' };
    return { kind: 'replay', answer: { status: row.response_status as number, bodyText: row.response_body, headers: row.response_headers ?? {} } };
  }
  // Claimed and released three times over while we looked: as good as in flight.
  return { kind: 'in_flight' };
}

/** Stores the first answer under the claim; a claim taken over since is not ours to complete. */
export async function completeKey(sequelize: Sequelize, accountId: string, key: string, token: string, answer: StoredAnswer): Promise<void> {
  await sequelize.query(
    `UPDATE idempotency_keys
        SET state = 'done', response_status = $4, response_body = $5::json, response_headers = $6::jsonb, completed_at = now()
      WHERE account_id = $1 AND key = $2 AND claim_token = $3 AND state = 'in_flight'`,
    { bind: [accountId, key, token, answer.status, answer.bodyText, JSON.stringify(answer.headers)] },
  );
}

/** Gives the key back (a 5xx or a crash): the next request with it runs anew. */
export async function releaseKey(sequelize: Sequelize, accountId: string, key: string, token: string): Promise<void> {
  await sequelize.query(`DELETE FROM idempotency_keys WHERE account_id = $1 AND key = $2 AND claim_token = $3 AND state = 'in_flight'`, {
    bind: [accountId, key, token],
  });
}

/** Tells other processes the claim's owner is alive and still working. */
export async function beatKey(sequelize: Sequelize, accountId: string, key: string, token: string): Promise<void> {
  await sequelize.query(`UPDATE idempotency_keys SET heartbeat_at = now() WHERE account_id = $1 AND key = $2 AND claim_token = $3 AND state = 'in_flight'`, {
    bind: [accountId, key, token],
  });
}

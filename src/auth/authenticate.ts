import type { Sequelize } from 'sequelize';
import { preparedQuery } from '../db/prepared-query';
import type { PlanName } from '../config/plans';
import { apiKeyMatches, parseApiKey } from './api-key-format';

/** Who a request acts for, once its key is verified. */
export interface AuthContext {
  readonly accountId: string;
  readonly accountName: string;
  readonly plan: PlanName;
  readonly accountCreatedAt: Date;
  readonly keyId: string;
  readonly keyPrefix: string;
}

/** The lookup every authenticated request runs (exported so the benchmark's floor runs the very same). */
export const AUTH_KEY_QUERY = `SELECT k.id AS key_id, k.key_hash, k.revoked_at IS NOT NULL AS revoked,
            (k.last_used_at IS NULL OR k.last_used_at < now() - interval '1 minute') AS last_use_stale,
            a.id AS account_id, a.name AS account_name, a.plan, a.created_at AS account_created_at
       FROM api_keys k JOIN accounts a ON a.id = k.account_id
      WHERE k.prefix = $1`;

export interface KeyRow {
  key_id: string;
  key_hash: string;
  revoked: boolean;
  /** True when the recorded last use is older than the recording resolution (or absent). */
  last_use_stale: boolean;
  account_id: string;
  account_name: string;
  plan: PlanName;
  account_created_at: Date;
}

// Last use is recorded at minute resolution (the interval in the query): writing it on every
// request would double the database work of every authenticated call. The comparisons are made
// in SQL so the hot path parses no timestamps it does not return.

export type AuthFailure = 'malformed' | 'unknown' | 'revoked';

/**
 * Verifies an API key with one indexed read (key joined to its account), prepared once per
 * connection because every authenticated request runs it. Returns the failure kind
 * rather than throwing, so each surface words its own 401.
 */
export async function authenticateApiKey(
  sequelize: Sequelize,
  key: string,
  onBackgroundError: (err: unknown) => void,
): Promise<AuthContext | AuthFailure> {
  const parsed = parseApiKey(key);
  if (!parsed) return 'malformed';
  const row = await keyRow(sequelize, parsed.prefix);
  if (!row || !apiKeyMatches(key, row.key_hash)) return 'unknown';
  if (row.revoked) return 'revoked';
  if (row.last_use_stale) {
    sequelize
      .query('UPDATE api_keys SET last_used_at = now() WHERE id = $1', { bind: [row.key_id] })
      .catch(onBackgroundError);
  }
  return {
    accountId: row.account_id,
    accountName: row.account_name,
    plan: row.plan,
    accountCreatedAt: row.account_created_at,
    keyId: row.key_id,
    keyPrefix: parsed.prefix,
  };
}

const inFlight = new WeakMap<Sequelize, Map<string, Promise<KeyRow | undefined>>>();

/**
 * The key's row, read once for all the requests that ask for the same key while a read is in
 * flight: a busy client's concurrent requests share one lookup instead of queueing one each for
 * the pool. Nothing is kept once the read returns: a request sees every revocation committed
 * before the read it joined began, which is at most one round trip before the request arrived.
 * Every request still checks its own key against the row's hash.
 */
function keyRow(sequelize: Sequelize, prefix: string): Promise<KeyRow | undefined> {
  let reads = inFlight.get(sequelize);
  if (reads === undefined) {
    reads = new Map();
    inFlight.set(sequelize, reads);
  }
  const pending = reads.get(prefix);
  if (pending !== undefined) return pending;
  const read = preparedQuery<KeyRow>(sequelize, 'auth_key_by_prefix', AUTH_KEY_QUERY, [prefix])
    .then((rows) => rows[0])
    .finally(() => reads.delete(prefix));
  reads.set(prefix, read);
  return read;
}

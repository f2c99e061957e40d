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

interface KeyRow {
  key_id: string;
  key_prefix: string;
  key_hash: string;
  revoked_at: Date | null;
  last_used_at: Date | null;
  account_id: string;
  account_name: string;
  plan: PlanName;
  account_created_at: Date;
}

// Last use is recorded at minute resolution: writing it on every request would double the
// database work of every authenticated call.
const LAST_USED_RESOLUTION_MS = 60_000;

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
  const rows = await preparedQuery<KeyRow>(
    sequelize,
    'auth_key_by_prefix',
    `SELECT k.id AS key_id, k.prefix AS key_prefix, k.key_hash, k.revoked_at, k.last_used_at,
            a.id AS account_id, a.name AS account_name, a.plan, a.created_at AS account_created_at
       FROM api_keys k JOIN accounts a ON a.id = k.account_id
      WHERE k.prefix = $1`,
    [parsed.prefix],
  );
  const row = rows[0];
  if (!row || !apiKeyMatches(key, row.key_hash)) return 'unknown';
  if (row.revoked_at !== null) return 'revoked';
  const now = Date.now();
  if (row.last_used_at === null || now - row.last_used_at.getTime() > LAST_USED_RESOLUTION_MS) {
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
    keyPrefix: row.key_prefix,
  };
}

import type { QueryInterface } from 'sequelize';

/**
 * Dashboard sign-in (src/auth/sessions): a session per sign-in, kept server-side.
 *
 * - `id` is the SHA-256 of the cookie's random token: a leaked table does not hand out sessions.
 * - `api_key_id`: the key the user signed in with. Revoking it ends its sessions (the lookup joins
 *   the key and refuses a revoked one; the revoke also deletes them); deleting it deletes them.
 * - `csrf_token`: the synchronizer token every change made from the pages must carry.
 * - `last_seen_at` moves on use (at minute resolution); idle and absolute expiry are checked in the
 *   lookup, and expired rows are swept on sign-in.
 */
export async function up(q: QueryInterface): Promise<void> {
  await q.sequelize.query(`
CREATE TABLE dashboard_sessions (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  api_key_id TEXT NOT NULL REFERENCES api_keys(id) ON DELETE CASCADE,
  csrf_token TEXT NOT NULL,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  last_seen_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  user_agent TEXT
);
CREATE INDEX dashboard_sessions_api_key ON dashboard_sessions (api_key_id);
CREATE INDEX dashboard_sessions_last_seen ON dashboard_sessions (last_seen_at);
`);
}

export async function down(q: QueryInterface): Promise<void> {
  await q.sequelize.query('DROP TABLE IF EXISTS dashboard_sessions');
}

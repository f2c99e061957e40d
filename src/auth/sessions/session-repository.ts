import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { QueryTypes, type Sequelize } from 'sequelize';
import type { PlanName } from '../../config/plans';
import type { AuthContext } from '../authenticate';

/**
 * Dashboard sessions, kept in PostgreSQL (table `dashboard_sessions`). The browser holds only a
 * random token in an httpOnly cookie; the API key it signed in with never leaves the server after
 * the sign-in form's POST.
 *
 * Expiry (docs/decisions.md, "Dashboard sign-in"): a session unused for SESSION_IDLE_MINUTES ends,
 * and every session ends SESSION_MAX_HOURS after sign-in, used or not. A revoked key ends its
 * sessions: the lookup refuses a session whose key is revoked, and the revoke deletes them.
 */
export const SESSION_IDLE_MINUTES = 30;
export const SESSION_MAX_HOURS = 12;

/** What a page knows of who is signed in. */
export interface DashboardSession extends AuthContext {
  readonly sessionId: string;
  readonly csrfToken: string;
}

export interface NewSession {
  /** The cookie's value: shown to the browser once, stored only hashed. */
  readonly token: string;
  readonly csrfToken: string;
}

const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');
const randomToken = (): string => randomBytes(32).toString('base64url');
/** Tokens are 43 base64url characters; anything else is not looked up. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** Starts a session for a verified key, sweeping the expired ones of every account on the way. */
export async function createSession(sequelize: Sequelize, auth: AuthContext, userAgent: string | undefined): Promise<NewSession> {
  const token = randomToken();
  const csrfToken = randomToken();
  await sequelize.query(
    `WITH swept AS (
       DELETE FROM dashboard_sessions
        WHERE last_seen_at < now() - make_interval(mins => $5) OR created_at < now() - make_interval(hours => $6)
     )
     INSERT INTO dashboard_sessions (id, account_id, api_key_id, csrf_token, user_agent) VALUES ($1, $2, $3, $4, $7)`,
    { bind: [hashToken(token), auth.accountId, auth.keyId, csrfToken, SESSION_IDLE_MINUTES, SESSION_MAX_HOURS, userAgent?.slice(0, 300) ?? null] },
  );
  return { token, csrfToken };
}

interface SessionRow {
  session_id: string;
  csrf_token: string;
  key_id: string;
  key_prefix: string;
  account_id: string;
  account_name: string;
  plan: PlanName;
  account_created_at: Date;
  stale: boolean;
}

/**
 * The live session of a cookie token, or null: unknown, idle too long, too old, or its key revoked.
 * Use is recorded at minute resolution, like an API key's last use, so a page view costs one read.
 */
export async function findSession(sequelize: Sequelize, token: string | undefined): Promise<DashboardSession | null> {
  if (token === undefined || !TOKEN_PATTERN.test(token)) return null;
  const [row] = await sequelize.query<SessionRow>(
    `SELECT s.id AS session_id, s.csrf_token, k.id AS key_id, k.prefix AS key_prefix, a.id AS account_id, a.name AS account_name,
            a.plan, a.created_at AS account_created_at, s.last_seen_at < now() - interval '1 minute' AS stale
       FROM dashboard_sessions s
       JOIN api_keys k ON k.id = s.api_key_id AND k.revoked_at IS NULL
       JOIN accounts a ON a.id = s.account_id
      WHERE s.id = $1
        AND s.last_seen_at >= now() - make_interval(mins => $2)
        AND s.created_at >= now() - make_interval(hours => $3)`,
    { bind: [hashToken(token), SESSION_IDLE_MINUTES, SESSION_MAX_HOURS], type: QueryTypes.SELECT },
  );
  if (row === undefined) return null;
  if (row.stale) await sequelize.query('UPDATE dashboard_sessions SET last_seen_at = now() WHERE id = $1', { bind: [row.session_id] });
  return {
    sessionId: row.session_id,
    csrfToken: row.csrf_token,
    accountId: row.account_id,
    accountName: row.account_name,
    plan: row.plan,
    accountCreatedAt: row.account_created_at,
    keyId: row.key_id,
    keyPrefix: row.key_prefix,
  };
}

/** Sign-out: the session is gone, whatever the browser keeps. */
export async function endSession(sequelize: Sequelize, sessionId: string): Promise<void> {
  await sequelize.query('DELETE FROM dashboard_sessions WHERE id = $1', { bind: [sessionId] });
}

/** Every session signed in with this key (the key was revoked). */
export async function endSessionsOfKey(sequelize: Sequelize, keyId: string): Promise<void> {
  await sequelize.query('DELETE FROM dashboard_sessions WHERE api_key_id = $1', { bind: [keyId] });
}

/** Constant-time comparison of a submitted CSRF token with the session's. */
export function csrfTokenMatches(session: Pick<DashboardSession, 'csrfToken'>, submitted: string | undefined): boolean {
  if (submitted === undefined) return false;
  const a = Buffer.from(session.csrfToken);
  const b = Buffer.from(submitted);
  return a.length === b.length && timingSafeEqual(a, b);
}

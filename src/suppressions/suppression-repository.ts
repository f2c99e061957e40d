import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import type { SuppressionReason } from '../db/models/suppression';

/** Addresses are compared lower-cased and trimmed everywhere (the columns' CHECKs insist). */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * Adds an address to the account's suppression list; the first reason stays. Also stamps the
 * account's lead with that address (unsubscribed or bounced), so lead lists show it.
 */
export async function suppressAddress(
  sequelize: Sequelize,
  tx: Transaction | null,
  accountId: string,
  email: string,
  reason: SuppressionReason,
  sourceEmailId: string | null = null,
): Promise<void> {
  const addr = normalizeEmail(email);
  await sequelize.query(
    `INSERT INTO suppressions (account_id, email, reason, source_email_id) VALUES ($1, $2, $3, $4) ON CONFLICT (account_id, email) DO NOTHING`,
    { bind: [accountId, addr, reason, sourceEmailId], transaction: tx },
  );
  const column = reason === 'hard_bounce' ? 'bounced_at' : 'unsubscribed_at';
  await sequelize.query(`UPDATE leads SET ${column} = COALESCE(${column}, now()), updated_at = now() WHERE account_id = $1 AND email = $2`, {
    bind: [accountId, addr],
    transaction: tx,
  });
}

export async function isSuppressed(sequelize: Sequelize, tx: Transaction | null, accountId: string, email: string): Promise<boolean> {
  const rows = await sequelize.query(`SELECT 1 FROM suppressions WHERE account_id = $1 AND email = $2`, {
    bind: [accountId, normalizeEmail(email)],
    type: QueryTypes.SELECT,
    transaction: tx,
  });
  return rows.length > 0;
}

/** The subset of `emails` that is suppressed for the account, in one query (imports check thousands). */
export async function suppressedAmong(sequelize: Sequelize, tx: Transaction | null, accountId: string, emails: readonly string[]): Promise<Set<string>> {
  if (emails.length === 0) return new Set();
  const rows = await sequelize.query<{ email: string }>(`SELECT email FROM suppressions WHERE account_id = $1 AND email = ANY($2::text[])`, {
    bind: [accountId, emails.map(normalizeEmail)],
    type: QueryTypes.SELECT,
    transaction: tx,
  });
  return new Set(rows.map((r) => r.email));
}

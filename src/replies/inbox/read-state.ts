import type { Sequelize, Transaction } from 'sequelize';

/**
 * Marks a reply read (the first time is kept: reading it again does not move `read_at`) or unread,
 * in the caller's transaction.
 */
export async function setRead(sequelize: Sequelize, tx: Transaction, replyId: string, read: boolean, at: Date): Promise<void> {
  const sql = read ? `UPDATE replies SET read_at = COALESCE(read_at, $2::timestamptz) WHERE id = $1` : `UPDATE replies SET read_at = NULL WHERE id = $1`;
  await sequelize.query(sql, { bind: read ? [replyId, at.toISOString()] : [replyId], transaction: tx });
}

/**
 * Marks the account's replies among `replyIds` read, in one statement (a thread opened on the
 * dashboard reads all of its replies at once); those read before keep their first `read_at`.
 */
export async function markRead(sequelize: Sequelize, accountId: string, replyIds: readonly string[], at: Date): Promise<void> {
  if (replyIds.length === 0) return;
  await sequelize.query(`UPDATE replies SET read_at = $3::timestamptz WHERE account_id = $1 AND id = ANY($2::text[]) AND read_at IS NULL`, {
    bind: [accountId, [...replyIds], at.toISOString()],
  });
}

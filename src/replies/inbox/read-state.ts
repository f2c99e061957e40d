import type { Sequelize, Transaction } from 'sequelize';

/**
 * Marks a reply read (the first time is kept: reading it again does not move `read_at`) or unread,
 * in the caller's transaction.
 */
export async function setRead(sequelize: Sequelize, tx: Transaction, replyId: string, read: boolean, at: Date): Promise<void> {
  const sql = read ? `UPDATE replies SET read_at = COALESCE(read_at, $2::timestamptz) WHERE id = $1` : `UPDATE replies SET read_at = NULL WHERE id = $1`;
  await sequelize.query(sql, { bind: read ? [replyId, at.toISOString()] : [replyId], transaction: tx });
}

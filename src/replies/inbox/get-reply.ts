import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import { INBOX_COLUMNS, INBOX_FROM, inboxReply, type InboxReplyDetail, type InboxRow } from './inbox-item';

/** The account's reply with its full text; null when the account has no such reply. */
export async function getReply(sequelize: Sequelize, accountId: string, replyId: string, tx: Transaction | null = null): Promise<InboxReplyDetail | null> {
  const rows = await sequelize.query<InboxRow & { body_text: string }>(
    `SELECT ${INBOX_COLUMNS}, r.body_text FROM ${INBOX_FROM} WHERE r.id = $1 AND r.account_id = $2`,
    { bind: [replyId, accountId], type: QueryTypes.SELECT, transaction: tx },
  );
  const r = rows[0];
  return r === undefined ? null : { ...inboxReply(r), bodyText: r.body_text };
}

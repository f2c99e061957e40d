import { QueryTypes, type Sequelize } from 'sequelize';
import { inboxWhere, type InboxFilters } from './inbox-filters';
import { INBOX_COLUMNS, INBOX_FROM, inboxReply, type InboxReply, type InboxRow } from './inbox-item';

export interface InboxQuery extends InboxFilters {
  /** From 1. */
  readonly page: number;
  readonly perPage: number;
  /** Unread replies before read ones (the dashboard's order); each part newest first. */
  readonly unreadFirst?: boolean;
}

export interface InboxPage {
  readonly replies: InboxReply[];
  /** Replies matching every filter, over all pages. */
  readonly total: number;
  /** Unread replies matching the other filters (the read state left out). */
  readonly unread: number;
}

/**
 * One page of the account's inbox: every inbound message across its campaigns (and those matched
 * to no campaign), newest first (received_at, then id, so equal instants keep one order).
 */
export async function listReplies(sequelize: Sequelize, accountId: string, q: InboxQuery): Promise<InboxPage> {
  const page = inboxWhere(accountId, q, true);
  const counts = inboxWhere(accountId, q, false);
  const order = q.unreadFirst === true ? '(r.read_at IS NOT NULL), r.received_at DESC, r.id DESC' : 'r.received_at DESC, r.id DESC';
  const limit = page.bind.length + 1;
  const total =
    q.unread === undefined ? 'count(*)' : q.unread ? 'count(*) FILTER (WHERE r.read_at IS NULL)' : 'count(*) FILTER (WHERE r.read_at IS NOT NULL)';
  const [rows, counted] = await Promise.all([
    sequelize.query<InboxRow>(`SELECT ${INBOX_COLUMNS} FROM ${INBOX_FROM} WHERE ${page.sql} ORDER BY ${order} LIMIT $${limit} OFFSET $${limit + 1}`, {
      bind: [...page.bind, q.perPage, (q.page - 1) * q.perPage],
      type: QueryTypes.SELECT,
    }),
    // The mailbox filter needs the answered email; the count joins only that.
    sequelize.query<{ total: number; unread: number }>(
      `SELECT ${total}::int AS total, count(*) FILTER (WHERE r.read_at IS NULL)::int AS unread
         FROM replies r LEFT JOIN emails e ON e.id = r.email_id WHERE ${counts.sql}`,
      { bind: counts.bind, type: QueryTypes.SELECT },
    ),
  ]);
  return { replies: rows.map(inboxReply), total: counted[0]!.total, unread: counted[0]!.unread };
}

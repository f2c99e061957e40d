import type { ReplyCategory, ReplyKind } from '../../db/models/reply';

/** What narrows the inbox; every filter given must match. */
export interface InboxFilters {
  readonly campaignId?: string;
  /** The effective category (the user's label when there is one). */
  readonly category?: ReplyCategory;
  /** true: only unread replies; false: only read ones. */
  readonly unread?: boolean;
  /** The mailbox of the sent email the reply answers. */
  readonly mailboxId?: string;
  /**
   * Left out: replies and automatic answers (the conversations). Bounces are delivery reports, not
   * conversations: listed only when asked for by name.
   */
  readonly kind?: ReplyKind;
  /** Received at or after. */
  readonly receivedFrom?: Date;
  /** Received strictly before. */
  readonly receivedBefore?: Date;
}

export interface InboxWhere {
  /** SQL conditions over `replies r` and `emails e`, joined with AND. */
  readonly sql: string;
  readonly bind: unknown[];
}

/**
 * The WHERE clause of the account's inbox under `filters`, leaving out the read state when
 * `withReadState` is false (the unread count is over the other filters). Values are bound, never
 * spliced.
 */
export function inboxWhere(accountId: string, filters: InboxFilters, withReadState: boolean): InboxWhere {
  const bind: unknown[] = [accountId];
  const conditions = ['r.account_id = $1'];
  const add = (sql: (n: string) => string, value: unknown): void => {
    bind.push(value);
    conditions.push(sql(`$${bind.length}`));
  };
  if (filters.kind === undefined) conditions.push(`r.kind IN ('reply', 'auto_reply')`);
  else add((n) => `r.kind = ${n}`, filters.kind);
  if (filters.campaignId !== undefined) add((n) => `r.campaign_id = ${n}`, filters.campaignId);
  if (filters.category !== undefined) add((n) => `r.category = ${n}`, filters.category);
  if (filters.mailboxId !== undefined) add((n) => `e.mailbox_id = ${n}`, filters.mailboxId);
  if (filters.receivedFrom !== undefined) add((n) => `r.received_at >= ${n}::timestamptz`, filters.receivedFrom.toISOString());
  if (filters.receivedBefore !== undefined) add((n) => `r.received_at < ${n}::timestamptz`, filters.receivedBefore.toISOString());
  if (withReadState && filters.unread !== undefined) conditions.push(filters.unread ? 'r.read_at IS NULL' : 'r.read_at IS NOT NULL');
  return { sql: conditions.join(' AND '), bind };
}

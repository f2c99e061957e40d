import { QueryTypes, type Sequelize } from 'sequelize';
import { listMailboxes } from '../../../sending/mailbox-repository';

/** What the inbox's filter menus offer: the account's campaigns and its active mailboxes. */
export interface InboxChoices {
  readonly campaigns: ReadonlyArray<{ readonly id: string; readonly name: string }>;
  readonly mailboxes: ReadonlyArray<{ readonly id: string; readonly fromEmail: string }>;
}

/** The newest campaigns first; an account with more than this many filters the rest by link (campaign page). */
const MAX_CAMPAIGNS = 200;

export async function inboxChoices(sequelize: Sequelize, accountId: string): Promise<InboxChoices> {
  const [campaigns, mailboxes] = await Promise.all([
    sequelize.query<{ id: string; name: string }>(
      `SELECT id, coalesce(nullif(name, ''), id) AS name FROM campaigns WHERE account_id = $1 ORDER BY created_at DESC, id LIMIT ${MAX_CAMPAIGNS}`,
      { bind: [accountId], type: QueryTypes.SELECT },
    ),
    listMailboxes(sequelize, accountId),
  ]);
  return { campaigns, mailboxes: mailboxes.map((m) => ({ id: m.id, fromEmail: m.fromEmail })) };
}

import type { QueryInterface } from 'sequelize';

/**
 * The mailboxes a campaign sends from (issue 29 point 4): `mailbox_ids`, ids of the account's
 * mailboxes, or NULL for every active mailbox of the account (what every campaign did before, and
 * still does without the member). No foreign key: an array cannot carry one, and a mailbox is
 * never deleted, only deactivated (its id stays named, and the campaign waits while none of its
 * set is active). The API checks each id against the account's active mailboxes when it is set;
 * the CHECK keeps an empty set (which would mean "send from nothing") out of the table.
 */
export async function up(q: QueryInterface): Promise<void> {
  await q.sequelize.query(`
ALTER TABLE campaigns
  ADD COLUMN mailbox_ids TEXT[] NULL,
  ADD CONSTRAINT campaigns_mailbox_ids_check CHECK (mailbox_ids IS NULL OR cardinality(mailbox_ids) BETWEEN 1 AND 50)`);
}

export async function down(q: QueryInterface): Promise<void> {
  await q.sequelize.query(`ALTER TABLE campaigns DROP CONSTRAINT IF EXISTS campaigns_mailbox_ids_check, DROP COLUMN IF EXISTS mailbox_ids`);
}

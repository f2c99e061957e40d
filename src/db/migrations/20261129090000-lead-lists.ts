import type { QueryInterface } from 'sequelize';

/**
 * Lead lists and a lead's state set from outside (src/leads/lists, src/leads/lead-status.ts,
 * src/leads/erase-lead.ts):
 *
 * - `lead_lists`: named groups of an account's leads; a name is taken once per account whatever
 *   its case (`lead_lists_account_name`), so "Q3 prospects" and "q3 prospects" cannot both exist.
 * - `lead_list_members`: which leads a list holds. A lead may be in several lists; deleting a list
 *   or a lead deletes its memberships, never the other side. `account_id` is copied from the list
 *   so membership reads stay scoped without a join. Looked up by lead (`lead_list_members_lead`)
 *   when a lead is erased or its lists are shown.
 * - `leads.user_status`: what the user decided about the person (interested, not_interested,
 *   do_not_contact); null when nothing was decided.
 * - `leads.erased_at`: the lead was erased on request (a tombstone kept so its emails stay
 *   counted); such a row holds no personal data and is never listed, found or sent to.
 */
export async function up(q: QueryInterface): Promise<void> {
  await q.sequelize.query(`
CREATE TABLE lead_lists (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  name TEXT NOT NULL CHECK (btrim(name) <> ''),
  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX lead_lists_account_name ON lead_lists (account_id, lower(name));

CREATE TABLE lead_list_members (
  list_id TEXT NOT NULL REFERENCES lead_lists(id) ON DELETE CASCADE,
  lead_id TEXT NOT NULL REFERENCES leads(id) ON DELETE CASCADE,
  account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  added_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  PRIMARY KEY (list_id, lead_id)
);
CREATE INDEX lead_list_members_lead ON lead_list_members (lead_id);

ALTER TABLE leads
  ADD COLUMN user_status TEXT CHECK (user_status IN ('interested', 'not_interested', 'do_not_contact')),
  ADD COLUMN erased_at TIMESTAMPTZ;
`);
}

export async function down(q: QueryInterface): Promise<void> {
  await q.sequelize.query(`
DROP TABLE IF EXISTS lead_list_members, lead_lists;
ALTER TABLE leads DROP COLUMN IF EXISTS user_status, DROP COLUMN IF EXISTS erased_at;
`);
}

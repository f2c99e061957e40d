import { QueryTypes, type QueryInterface } from 'sequelize';
import { refreshLeadProfiles } from '../../leads/profile-refresh';

/**
 * Leads read in more ways (audiences that find everyone they name):
 * - `title_keys`: every canonical key a title names, so 'CTO / Co-Founder' is found as a CTO and
 *   as a founder (`title_key` keeps the main one, for display); matched with `&&`, served by a GIN
 *   index led by the account (btree_gin, a trusted contrib extension like pg_trgm; where it is not
 *   installed, a GIN index on the keys alone, which the planner combines with the account's rows);
 * - `state_code`: the state or province (ISO 3166-2, 'US-TX'), from the lead's state field or its
 *   city, for audiences such as "in Texas" or "West Coast".
 * The vocabularies changed with them (titles in ten more languages, compound titles, two roles in
 * one title, cities under one name whatever spelling a lead has): every stored profile is computed
 * again, in keyset batches, before the new indexes exist. The old title_key index goes: no
 * audience reads that column any more.
 */
export async function up(q: QueryInterface): Promise<void> {
  await q.sequelize.query(`
ALTER TABLE leads
  ADD COLUMN title_keys TEXT[],
  ADD COLUMN state_code TEXT CHECK (state_code ~ '^[A-Z]{2}-[A-Z0-9]{1,3}$');
DROP INDEX IF EXISTS leads_account_title_key;
`);
  await refreshLeadProfiles(q.sequelize);
  await q.sequelize.query('CREATE INDEX leads_account_state ON leads (account_id, state_code)');
  if (await extensionAvailable(q, 'btree_gin')) {
    await q.sequelize.query('CREATE EXTENSION IF NOT EXISTS btree_gin');
    await q.sequelize.query('CREATE INDEX leads_account_title_keys ON leads USING gin (account_id, title_keys)');
  } else {
    await q.sequelize.query('CREATE INDEX leads_account_title_keys ON leads USING gin (title_keys)');
  }
}

async function extensionAvailable(q: QueryInterface, name: string): Promise<boolean> {
  const rows = await q.sequelize.query<{ n: string }>('SELECT count(*) AS n FROM pg_available_extensions WHERE name = $1', { bind: [name], type: QueryTypes.SELECT });
  return Number(rows[0]?.n ?? 0) > 0;
}

// btree_gin stays installed: an extension belongs to the database, and something else may use it.
export async function down(q: QueryInterface): Promise<void> {
  await q.sequelize.query(`
DROP INDEX IF EXISTS leads_account_state;
DROP INDEX IF EXISTS leads_account_title_keys;
ALTER TABLE leads DROP COLUMN IF EXISTS state_code, DROP COLUMN IF EXISTS title_keys;
CREATE INDEX IF NOT EXISTS leads_account_title_key ON leads (account_id, title_key);
`);
}

import { QueryTypes, type QueryInterface } from 'sequelize';
import { refreshLeadProfiles } from '../../leads/profile-refresh';

/**
 * The lead profile: normalised columns computed from a lead's raw fields (src/leads/profile), the
 * only columns the audience matcher (src/leads/criteria-sql.ts) reads, and the indexes it uses.
 *
 * Raw columns: imports and the provider carry a seniority, departments and a company size that
 * the lead had no field for. They are stored as given (`*_raw`) next to the computed columns, so
 * every profile can be computed again from the row alone when the vocabularies change (see
 * refreshLeadProfiles). `company_size` is the number the matcher compares; `company_size_raw` the
 * text it came from ("51-200").
 *
 * `keyword_text` holds what keywords are looked for in: title, company and industry, each as
 * given and folded (profile-columns.ts), computed in the application because folding is.
 *
 * Indexes, all led by account_id because every query is scoped to one account: country (and city
 * within it), industry, seniority and department pairs, title key; and a trigram index on
 * keyword_text so `ILIKE '%word%'` need not read every lead of a large account. pg_trgm ships
 * with PostgreSQL (contrib) and is a trusted extension, so the database owner can create it;
 * where it is not installed the index is left out and keyword matches read the account's rows
 * through the other indexes (what the planner does anyway below some ten thousand leads).
 *
 * The same migration fills the columns for the rows already stored, in keyset batches (a
 * migration that runs application code: it needs the vocabularies of this release).
 */
const COLUMNS = `
ALTER TABLE leads
  ADD COLUMN seniority_raw TEXT,
  ADD COLUMN department_raw TEXT,
  ADD COLUMN company_size_raw TEXT,
  ADD COLUMN title_key TEXT,
  ADD COLUMN title_norm TEXT,
  ADD COLUMN seniority TEXT,
  ADD COLUMN department TEXT,
  ADD COLUMN country_code TEXT CHECK (country_code ~ '^[A-Z]{2}$'),
  ADD COLUMN city_norm TEXT,
  ADD COLUMN industry_id TEXT,
  ADD COLUMN company_size INTEGER CHECK (company_size >= 0),
  ADD COLUMN keyword_text TEXT;
`;

const INDEXES = `
CREATE INDEX leads_account_country_city ON leads (account_id, country_code, city_norm);
CREATE INDEX leads_account_industry ON leads (account_id, industry_id);
CREATE INDEX leads_account_seniority_department ON leads (account_id, seniority, department);
CREATE INDEX leads_account_title_key ON leads (account_id, title_key);
`;

const KEYWORD_INDEX = `
CREATE INDEX leads_keywords_trgm ON leads USING gin (keyword_text gin_trgm_ops);
`;

async function trigramAvailable(q: QueryInterface): Promise<boolean> {
  const rows = await q.sequelize.query<{ n: string }>(`SELECT count(*) AS n FROM pg_available_extensions WHERE name = 'pg_trgm'`, { type: QueryTypes.SELECT });
  return Number(rows[0]?.n ?? 0) > 0;
}

export async function up(q: QueryInterface): Promise<void> {
  await q.sequelize.query(COLUMNS);
  // Filled before the indexes exist: the updates then maintain no index entries. Only this
  // migration's columns: later ones add theirs and fill them.
  await refreshLeadProfiles(q.sequelize, { columns: ['title_key', 'title_norm', 'seniority', 'department', 'country_code', 'city_norm', 'industry_id', 'company_size', 'keyword_text'] });
  await q.sequelize.query(INDEXES);
  if (await trigramAvailable(q)) {
    await q.sequelize.query('CREATE EXTENSION IF NOT EXISTS pg_trgm');
    await q.sequelize.query(KEYWORD_INDEX);
  }
}

// pg_trgm stays installed: an extension belongs to the database, and something else may use it.
export async function down(q: QueryInterface): Promise<void> {
  await q.sequelize.query(`
DROP INDEX IF EXISTS leads_keywords_trgm;
DROP INDEX IF EXISTS leads_account_title_key;
DROP INDEX IF EXISTS leads_account_seniority_department;
DROP INDEX IF EXISTS leads_account_industry;
DROP INDEX IF EXISTS leads_account_country_city;
ALTER TABLE leads
  DROP COLUMN IF EXISTS keyword_text,
  DROP COLUMN IF EXISTS company_size,
  DROP COLUMN IF EXISTS industry_id,
  DROP COLUMN IF EXISTS city_norm,
  DROP COLUMN IF EXISTS country_code,
  DROP COLUMN IF EXISTS department,
  DROP COLUMN IF EXISTS seniority,
  DROP COLUMN IF EXISTS title_norm,
  DROP COLUMN IF EXISTS title_key,
  DROP COLUMN IF EXISTS company_size_raw,
  DROP COLUMN IF EXISTS department_raw,
  DROP COLUMN IF EXISTS seniority_raw;
`);
}

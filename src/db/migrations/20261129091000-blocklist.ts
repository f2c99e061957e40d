import type { QueryInterface } from 'sequelize';

/**
 * The account's blocklist (issue 27 point 5, docs/blocklist.md): addresses and domains no
 * campaign of the account may email, beside the suppression list (unsubscribes, bounces,
 * complaints), which stays as it is.
 *
 * - `blocklist_entries`: one row per address (lower case) or domain (lower case, punycode, no
 *   leading or trailing dot), unique per account and kind, so adding an entry twice finds the first.
 *   Ids are made here (`blk_` and a random UUID's hex) so a million-row import sends no ids.
 * - `email_domain_suffixes(email)`: the domain of an address and every parent of it
 *   ('a@x.b.example.com' -> {x.b.example.com, b.example.com, example.com, com}). A domain entry
 *   covers its subdomains through `value = ANY(email_domain_suffixes(email))`, which the unique
 *   index answers with one probe per suffix instead of a LIKE over every domain entry. IMMUTABLE
 *   (it reads nothing but its argument) so the planner may fold it for a constant address.
 */
export async function up(q: QueryInterface): Promise<void> {
  await q.sequelize.query(`
CREATE TABLE blocklist_entries (
  id TEXT PRIMARY KEY DEFAULT ('blk_' || replace(gen_random_uuid()::text, '-', '')),
  account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  kind TEXT NOT NULL CHECK (kind IN ('address', 'domain')),
  value TEXT NOT NULL CHECK (
    value = lower(value) AND length(value) BETWEEN 3 AND 254
    AND CASE kind WHEN 'address' THEN value LIKE '%_@_%' ELSE value NOT LIKE '%@%' AND value LIKE '%_._%' AND value NOT LIKE '.%' AND value NOT LIKE '%.' END
  ),
  reason TEXT CHECK (length(reason) <= 500),
  source TEXT NOT NULL CHECK (source IN ('user', 'import', 'do_not_contact')),
  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  UNIQUE (account_id, kind, value)
);
CREATE INDEX blocklist_entries_account_created ON blocklist_entries (account_id, created_at DESC, value);

CREATE FUNCTION email_domain_suffixes(email text) RETURNS text[]
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $fn$
DECLARE
  domain text := btrim(lower(substring(email FROM '([^@]*)$')), '.');
  suffixes text[] := '{}';
  dot int;
BEGIN
  -- A loop, not a set-returning query: called once per candidate and per email reserved, the
  -- query form cost ten times more (it cannot be inlined).
  WHILE domain <> '' LOOP
    suffixes := suffixes || domain;
    dot := strpos(domain, '.');
    EXIT WHEN dot = 0;
    domain := substr(domain, dot + 1);
  END LOOP;
  RETURN suffixes;
END
$fn$;
`);
}

export async function down(q: QueryInterface): Promise<void> {
  await q.sequelize.query('DROP FUNCTION IF EXISTS email_domain_suffixes(text); DROP TABLE IF EXISTS blocklist_entries;');
}

import type { QueryInterface } from 'sequelize';

/**
 * Address verification of leads (issue 27, docs/verification.md): the verdict of the last check
 * (`verification`: valid, risky, invalid or unknown; NULL when never checked), each check's result
 * and detail (`verification_checks`: {syntax, role, disposable, mailDomain}, each {result, detail}),
 * and when it ran (`verified_at`, which decides whether a lead is checked again before its first
 * email). No index on the verdict: nothing reads leads by it (planning reads it per candidate), and
 * one would make every verdict written at import an update of every index of the row (no HOT update).
 */
export async function up(q: QueryInterface): Promise<void> {
  await q.sequelize.query(`
ALTER TABLE leads
  ADD COLUMN verification TEXT NULL CHECK (verification IN ('valid', 'risky', 'invalid', 'unknown')),
  ADD COLUMN verification_checks JSONB NULL,
  ADD COLUMN verified_at TIMESTAMPTZ NULL;
`);
}

export async function down(q: QueryInterface): Promise<void> {
  await q.sequelize.query(`
ALTER TABLE leads DROP COLUMN IF EXISTS verified_at, DROP COLUMN IF EXISTS verification_checks, DROP COLUMN IF EXISTS verification;
`);
}

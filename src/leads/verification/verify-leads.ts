/**
 * Verifying stored leads: at import (the new leads of an upload), on demand (POST
 * /v1/leads/:id/verify) and before a lead's first email when its last check is stale. The checks
 * run outside any transaction (DNS may take seconds); the results are then written in one statement.
 */
import { QueryTypes, type Sequelize } from 'sequelize';
import type { Config } from '../../config/config';
import { mailDomainCheckerFor, type MailDomainChecker } from './mail-domain-check';
import type { AddressVerification, Verdict } from './types';
import { verifyAddresses, type VerifyOptions } from './verify-address';

export interface VerificationDeps {
  readonly sequelize: Sequelize;
  readonly config: Pick<Config, 'emailVerification'>;
  /** Defaults to the process's checker for `config` (its DNS cache is shared by every caller). */
  readonly mailDomains?: MailDomainChecker;
}

/** A check older than this is done again before the lead's first email. */
export const STALE_AFTER_MS = 7 * 24 * 3600_000;

/** Leads per UPDATE: one jsonb array each, so a statement stays a few MB at most. */
const LEADS_PER_UPDATE = 5000;

const UPDATE_SQL = `
UPDATE leads AS l
   SET verification = v.status, verification_checks = v.checks, verified_at = now()
  FROM jsonb_to_recordset($2::jsonb) AS v(id text, status text, checks jsonb)
 WHERE l.account_id = $1 AND l.id = v.id`;

/**
 * Checks the account's leads with these ids (ids of other accounts, or of no lead, are passed over)
 * and stores each verdict and its checks. Returns the verdict of each lead checked.
 */
export async function verifyLeads(deps: VerificationDeps, accountId: string, leadIds: readonly string[], opts: VerifyOptions = {}): Promise<Map<string, AddressVerification>> {
  if (leadIds.length === 0) return new Map();
  const leads = await deps.sequelize.query<{ id: string; email: string }>(`SELECT id, email FROM leads WHERE account_id = $1 AND id = ANY($2::text[])`, {
    bind: [accountId, [...new Set(leadIds)]],
    type: QueryTypes.SELECT,
  });
  const mailDomains = deps.mailDomains ?? mailDomainCheckerFor(deps.config);
  const results = await verifyAddresses(
    mailDomains,
    leads.map((l) => l.email),
    opts,
  );
  const byId = new Map(leads.map((l, i) => [l.id, results[i]!] as const));
  const rows = [...byId].map(([id, v]) => ({ id, status: v.status, checks: v.checks }));
  for (let i = 0; i < rows.length; i += LEADS_PER_UPDATE) {
    await deps.sequelize.query(UPDATE_SQL, { bind: [accountId, JSON.stringify(rows.slice(i, i + LEADS_PER_UPDATE))] });
  }
  return byId;
}

/**
 * The verdict of each of these leads, checking again those never checked or checked longer than
 * `maxAgeMs` ago (and storing the new results). For the planner before a lead's first email: a
 * domain that lost its mail server since the import is found before it bounces.
 */
export async function reverifyIfStale(deps: VerificationDeps, accountId: string, leadIds: readonly string[], maxAgeMs: number = STALE_AFTER_MS): Promise<Map<string, Verdict>> {
  if (leadIds.length === 0) return new Map();
  const rows = await deps.sequelize.query<{ id: string; verification: Verdict | null; stale: boolean }>(
    `SELECT id, verification, (verification IS NULL OR verified_at IS NULL OR verified_at < now() - make_interval(secs => $3)) AS stale
       FROM leads WHERE account_id = $1 AND id = ANY($2::text[])`,
    { bind: [accountId, [...new Set(leadIds)], maxAgeMs / 1000], type: QueryTypes.SELECT },
  );
  const verdicts = new Map<string, Verdict>();
  for (const r of rows) if (!r.stale && r.verification !== null) verdicts.set(r.id, r.verification);
  const fresh = await verifyLeads(deps, accountId, rows.filter((r) => r.stale).map((r) => r.id));
  for (const [id, v] of fresh) verdicts.set(id, v.status);
  return verdicts;
}

/** How many of these verifications came to each verdict. */
export function countVerdicts(verifications: Iterable<AddressVerification>): Record<Verdict, number> {
  const counts: Record<Verdict, number> = { valid: 0, risky: 0, invalid: 0, unknown: 0 };
  for (const v of verifications) counts[v.status]++;
  return counts;
}

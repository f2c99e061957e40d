/**
 * The leads of an account: reads (one, a page, a stored identity), the searches over stored leads
 * (the audience matcher and the older term search), and the writes of imports and provider results,
 * which store each lead's profile with it. With profile-refresh.ts (which recomputes profiles), the
 * one module that touches the leads table.
 */
import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import { containsPattern, criteriaWhere } from './criteria-sql';
import type { EnrichIdentity } from './enrich-identity';
import { toLeadView, LEAD_COLUMNS, type LeadRow, type LeadView, type LeadSourceName } from './lead-view';
import { newId } from '../accounts/ids';
import type { LeadInput } from './fields';
import type { LeadCriteria } from './profile/types';
import { PROFILE_COLUMNS, PROFILE_COLUMN_TYPES, RAW_PROFILE_COLUMNS, profileColumnSql, profileSourceOfRow, profileValues, sameValues, type ProfileSource, type ProfileValue, type RawProfileRow } from './profile-columns';
import { writeProfiles } from './profile-refresh';

/** Reads of an account's stored leads. Every query is scoped by account: ids of others are never found. */

export async function getLead(sequelize: Sequelize, accountId: string, id: string): Promise<LeadView | null> {
  const rows = await sequelize.query<LeadRow>(`SELECT ${LEAD_COLUMNS} FROM leads l WHERE l.account_id = $1 AND l.id = $2 AND l.erased_at IS NULL`, {
    bind: [accountId, id],
    type: QueryTypes.SELECT,
  });
  return rows[0] === undefined ? null : toLeadView(rows[0]);
}

/** One page of the account's leads, oldest first and by address within one import (leads of one import share its time). */
export async function listLeads(sequelize: Sequelize, accountId: string, page: number, perPage: number): Promise<{ leads: LeadView[]; total: number }> {
  const [rows, count] = await Promise.all([
    sequelize.query<LeadRow>(`SELECT ${LEAD_COLUMNS} FROM leads l WHERE l.account_id = $1 AND l.erased_at IS NULL ORDER BY l.created_at, l.email LIMIT $2 OFFSET $3`, {
      bind: [accountId, perPage, (page - 1) * perPage],
      type: QueryTypes.SELECT,
    }),
    sequelize.query<{ n: string }>(`SELECT count(*) AS n FROM leads WHERE account_id = $1 AND erased_at IS NULL`, { bind: [accountId], type: QueryTypes.SELECT }),
  ]);
  return { leads: rows.map(toLeadView), total: Number(count[0]?.n ?? 0) };
}

/**
 * The stored lead an enrichment request names, for accounts without a provider key: by address,
 * by name at the company domain (case-insensitive), or by LinkedIn profile (ignoring the scheme,
 * `www.` and a trailing slash). The oldest wins when a name matches several.
 */
export async function findStoredLead(sequelize: Sequelize, accountId: string, who: EnrichIdentity): Promise<LeadView | null> {
  let where: string;
  let bind: string[];
  switch (who.kind) {
    case 'email':
      where = 'l.email = $2';
      bind = [who.email];
      break;
    case 'name':
      where = 'lower(l.first_name) = lower($2) AND lower(l.last_name) = lower($3) AND l.company_domain = $4';
      bind = [who.firstName, who.lastName, who.domain];
      break;
    case 'linkedin': {
      const canonical = (col: string) => `regexp_replace(lower(${col}), '^https?://(www\\.)?|/+$', '', 'g')`;
      where = `${canonical('l.linkedin_url')} = ${canonical('$2')}`;
      bind = [who.linkedinUrl];
      break;
    }
  }
  const rows = await sequelize.query<LeadRow>(`SELECT ${LEAD_COLUMNS} FROM leads l WHERE l.account_id = $1 AND l.erased_at IS NULL AND ${where} ORDER BY l.created_at, l.email LIMIT 1`, {
    bind: [accountId, ...bind],
    type: QueryTypes.SELECT,
  });
  return rows[0] === undefined ? null : toLeadView(rows[0]);
}

/**
 * The filters of a lead search (the spec's `person_titles`, `organization_locations`,
 * `organization_industries`). Within a filter any term may match; every filter given must match.
 */
export interface LeadFilters {
  readonly personTitles?: readonly string[];
  readonly organizationLocations?: readonly string[];
  readonly organizationIndustries?: readonly string[];
}

export { containsPattern };

/**
 * A POSIX regex matching `term` as a whole word sequence ("US" matches "Austin, TX, US" but not
 * "Austin"; "new york" matches "New York, NY, United States"), its regex characters escaped.
 */
export function wordsPattern(term: string): string {
  return `(^|[^[:alnum:]])${term.replace(/[.*+?^${}()|[\]\\]/g, (c) => `\\${c}`)}($|[^[:alnum:]])`;
}

const terms = (list: readonly string[] | undefined): string[] | null => {
  const cleaned = (list ?? []).map((t) => t.trim()).filter((t) => t !== '');
  return cleaned.length === 0 ? null : cleaned;
};

export interface StoreSearchOptions {
  /** Leave out leads that cannot be written to: suppressed, bounced or unsubscribed. */
  readonly reachableOnly?: boolean;
  /** Leave out leads this campaign has already emailed (or is emailing). */
  readonly notInCampaign?: string;
  /** Leave out leads this campaign has enrolled, in any state (skipped ones are not offered again). */
  readonly notEnrolledIn?: string;
  /** Only members of these lead lists (a campaign's sources). */
  readonly inLists?: readonly string[];
}

/**
 * The WHERE clause of a store search and its bind values ($1 is the account). A title matches when
 * it contains a term; an industry likewise; a location term matches when it appears as whole words
 * in the lead's "city, state, country". All case-insensitive, all in SQL.
 */
export function storeSearchWhere(accountId: string, filters: LeadFilters, opts: StoreSearchOptions = {}): { sql: string; bind: unknown[] } {
  const bind: unknown[] = [accountId];
  const clauses = ['l.account_id = $1', 'l.erased_at IS NULL'];
  const titles = terms(filters.personTitles);
  if (titles) {
    bind.push(titles.map(containsPattern));
    clauses.push(`l.title ILIKE ANY($${bind.length}::text[])`);
  }
  const locations = terms(filters.organizationLocations);
  if (locations) {
    bind.push(locations.map(wordsPattern));
    clauses.push(`concat_ws(', ', l.city, l.state, l.country) ~* ANY($${bind.length}::text[])`);
  }
  const industries = terms(filters.organizationIndustries);
  if (industries) {
    bind.push(industries.map(containsPattern));
    clauses.push(`l.industry ILIKE ANY($${bind.length}::text[])`);
  }
  if (opts.reachableOnly) {
    clauses.push('l.bounced_at IS NULL AND l.unsubscribed_at IS NULL AND l.erased_at IS NULL');
    clauses.push('NOT EXISTS (SELECT 1 FROM suppressions s WHERE s.account_id = l.account_id AND s.email = l.email)');
  }
  if (opts.notInCampaign !== undefined) {
    bind.push(opts.notInCampaign);
    clauses.push(`NOT EXISTS (SELECT 1 FROM emails e WHERE e.campaign_id = $${bind.length} AND e.lead_id = l.id)`);
  }
  if (opts.notEnrolledIn !== undefined) {
    bind.push(opts.notEnrolledIn);
    clauses.push(`NOT EXISTS (SELECT 1 FROM campaign_enrolments ce WHERE ce.campaign_id = $${bind.length} AND ce.lead_id = l.id)`);
  }
  if (opts.inLists !== undefined && opts.inLists.length > 0) {
    bind.push(opts.inLists);
    clauses.push(`EXISTS (SELECT 1 FROM lead_list_members m WHERE m.list_id = ANY($${bind.length}::text[]) AND m.lead_id = l.id)`);
  }
  return { sql: clauses.join(' AND '), bind };
}

/** Leads that can be written to: not bounced, not unsubscribed, not on the suppression list. */
const REACHABLE =
  'l.bounced_at IS NULL AND l.unsubscribed_at IS NULL AND l.erased_at IS NULL AND NOT EXISTS (SELECT 1 FROM suppressions s WHERE s.account_id = l.account_id AND s.email = l.email)';

export interface MatchOptions {
  /** Leave out leads that cannot be written to: suppressed, bounced or unsubscribed. */
  readonly reachableOnly?: boolean;
  /** Only members of these lead lists (a campaign's sources; none or empty: every lead of the account). */
  readonly inLists?: readonly string[];
}

/** `l.account_id = $1 AND <criteria>`, with its bind values. */
function matchWhere(accountId: string, criteria: LeadCriteria, opts: MatchOptions): { sql: string; bind: unknown[] } {
  const where = criteriaWhere(criteria, 2);
  const bind: unknown[] = [accountId, ...where.bind];
  let sql = `l.account_id = $1 AND l.erased_at IS NULL AND ${where.sql}${opts.reachableOnly === true ? ` AND ${REACHABLE}` : ''}`;
  if (opts.inLists !== undefined && opts.inLists.length > 0) {
    bind.push(opts.inLists);
    sql += ` AND EXISTS (SELECT 1 FROM lead_list_members m WHERE m.list_id = ANY($${bind.length}::text[]) AND m.lead_id = l.id)`;
  }
  return { sql, bind };
}

/** How many of the account's leads meet the criteria: one count over the matcher's query. */
export async function countMatchingLeads(sequelize: Sequelize, accountId: string, criteria: LeadCriteria, opts: MatchOptions = {}): Promise<number> {
  const where = matchWhere(accountId, criteria, opts);
  const rows = await sequelize.query<{ n: string }>(`SELECT count(*) AS n FROM leads l WHERE ${where.sql}`, { bind: where.bind, type: QueryTypes.SELECT });
  return Number(rows[0]?.n ?? 0);
}

export interface FindMatchingOptions extends MatchOptions {
  /** At most this many leads. */
  readonly limit: number;
  /** Leads not to return (already chosen, already emailed). */
  readonly excludeIds?: readonly string[];
  /** Only leads whose id sorts after this one: the next page of an id-ordered walk. */
  readonly afterId?: string;
}

/**
 * The account's leads that meet the criteria, in id order (keyset pages: pass the last id as
 * `afterId` for the next page). One statement, whatever the criteria.
 */
export async function findMatchingLeads(sequelize: Sequelize, accountId: string, criteria: LeadCriteria, opts: FindMatchingOptions): Promise<LeadView[]> {
  const where = matchWhere(accountId, criteria, opts);
  const bind = [...where.bind];
  let sql = where.sql;
  if (opts.excludeIds !== undefined && opts.excludeIds.length > 0) {
    bind.push([...opts.excludeIds]);
    sql += ` AND l.id <> ALL($${bind.length}::text[])`;
  }
  if (opts.afterId !== undefined) {
    bind.push(opts.afterId);
    sql += ` AND l.id > $${bind.length}`;
  }
  bind.push(Math.max(0, Math.floor(opts.limit)));
  const rows = await sequelize.query<LeadRow>(`SELECT ${LEAD_COLUMNS} FROM leads l WHERE ${sql} ORDER BY l.id LIMIT $${bind.length}`, {
    bind,
    type: QueryTypes.SELECT,
  });
  return rows.map(toLeadView);
}

/** One page of the account's stored leads meeting the criteria, oldest first (as listLeads), and the total. */
export async function searchStoredLeads(
  sequelize: Sequelize,
  accountId: string,
  criteria: LeadCriteria,
  page: number,
  perPage: number,
): Promise<{ leads: LeadView[]; total: number }> {
  const where = matchWhere(accountId, criteria, {});
  const n = where.bind.length;
  const [rows, total] = await Promise.all([
    sequelize.query<LeadRow>(`SELECT ${LEAD_COLUMNS} FROM leads l WHERE ${where.sql} ORDER BY l.created_at, l.email LIMIT $${n + 1} OFFSET $${n + 2}`, {
      bind: [...where.bind, perPage, (page - 1) * perPage],
      type: QueryTypes.SELECT,
    }),
    countMatchingLeads(sequelize, accountId, criteria),
  ]);
  return { leads: rows.map(toLeadView), total };
}

/**
 * The input columns in the order of every multi-row VALUES list below: the lead's fields, the raw values its profile also reads, then the profile.
 * All of them are the person's data: erase-lead.ts clears them.
 */
export const INPUT_COLUMNS = [
  'email',
  'first_name',
  'last_name',
  'title',
  'company',
  'company_domain',
  'industry',
  'city',
  'state',
  'country',
  'linkedin_url',
  'phone',
  'seniority_raw',
  'department_raw',
  'company_size_raw',
] as const;

const inputValues = (l: LeadInput): Array<string | null> => [
  l.email,
  l.firstName,
  l.lastName,
  l.title,
  l.company,
  l.companyDomain,
  l.industry,
  l.city,
  l.state,
  l.country,
  l.linkedinUrl,
  l.phone,
  l.seniority ?? null,
  l.department ?? null,
  l.companySize ?? null,
];

export function profileSourceOf(l: LeadInput): ProfileSource {
  return {
    title: l.title,
    company: l.company,
    seniority: l.seniority ?? null,
    department: l.department ?? null,
    city: l.city,
    state: l.state,
    country: l.country,
    industry: l.industry,
    companySize: l.companySize ?? null,
  };
}

/** Leads per statement at most: 28 bound values a row keep a statement far below PostgreSQL's 65,535. */
export const MAX_ROWS_PER_STATEMENT = 1000;

interface Values {
  readonly sql: string;
  readonly bind: Array<string | number | null>;
}

/** A lead's custom fields as the jsonb text stored, or null (SQL NULL) when it has none. */
const customFieldsValue = (l: LeadInput): string | null =>
  l.customFields === undefined || Object.keys(l.customFields).length === 0 ? null : JSON.stringify(l.customFields);

/** `(id, account_id, <inputs>, <profile>, source, custom_fields, external_id)` tuples with numbered placeholders. */
function valuesList(
  accountId: string,
  source: LeadSourceName,
  leads: ReadonlyArray<LeadInput & { readonly externalId?: string | null }>,
  profiles: readonly (readonly ProfileValue[])[],
): Values {
  const bind: Array<string | number | null> = [accountId, source];
  const tuples = leads.map((l, i) => {
    const start = bind.length;
    // A provider's lead never carries custom fields, whatever object it came in.
    const custom = source === 'provider' ? null : customFieldsValue(l);
    bind.push(newId('lead'), ...inputValues(l), ...profiles[i]!, custom, l.externalId ?? null);
    const own = Array.from({ length: INPUT_COLUMNS.length + PROFILE_COLUMNS.length + 3 }, (_, k) => `$${start + k + 1}`);
    const inputs = own.slice(1, 1 + INPUT_COLUMNS.length);
    const profile = PROFILE_COLUMNS.map((c, k) => profileColumnSql(c, `${own[1 + INPUT_COLUMNS.length + k]!}::${PROFILE_COLUMN_TYPES[k]}`));
    // id, account_id ($1), inputs..., profile..., source ($2), custom_fields, external_id
    return `(${own[0]}, $1, ${[...inputs, ...profile].join(', ')}, $2, ${own[own.length - 2]}::jsonb, ${own[own.length - 1]})`;
  });
  return { sql: tuples.join(',\n'), bind };
}

const INSERT_HEAD = `INSERT INTO leads AS l (id, account_id, ${INPUT_COLUMNS.join(', ')}, ${PROFILE_COLUMNS.join(', ')}, source, custom_fields, external_id) VALUES`;

/**
 * Inserts the leads whose address the account does not have yet, in one statement, with the
 * profile computed from each and their custom fields, and returns how many were new. Existing
 * leads are left as they are, custom fields included (an import never rewrites a lead that may be
 * in a running campaign). Addresses must already be lower-cased.
 */
export async function insertNewLeads(sequelize: Sequelize, tx: Transaction, accountId: string, source: LeadSourceName, leads: readonly LeadInput[]): Promise<number> {
  return (await insertNewLeadIds(sequelize, tx, accountId, source, leads)).length;
}

/** insertNewLeads, answering the ids of the leads inserted (an import verifies them once committed). */
export async function insertNewLeadIds(sequelize: Sequelize, tx: Transaction, accountId: string, source: LeadSourceName, leads: readonly LeadInput[]): Promise<string[]> {
  if (leads.length === 0) return [];
  if (leads.length > MAX_ROWS_PER_STATEMENT) throw new RangeError(`at most ${MAX_ROWS_PER_STATEMENT} leads per statement`);
  const v = valuesList(accountId, source, leads, leads.map((l) => profileValues(profileSourceOf(l))));
  const rows = await sequelize.query<{ id: string }>(`${INSERT_HEAD}\n${v.sql}\nON CONFLICT (account_id, email) DO NOTHING RETURNING l.id`, {
    bind: v.bind,
    type: QueryTypes.SELECT,
    transaction: tx,
  });
  return rows.map((r) => r.id);
}

/** The ids of the account's leads with these addresses (lower case), in no order: an import's duplicates, to add them to a list. */
export async function leadIdsOfAddresses(sequelize: Sequelize, tx: Transaction, accountId: string, emails: readonly string[]): Promise<string[]> {
  if (emails.length === 0) return [];
  const rows = await sequelize.query<{ id: string }>(`SELECT id FROM leads WHERE account_id = $1 AND email = ANY($2::text[])`, {
    bind: [accountId, [...emails]],
    type: QueryTypes.SELECT,
    transaction: tx,
  });
  return rows.map((r) => r.id);
}

/** A lead from the provider: the lead fields and the provider's id; never custom fields (imports alone have them). */
export interface ProviderLead extends Omit<LeadInput, 'customFields'> {
  /** The provider's id of the person (Apollo's person id). */
  readonly externalId: string | null;
}

/**
 * Stores leads found or enriched through the provider: new addresses are inserted with source
 * 'provider'; for known addresses the provider's values replace the stored ones where the provider
 * has a value (it is the fresher source) and the stored ones stay where it has none. The lead's
 * source and id never change, nor do its custom fields: providers carry none, so a new lead has
 * none and a known one keeps what its import gave it. Returns the stored rows in input order (one
 * per distinct address).
 *
 * The profile is written with the row, computed from the provider's values; where a merged row
 * kept stored values the provider lacked, its profile is computed again from what was stored and
 * set in a second statement (same transaction).
 */
export async function upsertProviderLeads(sequelize: Sequelize, tx: Transaction | null, accountId: string, leads: readonly ProviderLead[]): Promise<LeadRow[]> {
  // One statement may not touch a row twice: keep the first of each address.
  const first = new Map<string, ProviderLead>();
  for (const l of leads) if (!first.has(l.email)) first.set(l.email, l);
  const unique = [...first.values()];
  if (unique.length === 0) return [];
  if (unique.length > MAX_ROWS_PER_STATEMENT) throw new RangeError(`at most ${MAX_ROWS_PER_STATEMENT} leads per statement`);
  const profiles = unique.map((l) => profileValues(profileSourceOf(l)));
  const v = valuesList(accountId, 'provider', unique, profiles);
  const sets = INPUT_COLUMNS.filter((c) => c !== 'email').map((c) => `${c} = COALESCE(EXCLUDED.${c}, l.${c})`);
  sets.push(...PROFILE_COLUMNS.map((c) => `${c} = EXCLUDED.${c}`));
  sets.push('external_id = COALESCE(EXCLUDED.external_id, l.external_id)', 'updated_at = now()');
  const rows = await sequelize.query<LeadRow & RawProfileRow>(
    `${INSERT_HEAD}\n${v.sql}\nON CONFLICT (account_id, email) DO UPDATE SET ${sets.join(', ')} RETURNING ${LEAD_COLUMNS}, ${RAW_PROFILE_COLUMNS}`,
    { bind: v.bind, type: QueryTypes.SELECT, transaction: tx },
  );
  const written = new Map(unique.map((l, i) => [l.email, profiles[i]!] as const));
  const stale = rows
    .map((r) => ({ id: r.id, values: profileValues(profileSourceOfRow(r)), written: written.get(r.email) }))
    .filter((u) => u.written === undefined || !sameValues(u.values, u.written));
  await writeProfiles(sequelize, tx, stale);
  const byEmail = new Map(rows.map((r) => [r.email, r] as const));
  return unique.map((l) => byEmail.get(l.email)).filter((r): r is LeadRow & RawProfileRow => r !== undefined);
}


/**
 * The lead matcher: LeadCriteria as one SQL WHERE fragment over the profile columns of `leads`
 * (alias `l`). Every value travels as a bind parameter; lists are arrays compared with
 * `= ANY($n)`, so a criteria of any size is one statement the planner can serve from the
 * per-account indexes (see the lead-profile migration).
 */
import { MATCH_NOBODY_KEYWORD, type CompanySizeRange, type CustomFieldCondition, type LeadCriteria } from './profile/types';
import { normalizeDomain } from './fields';
import { fold } from './profile/normalize';

/** The criteria that constrains nothing: every lead of the account. */
export const ALL_LEADS: LeadCriteria = {
  titleKeys: [],
  titleRoles: [],
  seniorities: [],
  departments: [],
  countryCodes: [],
  cities: [],
  industryIds: [],
  companySizes: [],
  keywords: [],
  exclude: { titleKeys: [], companies: [], domains: [], emails: [] },
  unrecognised: [],
};

export interface SqlFragment {
  readonly sql: string;
  readonly bind: unknown[];
}

/**
 * The column keywords are looked for in (title, company and industry, as given and folded: see
 * profile-columns.ts), trigram-indexed by `leads_keywords_trgm`.
 */
export const KEYWORD_TEXT = 'l.keyword_text';

/** A LIKE pattern matching values that contain `term` literally (its % _ and \ escaped). */
export function containsPattern(term: string): string {
  return `%${escapeLike(term)}%`;
}

export function escapeLike(term: string): string {
  return term.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * The forms a keyword is looked for in: as written (lower-cased) and folded as the profile folds
 * (accents, inner punctuation); keyword_text holds both forms of each field. A keyword that
 * starts or ends with punctuation ("50%", "c++") is meant literally: folding would cut it to a
 * wider word ("50", "c"), so it is looked for as written only.
 */
export function keywordForms(word: string): string[] {
  const lower = word.trim().toLowerCase();
  if (lower === '') return [];
  const folded = fold(lower);
  const literal = /^[^\p{L}\p{N}]|[^\p{L}\p{N}]$/u.test(lower);
  return folded === lower || folded === '' || literal ? [lower] : [lower, folded];
}

/** How company names are compared in exclusions: case and spacing ignored. */
export function companyKey(name: string): string {
  return name.toLowerCase().replace(/\s+/g, '');
}
const COMPANY_KEY_SQL = "regexp_replace(lower(l.company), '[[:space:]]+', '', 'g')";

/** An excluded domain as stored (`https://www.Acme.com` -> `acme.com`), or null when it is none. */
function domainKey(value: string): string | null {
  const v = value.trim().toLowerCase().replace(/^@/, '');
  return v === '' ? null : (normalizeDomain(v) ?? v);
}

const unique = <T>(values: Iterable<T>): T[] => [...new Set(values)];

/** Collects bind values, numbering them from `first`. */
class Binds {
  readonly values: unknown[] = [];
  constructor(private readonly first: number) {}
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.first + this.values.length - 1}`;
  }
  /** A text[] parameter. */
  list(values: readonly string[]): string {
    return `${this.add([...values])}::text[]`;
  }
}

const anyOf = (parts: readonly string[]): string => (parts.length === 1 ? parts[0]! : `(${parts.join(' OR ')})`);

type Role = LeadCriteria['titleRoles'][number];

/** `(seniority = $a AND department = $b)` for a role; a null side does not constrain; null when neither side does. */
function roleMatch(role: Role, b: Binds): string | null {
  const sides: string[] = [];
  if (role.seniority !== null) sides.push(`l.seniority = ${b.add(role.seniority)}`);
  if (role.department !== null) sides.push(`l.department = ${b.add(role.department)}`);
  return sides.length === 0 ? null : `(${sides.join(' AND ')})`;
}

/** `<keyword text> ILIKE ANY(...)` for the words (NULL for a lead without text), or null when none is left. */
function keywordMatch(words: readonly string[], b: Binds): string | null {
  const patterns = unique(words.flatMap(keywordForms).map(containsPattern));
  return patterns.length === 0 ? null : `${KEYWORD_TEXT} ILIKE ANY(${b.list(patterns)})`;
}

/**
 * `lower(<the lead's field>) IN (<the values, lower-cased>)` for one custom field condition: NULL
 * for a lead without the field. Both sides are lower-cased by PostgreSQL, so case is ignored the
 * same way whatever the values are; they are stored and given trimmed. The name is a bind value too.
 */
function customMatch(c: CustomFieldCondition, b: Binds): string {
  return `lower(l.custom_fields ->> ${b.add(c.field)}) IN (SELECT lower(v) FROM unnest(${b.list(unique(c.values))}) AS v)`;
}

function sizeRange(r: CompanySizeRange, b: Binds): string | null {
  const parts: string[] = [];
  if (r.min !== undefined) parts.push(`l.company_size >= ${b.add(r.min)}::int`);
  if (r.max !== undefined) parts.push(`l.company_size <= ${b.add(r.max)}::int`);
  return parts.length === 0 ? null : parts.join(' AND ');
}

/**
 * The WHERE fragment selecting the leads that meet `criteria`, with bind parameters numbered from
 * `firstBindIndex` (to AND with `l.account_id = $1` and the like). Semantics (LeadCriteria):
 * values within a list are alternatives, lists combine with AND, an empty list does not constrain.
 * Two groups of lists are one filter each, so they are alternatives of one another: title keys and
 * title roles (both are the audience's titles), and country codes, subdivisions and cities (its
 * locations). A title key matches a lead whose title names it among others (`title_keys`).
 * Keywords match as substrings of the title, company or industry. `unrecognised` is the report of
 * the values no vocabulary knew: resolveAudience has already written each of them into `keywords`
 * (or `exclude.keywords`, for an exclusion), which is how they constrain; read again here, an
 * excluded value would wrongly become a required one. Custom field conditions compare the lead's
 * `custom_fields` value with each condition's values, case ignored; an excluded one leaves a lead
 * out only when it has the field. MATCH_NOBODY_KEYWORD is `FALSE`. An empty criteria (ALL_LEADS)
 * is `TRUE`: every lead.
 */
export function criteriaWhere(criteria: LeadCriteria, firstBindIndex: number): SqlFragment {
  const b = new Binds(firstBindIndex);
  const clauses: string[] = [];
  if (criteria.keywords.includes(MATCH_NOBODY_KEYWORD)) return { sql: 'FALSE', bind: [] };

  const titleParts: string[] = [];
  if (criteria.titleKeys.length > 0) titleParts.push(`l.title_keys && ${b.list(unique(criteria.titleKeys))}`);
  for (const role of criteria.titleRoles) {
    const m = roleMatch(role, b);
    if (m !== null) titleParts.push(m);
  }
  // Titles were given but none could be expressed: they name nobody rather than everybody.
  if (criteria.titleKeys.length + criteria.titleRoles.length > 0) clauses.push(titleParts.length === 0 ? 'FALSE' : anyOf(titleParts));

  if (criteria.seniorities.length > 0) clauses.push(`l.seniority = ANY(${b.list(unique(criteria.seniorities))})`);
  if (criteria.departments.length > 0) clauses.push(`l.department = ANY(${b.list(unique(criteria.departments))})`);

  const placeParts: string[] = [];
  if (criteria.countryCodes.length > 0) placeParts.push(`l.country_code = ANY(${b.list(unique(criteria.countryCodes.map((c) => c.toUpperCase())))})`);
  const subdivisions = unique((criteria.subdivisions ?? []).map((c) => c.toUpperCase()));
  if (subdivisions.length > 0) placeParts.push(`l.state_code = ANY(${b.list(subdivisions)})`);
  for (const c of criteria.cities) {
    const city = `l.city_norm = ${b.add(c.city)}`;
    placeParts.push(c.countryCode === '' ? city : `(l.country_code = ${b.add(c.countryCode.toUpperCase())} AND ${city})`);
  }
  if (placeParts.length > 0) clauses.push(anyOf(placeParts));

  if (criteria.industryIds.length > 0) clauses.push(`l.industry_id = ANY(${b.list(unique(criteria.industryIds))})`);

  if (criteria.companySizes.length > 0) {
    const ranges = criteria.companySizes.map((r) => sizeRange(r, b));
    // A range open at both ends is any size: the list then does not constrain.
    if (!ranges.includes(null)) clauses.push(anyOf(ranges as string[]));
  }

  const keywords = keywordMatch(criteria.keywords, b);
  if (keywords !== null) clauses.push(keywords);

  // Custom fields: each condition must hold; a lead without the field does not match it.
  for (const c of criteria.custom ?? []) if (c.values.length > 0) clauses.push(`coalesce(${customMatch(c, b)}, false)`);

  // Exclusions: a NULL column never excludes (a lead without a title is not "a CTO").
  const ex = criteria.exclude;
  if (ex.titleKeys.length > 0) clauses.push(`NOT coalesce(l.title_keys && ${b.list(unique(ex.titleKeys))}, false)`);
  const exRoles = (ex.titleRoles ?? []).map((r) => roleMatch(r, b)).filter((m): m is string => m !== null);
  if (exRoles.length > 0) clauses.push(`NOT coalesce(${anyOf(exRoles)}, false)`);
  if ((ex.industryIds ?? []).length > 0) clauses.push(`(l.industry_id IS NULL OR l.industry_id <> ALL(${b.list(unique(ex.industryIds ?? []))}))`);
  const exKeywords = keywordMatch(ex.keywords ?? [], b);
  if (exKeywords !== null) clauses.push(`(${KEYWORD_TEXT} IS NULL OR NOT ${exKeywords})`);
  const companies = unique(ex.companies.map(companyKey).filter((c) => c !== ''));
  if (companies.length > 0) clauses.push(`(l.company IS NULL OR ${COMPANY_KEY_SQL} <> ALL(${b.list(companies)}))`);
  const domains = unique(ex.domains.map(domainKey).filter((d): d is string => d !== null));
  if (domains.length > 0) {
    const exact = b.list(domains);
    // A domain also excludes its subdomains: `acme.com` covers `eu.acme.com`, not `notacme.com`.
    const below = b.list(domains.map((d) => `%.${escapeLike(d)}`));
    const emailDomain = "split_part(l.email, '@', 2)";
    clauses.push(`NOT (${emailDomain} = ANY(${exact}) OR ${emailDomain} LIKE ANY(${below}))`);
    clauses.push(`(l.company_domain IS NULL OR NOT (l.company_domain = ANY(${exact}) OR l.company_domain LIKE ANY(${below})))`);
  }
  const emails = unique(ex.emails.map((e) => e.trim().toLowerCase()).filter((e) => e !== ''));
  if (emails.length > 0) clauses.push(`l.email <> ALL(${b.list(emails)})`);
  // A lead with any excluded custom value is left out; one without the field is not (NULL excludes nothing).
  const exCustom = (ex.custom ?? []).filter((c) => c.values.length > 0).map((c) => customMatch(c, b));
  if (exCustom.length > 0) clauses.push(`NOT coalesce(${anyOf(exCustom)}, false)`);

  return { sql: clauses.length === 0 ? 'TRUE' : clauses.join(' AND '), bind: b.values };
}

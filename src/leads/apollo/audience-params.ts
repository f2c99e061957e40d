/**
 * A campaign's audience as the parameters of Apollo's people search (`mixed_people/search`, under
 * the names of Apollo's public API). The provider search only has to find the right people to
 * reveal: whatever it returns is stored with its profile and checked again by the local matcher
 * (src/leads/criteria-sql.ts), so each parameter is sent only where Apollo can say exactly what
 * the audience says, or something wider, never something narrower:
 * - `person_titles`: the main spellings of the title keys the titles resolved to (CTO: "CTO",
 *   "Chief Technology Officer"; a VP of Engineering: "VP of Engineering", "Vice President of
 *   Engineering"); combined titles that only count as one of them ("Co-Founder and CTO") are left
 *   to Apollo's own title matching. Left out when a title resolved to a seniority alone (then
 *   `person_seniorities` carries it) or to a department alone, which Apollo's titles cannot say.
 * - `person_seniorities`: ours mapped onto Apollo's values (c_level: owner, founder, c_suite,
 *   partner, since our C-level counts founders, owners and managing partners; entry: entry, intern);
 *   a level range ("VP-level and above") is its levels. A role family given as separate filters
 *   ("finance leaders": departments finance, seniorityMin director) goes as its seniorities alone:
 *   Apollo's titles would miss the titles written in other languages ("Leiterin Finanzen"), and
 *   the function is checked locally.
 * - `person_locations`: countries by their English name (regions are already expanded to their
 *   countries, or states, by the resolver), states and provinces as "Texas, US", cities by name. The
 *   person's location, not the company's headquarters: a lead's country, state and city are the
 *   person's, and that is what the matcher reads.
 * - `q_organization_keyword_tags`: each industry by the parts of its taxonomy name ("Fintech":
 *   "fintech"; "Grocery and food retail": "grocery", "food retail"); Apollo's industry filter takes its
 *   internal tag ids, not names.
 * - `organization_num_employees_ranges`: "min,max" (an open lower end is 1, an open upper end
 *   1000000).
 * - `q_keywords`: the keyword when there is exactly one; Apollo reads several words in one
 *   string together, while the audience takes any of them, so several are matched locally only.
 * - Exclusions and departments have no parameter: they are applied locally after the search.
 * - Umbrella industries are already expanded to what they cover: each member's tags are sent.
 * - Custom fields (`custom`, `exclude.custom`) are the account's own import columns, which Apollo
 *   knows nothing of: no parameter either, applied locally after the search like departments. A
 *   provider's person brings no custom fields, so only people the account already imported with
 *   the field can meet a `custom` filter.
 */
import en from 'i18n-iso-countries/langs/en.json';
import departmentsData from '../profile/vocabulary/departments.json';
import industriesData from '../profile/vocabulary/industries.json';
import titlesData from '../profile/vocabulary/titles.json';
import { MATCH_NOBODY_KEYWORD, type CompanySizeRange, type LeadCriteria, type Seniority } from '../profile/types';
import { subdivisionByIsoCode } from '../profile/subdivisions';
import { vocabulary } from '../profile/vocabulary';
import type { ApolloSearchQuery } from './types';

/** Apollo's person seniority values. */
export const APOLLO_SENIORITIES = ['owner', 'founder', 'c_suite', 'partner', 'vp', 'head', 'director', 'manager', 'senior', 'entry', 'intern'] as const;
export type ApolloSeniority = (typeof APOLLO_SENIORITIES)[number];

const SENIORITY_MAP: Readonly<Record<Seniority, readonly ApolloSeniority[]>> = {
  c_level: ['owner', 'founder', 'c_suite', 'partner'],
  vp: ['vp'],
  head: ['head'],
  director: ['director'],
  manager: ['manager'],
  senior: ['senior'],
  entry: ['entry', 'intern'],
};

/** The people-search parameters of an audience, in Apollo's own names (the body's members). */
export interface ApolloAudienceParams {
  readonly person_titles?: readonly string[];
  readonly person_seniorities?: readonly ApolloSeniority[];
  readonly person_locations?: readonly string[];
  readonly q_organization_keyword_tags?: readonly string[];
  readonly organization_num_employees_ranges?: readonly string[];
  readonly q_keywords?: string;
}

/** Apollo's seniorities for ours, in Apollo's order, each once. */
export function apolloSeniorities(ours: readonly Seniority[]): ApolloSeniority[] {
  const wanted = new Set(ours.flatMap((s) => SENIORITY_MAP[s]));
  return APOLLO_SENIORITIES.filter((s) => wanted.has(s));
}

const ACRONYMS = new Set(['ceo', 'cto', 'cfo', 'cmo', 'coo', 'cro', 'cpo', 'chro', 'ciso', 'cio', 'clo', 'cno', 'cdo', 'cso', 'vp', 'svp', 'evp', 'avp', 'sdr', 'bdr', 'csm', 'hr', 'it', 'qa', 'ai', 'ml', 'ux', 'ui', 'seo', 'pr', 'r', 'd', 'sre', 'devops', 'gm']);
const SMALL = new Set(['and', 'of', 'the', 'for', 'de', 'a', 'an', 'to', 'in']);

/** A vocabulary spelling ("chief technology officer") as people write it ("Chief Technology Officer"). */
function titleCase(text: string): string {
  return text
    .split(' ')
    .filter((w) => w !== '')
    .map((w, i) => (ACRONYMS.has(w) ? w.toUpperCase() : i > 0 && SMALL.has(w) ? w : `${w.charAt(0).toUpperCase()}${w.slice(1)}`))
    .join(' ')
    .replace(/\bCo Founder\b/g, 'Co-Founder');
}

interface TitleSpellings {
  readonly explicit: ReadonlyMap<string, readonly string[]>;
  readonly departmentNames: ReadonlyMap<string, string>;
}

let spellings: TitleSpellings | undefined;
function titleSpellings(): TitleSpellings {
  if (spellings !== undefined) return spellings;
  const explicit = new Map<string, readonly string[]>();
  for (const t of titlesData.titles as readonly { key: string; spellings: readonly string[] }[]) explicit.set(t.key, t.spellings.slice(0, 2).map(titleCase));
  const departmentNames = new Map<string, string>();
  for (const d of departmentsData.departments as readonly { id: string; name: string }[]) departmentNames.set(d.id, d.name);
  spellings = { explicit, departmentNames };
  return spellings;
}

/** The titles a (seniority, department) role is written as ("VP of Engineering", "Engineering Director"). */
function roleTitles(seniority: Seniority | null, department: string | null): string[] | null {
  if (seniority === null || department === null) return null;
  const d = titleSpellings().departmentNames.get(department);
  if (d === undefined) return null;
  switch (seniority) {
    case 'vp':
      return [`VP of ${d}`, `Vice President of ${d}`];
    case 'head':
      return [`Head of ${d}`];
    case 'director':
      return [`Director of ${d}`, `${d} Director`];
    case 'manager':
      return [`${d} Manager`];
    default:
      return null;
  }
}

/** The main spellings of a title key: its first two for an explicit title, the role's for a template one. */
function keyTitles(key: string): string[] | null {
  const explicit = titleSpellings().explicit.get(key);
  if (explicit !== undefined) return [...explicit];
  const entry = vocabulary().titleKeys.get(key);
  return entry === undefined ? null : roleTitles(entry.seniority, entry.department);
}

function uniqueCi(values: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const v of values.map((x) => x.trim()).filter((x) => x !== '')) {
    const k = v.toLowerCase();
    if (!seen.has(k)) {
      seen.add(k);
      out.push(v);
    }
  }
  return out;
}

/** The title and seniority parameters: OR within titles, AND with seniorities, as the matcher has it. */
function titleParams(criteria: LeadCriteria): Pick<ApolloAudienceParams, 'person_titles' | 'person_seniorities'> {
  const seniorities = new Set<Seniority>(criteria.seniorities);
  const roles = criteria.titleRoles;
  if (criteria.titleKeys.length === 0 && roles.length > 0 && roles.every((r) => r.department === null && r.seniority !== null)) {
    // "directors": a seniority only. With seniorities given as well, both must hold: keep the common ones.
    const fromRoles = roles.map((r) => r.seniority as Seniority);
    const chosen = seniorities.size === 0 ? fromRoles : fromRoles.filter((s) => seniorities.has(s));
    return chosen.length === 0 ? {} : { person_seniorities: apolloSeniorities(chosen) };
  }
  const out: { person_titles?: string[]; person_seniorities?: ApolloSeniority[] } = {};
  if (seniorities.size > 0) out.person_seniorities = apolloSeniorities([...seniorities]);
  if (criteria.titleKeys.length === 0 && roles.length === 0) return out;
  const titles: string[] = [];
  const counted = vocabulary().countedAs;
  const combined = new Set(criteria.titleKeys.flatMap((k) => counted.get(k) ?? []));
  for (const key of criteria.titleKeys.filter((k) => !combined.has(k))) {
    const t = keyTitles(key);
    if (t === null) return out; // a key no spelling names: the titles are matched locally only
    titles.push(...t);
  }
  for (const r of roles) {
    const t = roleTitles(r.seniority, r.department);
    if (t === null) return out;
    titles.push(...t);
  }
  out.person_titles = uniqueCi(titles);
  return out;
}

const COUNTRY_NAMES: Readonly<Record<string, string>> = { US: 'United States', RU: 'Russia', TW: 'Taiwan', IR: 'Iran', KR: 'South Korea', VN: 'Vietnam', BO: 'Bolivia', VE: 'Venezuela', TZ: 'Tanzania', MD: 'Moldova', SY: 'Syria', LA: 'Laos', FM: 'Micronesia', PS: 'Palestine', VA: 'Vatican City', XK: 'Kosovo', CD: 'Democratic Republic of the Congo', CG: 'Republic of the Congo' };

/** A country's English name as the provider's location data writes it. */
export function countryName(code: string): string | null {
  const c = code.toUpperCase();
  if (COUNTRY_NAMES[c] !== undefined) return COUNTRY_NAMES[c];
  const names = (en.countries as Readonly<Record<string, string | readonly string[]>>)[c];
  if (names === undefined) return null;
  return typeof names === 'string' ? names : (names[0] ?? null);
}

/** A state or province as Apollo's location filter writes one ("Texas, US"). */
export function subdivisionLocation(code: string): string | null {
  const s = subdivisionByIsoCode(code);
  return s === null ? null : `${s.name}, ${s.country}`;
}

function cityName(city: string): string {
  return city
    .split(/(\s+|-)/)
    .map((w) => (w.trim() === '' || w === '-' ? w : `${w.charAt(0).toUpperCase()}${w.slice(1)}`))
    .join('');
}

const industryNames = new Map<string, string>((industriesData.industries as readonly { id: string; name: string }[]).map((i) => [i.id, i.name]));

/** An industry's keyword tags: the parts of its taxonomy name, lower case ("fintech", "financial services"). */
export function industryTags(id: string): string[] {
  const name = industryNames.get(id);
  if (name === undefined) return [];
  return name
    .toLowerCase()
    .split(/\s+and\s+|,/)
    .map((p) => p.trim())
    .filter((p) => p !== '');
}

/** A size range as Apollo writes one ("51,200"). */
export function employeesRange(r: CompanySizeRange): string {
  return `${r.min ?? 1},${r.max ?? 1_000_000}`;
}

/**
 * The people-search parameters for an audience's criteria, or null when the audience names
 * nobody: then the provider is not asked at all.
 */
export function apolloAudienceParams(criteria: LeadCriteria): ApolloAudienceParams | null {
  if (criteria.keywords.includes(MATCH_NOBODY_KEYWORD)) return null;
  const out: {
    -readonly [K in keyof ApolloAudienceParams]: ApolloAudienceParams[K];
  } = { ...titleParams(criteria) };
  const locations = uniqueCi([
    ...criteria.countryCodes.map(countryName).filter((n): n is string => n !== null),
    ...(criteria.subdivisions ?? []).map(subdivisionLocation).filter((n): n is string => n !== null),
    ...criteria.cities.map((c) => cityName(c.city)),
  ]);
  if (locations.length > 0) out.person_locations = locations;
  const tags = uniqueCi(criteria.industryIds.flatMap(industryTags));
  if (tags.length > 0) out.q_organization_keyword_tags = tags;
  // A range open at both ends takes every size: then no range is sent.
  if (criteria.companySizes.every((r) => r.min !== undefined || r.max !== undefined)) {
    const sizes = uniqueCi(criteria.companySizes.map(employeesRange));
    if (sizes.length > 0) out.organization_num_employees_ranges = sizes;
  }
  const keywords = uniqueCi(criteria.keywords);
  if (keywords.length === 1) out.q_keywords = keywords[0];
  return out;
}

/** The parameters as the client's search query (the client builds the request body from it). */
export function audienceSearchQuery(p: ApolloAudienceParams): Omit<ApolloSearchQuery, 'page' | 'perPage'> {
  return {
    ...(p.person_titles === undefined ? {} : { personTitles: p.person_titles }),
    ...(p.person_seniorities === undefined ? {} : { personSeniorities: p.person_seniorities }),
    ...(p.person_locations === undefined ? {} : { personLocations: p.person_locations }),
    ...(p.q_organization_keyword_tags === undefined ? {} : { organizationIndustries: p.q_organization_keyword_tags }),
    ...(p.organization_num_employees_ranges === undefined ? {} : { organizationNumEmployeesRanges: p.organization_num_employees_ranges }),
    ...(p.q_keywords === undefined ? {} : { keywords: p.q_keywords }),
  };
}

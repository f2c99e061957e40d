/**
 * Audience filters (as a user or the parser writes them) to the lead criteria of
 * src/leads/profile: titles to title keys and (seniority, department) roles, locations to country
 * codes and cities, industries to taxonomy ids. Whatever no vocabulary knows is listed in
 * `unrecognised` and kept as a keyword, so it narrows the audience, never widens it; an audience
 * that constrains nothing names nobody (MATCH_NOBODY_KEYWORD). Custom field filters need no
 * vocabulary: they pass through as conditions on the lead's custom fields.
 */
import { normalizeCustomFieldName } from '../../leads/custom-fields';
import { findCity, isCityAlias } from '../../leads/profile/cities';
import { countryByCode, countryByName, regionOf } from '../../leads/profile/countries';
import { industryId, industryIdExact, industryMembers } from '../../leads/profile/industries';
import { subdivisionByCode, subdivisionByName, subdivisionOfCity } from '../../leads/profile/subdivisions';
import { fold, isPluralList } from '../../leads/profile/normalize';
import { departmentIn, titleWords } from '../../leads/profile/titles';
import { MATCH_NOBODY_KEYWORD, SENIORITIES, type CompanySizeRange, type CustomFieldCondition, type LeadCriteria, type Seniority } from '../../leads/profile/types';
import { longestAt, vocabulary, type Vocabulary } from '../../leads/profile/vocabulary';
import type { AudienceFilters, CustomFieldFilter } from './types';

type Role = { readonly seniority: Seniority | null; readonly department: string | null };

/** What one title resolves to. */
export interface TitleResolution {
  readonly titleKeys: readonly string[];
  readonly roles: readonly Role[];
  /** Words of the title no vocabulary knows (kept as keywords). */
  readonly unknown: readonly string[];
}

/** Words that carry nothing inside a title an audience names ('people in', 'roles'). */
const TITLE_NOISE = new Set(['and', 'or', 'in', 'at', 'people', 'person', 'role', 'team', 'folk', 'staff', 'professional', 'position', 'level', 'member', 'all', 'any', 'anyone', 'everyone', 'who', 'work', 'working', 'like', 'such', 'as']);

const LIST_SPLIT = /\s*(?:,|;|\/|\band\b|\bor\b|&)\s*/i;

function uniqueRoles(roles: readonly Role[]): Role[] {
  const seen = new Set<string>();
  return roles.filter((r) => {
    const k = `${r.seniority ?? ''}|${r.department ?? ''}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/**
 * Seniorities, departments and leftover words of a title no spelling names ('marketing
 * directors', 'finance and HR leaders'): every level it names at every function it names. A known
 * spelling inside it counts as its key (and its role, for a key that names one).
 */
function readWords(words: readonly string[], v: Vocabulary): TitleResolution {
  const seniorities = new Set<Seniority>();
  const departments: string[] = [];
  const unknown: string[] = [];
  const keys: string[] = [];
  const keyRoles: Role[] = [];
  for (let i = 0; i < words.length; ) {
    const aud = longestAt(v.audienceSeniorities, words, i);
    const tit = longestAt(v.titleSeniorities, words, i);
    const group = longestAt(v.departmentGroups, words, i);
    const dep = longestAt(v.departments, words, i);
    const key = longestAt(v.titles, words, i);
    const best = [aud, tit, group, dep, key].reduce((a, b) => (b !== undefined && (a === undefined || b.end > a.end) ? b : a), undefined as { end: number } | undefined);
    if (best === undefined) {
      if (!TITLE_NOISE.has(words[i]!)) unknown.push(words[i]!);
      i++;
      continue;
    }
    if (best === key && key !== undefined && (key.end - key.start >= 2 || v.standalone.has(words[i]!))) {
      keys.push(key.value.key);
      if (key.value.byRole) keyRoles.push({ seniority: key.value.seniority, department: key.value.department });
    } else if (best === aud && aud !== undefined) {
      for (const s of aud.value) seniorities.add(s);
    } else if (best === tit && tit !== undefined) {
      seniorities.add(tit.value);
    } else if (best === group && group !== undefined) {
      for (const d of group.value) if (!departments.includes(d)) departments.push(d);
    } else if (best === dep && dep !== undefined) {
      if (!departments.includes(dep.value)) departments.push(dep.value);
    } else if (key !== undefined) {
      // A single-word spelling that is not standalone ('engineer'): its department still counts.
      if (key.value.department !== null && !departments.includes(key.value.department)) departments.push(key.value.department);
      if (key.value.seniority !== null) seniorities.add(key.value.seniority);
    }
    i = best.end;
  }
  if (seniorities.size === 0 && departments.length === 0) return { titleKeys: keys, roles: keyRoles, unknown };
  const levels: (Seniority | null)[] = seniorities.size === 0 ? [null] : SENIORITIES.filter((s) => seniorities.has(s));
  const functions: (string | null)[] = departments.length === 0 ? [null] : departments;
  const roles = [...keyRoles, ...levels.flatMap((s) => functions.map((d) => ({ seniority: s, department: d })))];
  return { titleKeys: keys, roles: uniqueRoles(roles), unknown };
}

/** A title that names functions only ('finance' in 'finance and HR leaders'). */
const functionsOnly = (r: TitleResolution): boolean => r.titleKeys.length === 0 && r.roles.length > 0 && r.roles.every((x) => x.seniority === null);
/** A title that names levels only ('directors' in 'directors and VPs of Engineering'). */
const levelsOnly = (r: TitleResolution): boolean => r.titleKeys.length === 0 && r.roles.length > 0 && r.roles.every((x) => x.department === null);

/**
 * The items of a list read together: an item naming functions only takes the levels of the next
 * item that names levels ('finance and HR leaders': finance leaders too), and one naming levels
 * only takes the functions of the next that names functions ('directors and VPs of Engineering':
 * directors of engineering too). An item nothing follows keeps what it names.
 */
function distribute(items: readonly TitleResolution[]): TitleResolution[] {
  return items.map((r, i) => {
    const next = items.slice(i + 1);
    if (functionsOnly(r)) {
      const source = next.find((x) => x.roles.some((y) => y.seniority !== null));
      if (source === undefined) return r;
      const levels = [...new Set(source.roles.map((y) => y.seniority).filter((s): s is Seniority => s !== null))];
      return { ...r, roles: r.roles.flatMap((x) => levels.map((s) => ({ seniority: s, department: x.department }))) };
    }
    if (levelsOnly(r)) {
      const source = next.find((x) => x.roles.some((y) => y.department !== null));
      if (source === undefined) return r;
      const functions = [...new Set(source.roles.map((y) => y.department).filter((d): d is string => d !== null))];
      return { ...r, roles: r.roles.flatMap((x) => functions.map((d) => ({ seniority: x.seniority, department: d }))) };
    }
    return r;
  });
}

/**
 * One title as a user writes it ('CTO', 'VPs of Engineering', 'marketing directors', 'cto'):
 * a canonical key when a spelling names it (a key that names a role, such as head_sales or
 * hr_manager, also by its role, so 'Head of Sales EMEA' and 'Manager, Human Resources' are found),
 * else roles from its words; a list ('CTOs and CFOs', 'finance and HR leaders') item by item, read
 * together (distribute).
 */
export function resolveTitle(title: string): TitleResolution {
  const v = vocabulary();
  const raw = title.trim().toLowerCase();
  const canonical = v.titleKeys.get(raw);
  if (canonical !== undefined) {
    return { titleKeys: [canonical.key], roles: canonical.byRole ? [{ seniority: canonical.seniority, department: canonical.department }] : [], unknown: [] };
  }
  const words = titleWords(title, v);
  if (words.length === 0) return { titleKeys: [], roles: [], unknown: [] };
  const entry = isPluralList(fold(title).split(' ')) ? undefined : v.titles.map.get(words.join(' '));
  if (entry !== undefined) {
    return { titleKeys: [entry.key], roles: entry.byRole ? [{ seniority: entry.seniority, department: entry.department }] : [], unknown: [] };
  }
  const parts = title.split(LIST_SPLIT).filter((p) => p.trim() !== '');
  if (parts.length > 1) {
    const each = parts.map(resolveTitle);
    if (each.every((r) => r.titleKeys.length > 0 || r.roles.length > 0)) {
      const read = distribute(each);
      return { titleKeys: read.flatMap((r) => r.titleKeys), roles: uniqueRoles(read.flatMap((r) => r.roles)), unknown: read.flatMap((r) => r.unknown) };
    }
  }
  return readWords(words, v);
}

/** A department id from an id or any of its words. */
function departmentId(text: string, v: Vocabulary): string | null {
  const id = text.trim().toLowerCase();
  if (v.departmentIds.has(id)) return id;
  const words = titleWords(text, v);
  const whole = v.departments.map.get(words.join(' '));
  return whole ?? departmentIn(words, v);
}

export interface ResolvedLocation {
  readonly countryCodes: readonly string[];
  /** States and provinces, ISO 3166-2. */
  readonly subdivisions?: readonly string[];
  readonly city?: { readonly city: string; readonly countryCode: string };
}

/** A city at least this big named like the state it lies in is that city ('Berlin'); smaller ones yield to the state ('Quebec'). */
const CITY_STATE_POPULATION = 1_000_000;

/** A city in a country (or in a state, which names its country), as the lead column holds it. */
function cityIn(name: string, country: string): ResolvedLocation | null {
  const folded = fold(name);
  if (folded === '') return null;
  const known = findCity(name, country);
  return { countryCodes: [], city: { city: known?.city ?? folded, countryCode: country } };
}

/**
 * A location: a region (of countries or of states), a country (name, alias, demonym, code), a
 * state or province (name, ISO code, abbreviation), a city, or 'City, Country' / 'City, State'.
 * A name that is both a state and a city the city aliases list ('New York') is the city, and so is
 * a city-state ('Berlin', 'Hamburg'); any other name both a state and a city ('Washington',
 * 'Quebec') is the state, the wider reading, which holds the city too.
 */
export function resolveLocation(text: string): ResolvedLocation | null {
  const region = regionOf(text);
  if (region !== null) return { countryCodes: region.countries, subdivisions: region.subdivisions };
  const country = countryByName(text) ?? countryByCode(text);
  if (country !== null) return { countryCodes: [country] };
  const comma = text.lastIndexOf(',');
  if (comma > 0) {
    const after = text.slice(comma + 1);
    const inCountry = countryByName(after) ?? countryByCode(after);
    if (inCountry !== null) return cityIn(text.slice(0, comma), inCountry);
    const inState = subdivisionByName(after) ?? subdivisionByCode(after);
    if (inState !== null) return cityIn(text.slice(0, comma), inState.country);
  }
  const aliased = isCityAlias(text) ? findCity(text) : null;
  if (aliased !== null) return { countryCodes: [], city: { city: aliased.city, countryCode: aliased.countryCode } };
  const state = subdivisionByName(text) ?? subdivisionByCode(text);
  if (state !== null) {
    // A city-state ('Berlin', 'Hamburg') is read as the city people mean.
    const city = findCity(text, state.country);
    if (city !== null && city.population >= CITY_STATE_POPULATION && subdivisionOfCity(city.countryCode, city.admin1)?.code === state.code) {
      return { countryCodes: [], city: { city: city.city, countryCode: city.countryCode } };
    }
    return { countryCodes: [], subdivisions: [state.code] };
  }
  const city = findCity(text);
  return city === null ? null : { countryCodes: [], city: { city: city.city, countryCode: city.countryCode } };
}

function isSeniority(s: unknown): s is Seniority {
  return typeof s === 'string' && (SENIORITIES as readonly string[]).includes(s);
}

/**
 * The levels from `min` up to `max`, both included (SENIORITIES runs from the highest down): a
 * missing `max` is the highest level, a missing `min` the lowest; neither, no level. `min` above
 * `max` is no level (the API refuses it before).
 */
export function seniorityRange(min: Seniority | undefined, max: Seniority | undefined): Seniority[] {
  if (min === undefined && max === undefined) return [];
  const lo = min === undefined ? SENIORITIES.length - 1 : SENIORITIES.indexOf(min);
  const hi = max === undefined ? 0 : SENIORITIES.indexOf(max);
  if (lo < 0 || hi < 0) return [];
  return SENIORITIES.filter((_, i) => i >= hi && i <= lo);
}

function validRange(r: CompanySizeRange): boolean {
  const ok = (n: number | undefined): boolean => n === undefined || (Number.isFinite(n) && n >= 0);
  return ok(r.min) && ok(r.max) && (r.min === undefined || r.max === undefined || r.min <= r.max) && (r.min !== undefined || r.max !== undefined);
}

const companyName = (s: string): string => s.trim().toLowerCase().replace(/\s+/g, ' ');

function uniq<T>(xs: Iterable<T>): T[] {
  return [...new Set(xs)];
}

/**
 * A custom field filter as conditions: each name in the import's normal form (a valid name is its
 * own, so this only matters for filters stored by other means), values trimmed and without
 * repeats (case is left to the matcher, which ignores it). A name left with no value or no name
 * is dropped.
 */
export function resolveCustom(filter: CustomFieldFilter | undefined): CustomFieldCondition[] {
  const out: CustomFieldCondition[] = [];
  for (const [name, given] of Object.entries(filter ?? {})) {
    const field = normalizeCustomFieldName(name);
    const values = uniq(given.map((v) => v.trim()).filter((v) => v !== ''));
    if (field !== null && values.length > 0) out.push({ field, values });
  }
  return out;
}

export function resolveAudience(filters: AudienceFilters): LeadCriteria {
  const v = vocabulary();
  const unrecognised: string[] = [];
  const keywords: string[] = [];
  const unknown = (given: string, asKeyword = fold(given)): void => {
    unrecognised.push(given);
    if (asKeyword !== '') keywords.push(asKeyword);
  };

  const titleKeys: string[] = [];
  const titleRoles: Role[] = [];
  for (const t of filters.titles ?? []) {
    const r = resolveTitle(t);
    titleKeys.push(...r.titleKeys);
    titleRoles.push(...r.roles);
    if (r.titleKeys.length === 0 && r.roles.length === 0) unknown(t);
    else if (r.unknown.length > 0) unknown(t, r.unknown.join(' '));
  }

  const seniorities = [...(filters.seniorities ?? []).filter(isSeniority), ...seniorityRange(filters.seniorityMin, filters.seniorityMax)];
  for (const s of filters.seniorities ?? []) if (!isSeniority(s)) unknown(s);

  const departments: string[] = [];
  for (const d of filters.departments ?? []) {
    const id = departmentId(d, v);
    if (id === null) unknown(d);
    else departments.push(id);
  }

  const countryCodes: string[] = [];
  const subdivisions: string[] = [];
  const cities: { city: string; countryCode: string }[] = [];
  for (const l of filters.locations ?? []) {
    const r = resolveLocation(l);
    if (r === null) unknown(l);
    else {
      countryCodes.push(...r.countryCodes);
      subdivisions.push(...(r.subdivisions ?? []));
      if (r.city !== undefined) cities.push(r.city);
    }
  }

  const industryIds: string[] = [];
  for (const i of filters.industries ?? []) {
    const id = industryIdExact(i) ?? industryId(i);
    if (id === null) unknown(i);
    else industryIds.push(...industryMembers(id));
  }

  const companySizes = (filters.companySizes ?? []).filter(validRange);
  const custom = resolveCustom(filters.custom);
  for (const k of filters.keywords ?? []) {
    const f = k === MATCH_NOBODY_KEYWORD ? k : fold(k);
    if (f !== '') keywords.push(f);
  }

  const ex = filters.exclude ?? {};
  const exTitleKeys: string[] = [];
  const exRoles: Role[] = [];
  const exKeywords: string[] = [];
  for (const t of ex.titles ?? []) {
    const r = resolveTitle(t);
    exTitleKeys.push(...r.titleKeys);
    exRoles.push(...r.roles);
    if (r.titleKeys.length === 0 && r.roles.length === 0) {
      // An exclusion no vocabulary knows still excludes: by its words, never by nothing.
      unrecognised.push(t);
      if (fold(t) !== '') exKeywords.push(fold(t));
    }
  }
  const exIndustries: string[] = [];
  for (const i of ex.industries ?? []) {
    const id = industryIdExact(i) ?? industryId(i);
    if (id === null) {
      unrecognised.push(i);
      if (fold(i) !== '') exKeywords.push(fold(i));
    } else exIndustries.push(...industryMembers(id));
  }

  const constrains =
    titleKeys.length +
      titleRoles.length +
      seniorities.length +
      departments.length +
      countryCodes.length +
      subdivisions.length +
      cities.length +
      industryIds.length +
      companySizes.length +
      keywords.length +
      custom.length >
    0;
  if (!constrains) {
    // "Everyone" is chosen only by giving no audience at all: filters that name nothing name nobody.
    unrecognised.push('(no filter names anyone)');
    keywords.push(MATCH_NOBODY_KEYWORD);
  }

  return {
    titleKeys: uniq(titleKeys),
    titleRoles: uniqueRoles(titleRoles),
    seniorities: uniq(seniorities),
    departments: uniq(departments),
    countryCodes: uniq(countryCodes),
    subdivisions: uniq(subdivisions),
    cities: cities.filter((c, i) => cities.findIndex((d) => d.city === c.city && d.countryCode === c.countryCode) === i),
    industryIds: uniq(industryIds),
    companySizes,
    keywords: uniq(keywords),
    custom,
    exclude: {
      titleKeys: uniq(exTitleKeys),
      companies: uniq((ex.companies ?? []).map(companyName).filter((c) => c !== '')),
      domains: uniq((ex.domains ?? []).map((d) => d.trim().toLowerCase().replace(/^@/, '')).filter((d) => d !== '')),
      emails: uniq((ex.emails ?? []).map((e) => e.trim().toLowerCase()).filter((e) => e !== '')),
      titleRoles: uniqueRoles(exRoles),
      industryIds: uniq(exIndustries),
      keywords: uniq(exKeywords),
      custom: resolveCustom(ex.custom),
    },
    unrecognised: uniq(unrecognised),
  };
}

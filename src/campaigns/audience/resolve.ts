/**
 * Audience filters (as a user or the parser writes them) to the lead criteria of
 * src/leads/profile: titles to title keys and (seniority, department) roles, locations to country
 * codes and cities, industries to taxonomy ids. Whatever no vocabulary knows is listed in
 * `unrecognised` and kept as a keyword, so it narrows the audience, never widens it; an audience
 * that constrains nothing names nobody (MATCH_NOBODY_KEYWORD). Custom field filters need no
 * vocabulary: they pass through as conditions on the lead's custom fields.
 */
import { normalizeCustomFieldName } from '../../leads/custom-fields';
import { findCity } from '../../leads/profile/cities';
import { countryByCode, countryByName, regionCountries } from '../../leads/profile/countries';
import { industryId, industryIdExact } from '../../leads/profile/industries';
import { fold, matchWords } from '../../leads/profile/normalize';
import { departmentIn } from '../../leads/profile/titles';
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

/** Seniority, department and leftover words of a title no spelling names ('marketing directors'). */
function readWords(words: readonly string[], v: Vocabulary): TitleResolution {
  const seniorities = new Set<Seniority>();
  const unknown: string[] = [];
  const keys: string[] = [];
  let department: string | null = null;
  for (let i = 0; i < words.length; ) {
    const aud = longestAt(v.audienceSeniorities, words, i);
    const tit = longestAt(v.titleSeniorities, words, i);
    const dep = longestAt(v.departments, words, i);
    const key = longestAt(v.titles, words, i);
    const best = [aud, tit, dep, key].reduce((a, b) => (b !== undefined && (a === undefined || b.end > a.end) ? b : a), undefined as { end: number } | undefined);
    if (best === undefined) {
      if (!TITLE_NOISE.has(words[i]!)) unknown.push(words[i]!);
      i++;
      continue;
    }
    if (best === key && key !== undefined && (key.end - key.start >= 2 || v.standalone.has(words[i]!))) {
      keys.push(key.value.key);
    } else if (best === aud && aud !== undefined) {
      for (const s of aud.value) seniorities.add(s);
    } else if (best === tit && tit !== undefined) {
      seniorities.add(tit.value);
    } else if (best === dep && dep !== undefined) {
      department ??= dep.value;
    } else if (key !== undefined) {
      // A single-word spelling that is not standalone ('engineer'): its department still counts.
      department ??= key.value.department;
      if (key.value.seniority !== null) seniorities.add(key.value.seniority);
    }
    i = best.end;
  }
  if (seniorities.size === 0 && department === null) return { titleKeys: keys, roles: [], unknown };
  const levels = seniorities.size === 0 ? [null] : SENIORITIES.filter((s) => seniorities.has(s));
  return { titleKeys: keys, roles: levels.map((s) => ({ seniority: s, department })), unknown };
}

/**
 * One title as a user writes it ('CTO', 'VPs of Engineering', 'marketing directors', 'cto'):
 * a canonical key when a spelling names it (a template key such as head_sales also by its role,
 * so 'Head of Sales EMEA' is found), else roles from its words; a list ('CTOs and CFOs') per item.
 */
export function resolveTitle(title: string): TitleResolution {
  const v = vocabulary();
  const raw = title.trim().toLowerCase();
  const canonical = v.titleKeys.get(raw);
  if (canonical !== undefined) {
    return { titleKeys: [canonical.key], roles: canonical.byRole ? [{ seniority: canonical.seniority, department: canonical.department }] : [], unknown: [] };
  }
  const words = matchWords(fold(title), v.rewrites);
  if (words.length === 0) return { titleKeys: [], roles: [], unknown: [] };
  const entry = v.titles.map.get(words.join(' '));
  if (entry !== undefined) {
    return { titleKeys: [entry.key], roles: entry.byRole ? [{ seniority: entry.seniority, department: entry.department }] : [], unknown: [] };
  }
  const parts = title.split(LIST_SPLIT).filter((p) => p.trim() !== '');
  if (parts.length > 1) {
    const each = parts.map(resolveTitle);
    if (each.every((r) => r.titleKeys.length > 0 || r.roles.length > 0)) {
      return { titleKeys: each.flatMap((r) => r.titleKeys), roles: uniqueRoles(each.flatMap((r) => r.roles)), unknown: each.flatMap((r) => r.unknown) };
    }
  }
  return readWords(words, v);
}

/** A department id from an id or any of its words. */
function departmentId(text: string, v: Vocabulary): string | null {
  const id = text.trim().toLowerCase();
  if (v.departmentIds.has(id)) return id;
  const words = matchWords(fold(text), v.rewrites);
  const whole = v.departments.map.get(words.join(' '));
  return whole ?? departmentIn(words, v);
}

export interface ResolvedLocation {
  readonly countryCodes: readonly string[];
  readonly city?: { readonly city: string; readonly countryCode: string };
}

/** A location: a region, a country (name, alias, demonym, code), a city, or 'City, Country'. */
export function resolveLocation(text: string): ResolvedLocation | null {
  const region = regionCountries(text);
  if (region !== null) return { countryCodes: region };
  const country = countryByName(text) ?? countryByCode(text);
  if (country !== null) return { countryCodes: [country] };
  const comma = text.lastIndexOf(',');
  if (comma > 0) {
    const inCountry = countryByName(text.slice(comma + 1)) ?? countryByCode(text.slice(comma + 1));
    const cityName = fold(text.slice(0, comma));
    if (inCountry !== null && cityName !== '') {
      const known = findCity(cityName);
      return { countryCodes: [], city: { city: known !== null && known.countryCode === inCountry ? known.city : cityName, countryCode: inCountry } };
    }
  }
  const city = findCity(text);
  return city === null ? null : { countryCodes: [], city: { city: city.city, countryCode: city.countryCode } };
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

  const seniorities = (filters.seniorities ?? []).filter((s) => (SENIORITIES as readonly string[]).includes(s));
  for (const s of filters.seniorities ?? []) if (!(SENIORITIES as readonly string[]).includes(s)) unknown(s);

  const departments: string[] = [];
  for (const d of filters.departments ?? []) {
    const id = departmentId(d, v);
    if (id === null) unknown(d);
    else departments.push(id);
  }

  const countryCodes: string[] = [];
  const cities: { city: string; countryCode: string }[] = [];
  for (const l of filters.locations ?? []) {
    const r = resolveLocation(l);
    if (r === null) unknown(l);
    else {
      countryCodes.push(...r.countryCodes);
      if (r.city !== undefined) cities.push(r.city);
    }
  }

  const industryIds: string[] = [];
  for (const i of filters.industries ?? []) {
    const id = industryIdExact(i) ?? industryId(i);
    if (id === null) unknown(i);
    else industryIds.push(id);
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
    } else exIndustries.push(id);
  }

  const constrains =
    titleKeys.length + titleRoles.length + seniorities.length + departments.length + countryCodes.length + cities.length + industryIds.length + companySizes.length + keywords.length + custom.length > 0;
  if (!constrains) {
    // "Everyone" is chosen only by giving no audience at all: filters that name nothing name nobody.
    unrecognised.push('(no filter names anyone)');
    keywords.push(MATCH_NOBODY_KEYWORD);
  }

  // A combined title counts as each of its parts: founders include 'Founder & CEO'.
  const withCombined = (keys: readonly string[]): string[] => uniq(keys.flatMap((k) => [k, ...(v.countedAs.get(k) ?? [])]));

  return {
    titleKeys: withCombined(titleKeys),
    titleRoles: uniqueRoles(titleRoles),
    seniorities: uniq(seniorities),
    departments: uniq(departments),
    countryCodes: uniq(countryCodes),
    cities: cities.filter((c, i) => cities.findIndex((d) => d.city === c.city && d.countryCode === c.countryCode) === i),
    industryIds: uniq(industryIds),
    companySizes,
    keywords: uniq(keywords),
    custom,
    exclude: {
      titleKeys: withCombined(exTitleKeys),
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

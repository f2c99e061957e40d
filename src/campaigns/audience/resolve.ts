/**
 * Audience filters (as a user or the parser writes them) to the lead criteria of
 * src/leads/profile: titles to title keys and (seniority, department) roles, locations to country
 * codes and cities, industries to taxonomy ids. Whatever no vocabulary knows is listed in
 * `unrecognised` and kept as a keyword, so it narrows the audience, never widens it; an audience
 * that constrains nothing names nobody (MATCH_NOBODY_KEYWORD). Custom field filters need no
 * vocabulary: they pass through as conditions on the lead's custom fields.
 */
import { normalizeCustomFieldName } from '../../leads/custom-fields';
import { industryId, industryIdExact, industryMembers } from '../../leads/profile/industries';
import { fold } from '../../leads/profile/normalize';
import { departmentIn, titleWords } from '../../leads/profile/titles';
import { MATCH_NOBODY_KEYWORD, SENIORITIES, type CompanySizeRange, type CustomFieldCondition, type LeadCriteria, type Seniority } from '../../leads/profile/types';
import { vocabulary, type Vocabulary } from '../../leads/profile/vocabulary';
import { resolveLocation } from './resolve-location';
import { resolveTitle, uniqueRoles, type Role } from './resolve-title';
import type { AudienceFilters, CustomFieldFilter } from './types';

/** A department id from an id or any of its words. */
function departmentId(text: string, v: Vocabulary): string | null {
  const id = text.trim().toLowerCase();
  if (v.departmentIds.has(id)) return id;
  const words = titleWords(text, v);
  const whole = v.departments.map.get(words.join(' '));
  return whole ?? departmentIn(words, v);
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

/**
 * How a lead's profile (src/leads/profile) is stored: the columns of `leads` that hold it, their
 * values for one lead, and the raw fields they are computed from as a stored row holds them.
 *
 * Besides LeadProfile's columns, `keyword_text`: the text keywords are looked for in (title,
 * company and industry, each as imported and folded the way audiences fold keywords), so one
 * trigram-indexed column answers a keyword whichever form it comes in.
 */
import { leadProfile } from './profile/lead-profile';
import { fold } from './profile/normalize';
import type { LeadProfile, LeadProfileInput } from './profile/types';

/** The profile columns, in the order of profileValues. */
export const PROFILE_COLUMNS = [
  'title_key',
  'title_keys',
  'title_norm',
  'seniority',
  'department',
  'country_code',
  'state_code',
  'city_norm',
  'industry_id',
  'company_size',
  'keyword_text',
] as const;

export type ProfileColumn = (typeof PROFILE_COLUMNS)[number];

/**
 * The SQL types the values of PROFILE_COLUMNS travel as (for unnest of bound arrays). `title_keys`
 * is a text[] column but travels as its keys joined by spaces (keys have none), because unnest
 * cannot take an array of arrays of different lengths: profileColumnSql turns it back.
 */
export const PROFILE_COLUMN_TYPES = ['text', 'text', 'text', 'text', 'text', 'text', 'text', 'text', 'text', 'int', 'text'] as const;

/** The SQL expression storing a profile value given as `value` (a placeholder or a column of unnest) in `column`. */
export function profileColumnSql(column: ProfileColumn, value: string): string {
  return column === 'title_keys' ? `string_to_array(${value}, ' ')` : value;
}

export type ProfileValue = string | number | null;

/** What the profile columns are computed from: the profile's input and the company name. */
export interface ProfileSource extends LeadProfileInput {
  readonly company?: string | null;
}

/** Title, company and industry, lower-cased as given and folded, without repeats; null when all are empty. */
export function keywordText(p: LeadProfile, s: ProfileSource): string | null {
  const pieces: string[] = [];
  const add = (raw: string | null | undefined, folded: (v: string) => string): void => {
    const v = raw?.trim().toLowerCase() ?? '';
    if (v === '') return;
    pieces.push(v, folded(v));
  };
  add(s.title, (v) => p.titleNorm ?? fold(v));
  add(s.company, fold);
  add(s.industry, fold);
  // The separator keeps a keyword from matching across two fields.
  const text = [...new Set(pieces.filter((x) => x !== ''))].join(' | ');
  return text === '' ? null : text;
}

/** The values of PROFILE_COLUMNS for a lead. */
export function profileValues(s: ProfileSource): ProfileValue[] {
  const p = leadProfile(s);
  const keys = p.titleKeys.length === 0 ? null : p.titleKeys.join(' ');
  return [p.titleKey, keys, p.titleNorm, p.seniority, p.department, p.countryCode, p.stateCode, p.cityNorm, p.industryId, p.companySize, keywordText(p, s)];
}

export const sameValues = (a: readonly ProfileValue[], b: readonly ProfileValue[]): boolean => a.length === b.length && a.every((v, i) => v === b[i]);

/** The raw columns a profile is computed from, as selected by RAW_PROFILE_COLUMNS. */
export interface RawProfileRow {
  readonly title: string | null;
  readonly company: string | null;
  readonly seniority_raw: string | null;
  readonly department_raw: string | null;
  readonly city: string | null;
  readonly state: string | null;
  readonly country: string | null;
  readonly industry: string | null;
  readonly company_size_raw: string | null;
}

export const RAW_PROFILE_COLUMNS = 'l.title, l.company, l.seniority_raw, l.department_raw, l.city, l.state, l.country, l.industry, l.company_size_raw';

export function profileSourceOfRow(r: RawProfileRow): ProfileSource {
  return {
    title: r.title,
    company: r.company,
    seniority: r.seniority_raw,
    department: r.department_raw,
    city: r.city,
    state: r.state,
    country: r.country,
    industry: r.industry,
    companySize: r.company_size_raw,
  };
}

/**
 * A lead's profile: the normalised columns the audience matcher reads, computed from its raw
 * fields. Pure and cheap (it runs for every imported row); the vocabularies are built on the first
 * call, the city data is read only when a lead has a city.
 *
 * readLeadProfile also says which raw field each column came from, for the explanation of why a
 * lead is in or out of an audience (src/campaigns/audience/explain.ts).
 */
import { findCity, type CityMatch } from './cities';
import { companySizeOf } from './company-size';
import { countryCode } from './countries';
import { industryId } from './industries';
import { fold, matchWords } from './normalize';
import { subdivisionOf, subdivisionOfCity } from './subdivisions';
import { departmentIn, readTitle } from './titles';
import type { LeadProfile, LeadProfileInput, Seniority } from './types';
import { vocabulary } from './vocabulary';

/** The raw field each column was read from; null where the column is null. */
export interface ProfileSources {
  readonly seniority: 'title' | 'seniority' | null;
  readonly department: 'title' | 'department' | null;
  readonly countryCode: 'country' | 'state' | 'city' | null;
  readonly stateCode: 'state' | 'city' | null;
}

export interface ReadProfile {
  readonly profile: LeadProfile;
  readonly from: ProfileSources;
}

function providerSeniority(value: string | null | undefined): Seniority | null {
  if (value === null || value === undefined || value.trim() === '') return null;
  const v = vocabulary();
  return v.providerSeniorities.get(fold(value)) ?? v.titleSeniorities.map.get(matchWords(fold(value), v.rewrites).join(' ')) ?? null;
}

function providerDepartment(value: string | null | undefined): string | null {
  if (value === null || value === undefined || value.trim() === '') return null;
  const v = vocabulary();
  const id = value.trim().toLowerCase();
  if (v.departmentIds.has(id)) return id;
  // Provider values such as 'master_engineering_technical' or 'human_resources'.
  return departmentIn(matchWords(fold(value.replace(/_/g, ' ')), v.rewrites), v);
}

function nonEmpty(value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const t = value.trim();
  return t === '' ? null : t;
}

interface Place {
  readonly countryCode: string | null;
  readonly stateCode: string | null;
  readonly cityNorm: string | null;
  readonly from: Pick<ProfileSources, 'countryCode' | 'stateCode'>;
}

/**
 * Country, state and city. The lead's own country wins; a state names its country when the
 * country is blank ('Ontario'); the city fills what is still missing. The city is stored under
 * the one name its place has in the city data ('München' is 'munich') when that place lies in the
 * lead's country, else as written (folded), so an audience naming either spelling finds it.
 */
function readPlace(input: LeadProfileInput): Place {
  const cityRaw = nonEmpty(input.city);
  const stateRaw = nonEmpty(input.state);
  let country = countryCode(nonEmpty(input.country));
  let countryFrom: ProfileSources['countryCode'] = country === null ? null : 'country';
  let state = stateRaw === null ? null : subdivisionOf(stateRaw, country);
  if (country === null && state !== null) {
    country = state.country;
    countryFrom = 'state';
  }
  let city: CityMatch | null = null;
  if (cityRaw !== null) {
    city = findCity(cityRaw, country);
    if (country === null && city === null) city = findCity(cityRaw);
  }
  if (country === null && city !== null) {
    country = city.countryCode;
    countryFrom = 'city';
  }
  let stateFrom: ProfileSources['stateCode'] = state === null ? null : 'state';
  if (state === null && city !== null && city.countryCode === country) {
    state = subdivisionOfCity(city.countryCode, city.admin1);
    if (state !== null) stateFrom = 'city';
  }
  const cityNorm = city !== null && city.countryCode === country ? city.city : cityRaw === null ? null : fold(cityRaw) || null;
  return { countryCode: country, stateCode: state?.code ?? null, cityNorm, from: { countryCode: countryFrom, stateCode: stateFrom } };
}

export function readLeadProfile(input: LeadProfileInput): ReadProfile {
  const title = readTitle(nonEmpty(input.title));
  const place = readPlace(input);
  const seniority = title.seniority ?? providerSeniority(input.seniority);
  const department = title.department ?? providerDepartment(input.department);
  return {
    profile: {
      titleKey: title.titleKey,
      titleKeys: title.titleKeys,
      titleNorm: title.titleNorm,
      seniority,
      department,
      countryCode: place.countryCode,
      stateCode: place.stateCode,
      cityNorm: place.cityNorm,
      industryId: industryId(nonEmpty(input.industry)),
      companySize: companySizeOf(input.companySize),
    },
    from: {
      seniority: seniority === null ? null : title.seniority !== null ? 'title' : 'seniority',
      department: department === null ? null : title.department !== null ? 'title' : 'department',
      ...place.from,
    },
  };
}

export function leadProfile(input: LeadProfileInput): LeadProfile {
  return readLeadProfile(input).profile;
}

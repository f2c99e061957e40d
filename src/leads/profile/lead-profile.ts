/**
 * A lead's profile: the normalised columns the audience matcher reads, computed from its raw
 * fields. Pure and cheap (it runs for every imported row); the vocabularies are built on the first
 * call, the city data is read only when a lead has a city but no country.
 */
import { findCity } from './cities';
import { companySizeLowerEnd } from './company-size';
import { countryCode } from './countries';
import { industryId } from './industries';
import { fold, matchWords } from './normalize';
import { departmentIn, readTitle } from './titles';
import type { LeadProfile, LeadProfileInput, Seniority } from './types';
import { vocabulary } from './vocabulary';

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

export function leadProfile(input: LeadProfileInput): LeadProfile {
  const title = readTitle(nonEmpty(input.title));
  const city = nonEmpty(input.city);
  const cityNorm = city === null ? null : fold(city) || null;
  // The lead's own country wins; the city only fills a missing or unreadable one.
  const country = countryCode(nonEmpty(input.country)) ?? (cityNorm === null ? null : (findCity(cityNorm)?.countryCode ?? null));
  return {
    titleKey: title.titleKey,
    titleNorm: title.titleNorm,
    seniority: title.seniority ?? providerSeniority(input.seniority),
    department: title.department ?? providerDepartment(input.department),
    countryCode: country,
    cityNorm,
    industryId: industryId(nonEmpty(input.industry)),
    companySize: companySizeLowerEnd(input.companySize),
  };
}

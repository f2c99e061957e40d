/**
 * The lead matcher in memory: LeadCriteria against one lead's stored profile, filter group by
 * filter group, with the semantics of criteria-sql.ts (the statement campaigns run). It is what
 * the explanation of a lead reads (src/campaigns/audience/explain.ts), and the evaluation's
 * reference; a test runs both matchers over the same leads and criteria and requires the same
 * answer, so the two cannot drift apart.
 */
import { companyKey, keywordForms } from './criteria-sql';
import { normalizeDomain } from './fields';
import { MATCH_NOBODY_KEYWORD, type CustomFieldCondition, type LeadCriteria, type LeadProfile } from './profile/types';

/** A lead as the matcher sees it: the profile columns and the raw columns exclusions read. */
export interface MatchableLead {
  readonly profile: LeadProfile;
  /** The stored keyword_text (profile-columns.ts), what keywords are looked for in. */
  readonly keywordText: string | null;
  readonly company: string | null;
  readonly companyDomain: string | null;
  readonly email: string;
  readonly customFields: Readonly<Record<string, string>> | null;
}

/** The filter groups of the matcher, each one condition of the statement. */
export type CriteriaGroup = 'title' | 'seniority' | 'department' | 'place' | 'industry' | 'companySize' | 'keywords' | 'custom' | 'exclude';

export interface GroupVerdict {
  readonly group: CriteriaGroup;
  readonly met: boolean;
}

type Role = LeadCriteria['titleRoles'][number];

/** A role matches a lead whose columns equal its non-null sides; a role with no side names nobody (the SQL leaves it out). */
export function roleMatches(p: LeadProfile, r: Role): boolean {
  if (r.seniority === null && r.department === null) return false;
  return (r.seniority === null || r.seniority === p.seniority) && (r.department === null || r.department === p.department);
}

/** Whether a keyword (any of its forms) is in the lead's keyword text, case ignored, like ILIKE. */
function hasKeyword(text: string | null, words: readonly string[]): boolean {
  if (text === null) return false;
  const hay = text.toLowerCase();
  return words.some((w) => keywordForms(w).some((f) => hay.includes(f)));
}

function customMatches(fields: MatchableLead['customFields'], c: CustomFieldCondition): boolean {
  const value = fields?.[c.field];
  if (value === undefined) return false;
  const lower = value.toLowerCase();
  return c.values.some((v) => v.toLowerCase() === lower);
}

function domainExcluded(domain: string | null, excluded: readonly string[]): boolean {
  if (domain === null) return false;
  return excluded.some((d) => domain === d || domain.endsWith(`.${d}`));
}

/** Whether the lead meets an exclusion (and so is left out). */
function excluded(c: LeadCriteria, lead: MatchableLead): boolean {
  const p = lead.profile;
  const ex = c.exclude;
  if (ex.titleKeys.length > 0 && p.titleKeys.some((k) => ex.titleKeys.includes(k))) return true;
  if ((ex.titleRoles ?? []).some((r) => roleMatches(p, r))) return true;
  if (p.industryId !== null && (ex.industryIds ?? []).includes(p.industryId)) return true;
  if ((ex.keywords ?? []).length > 0 && hasKeyword(lead.keywordText, ex.keywords ?? [])) return true;
  const companies = ex.companies.map(companyKey).filter((k) => k !== '');
  if (lead.company !== null && companies.includes(companyKey(lead.company))) return true;
  const domains = ex.domains.map((d) => d.trim().toLowerCase().replace(/^@/, '')).filter((d) => d !== '').map((d) => normalizeDomain(d) ?? d);
  const email = lead.email.toLowerCase();
  if (domainExcluded(email.slice(email.indexOf('@') + 1), domains) || domainExcluded(lead.companyDomain, domains)) return true;
  if (ex.emails.some((e) => e.trim().toLowerCase() === email)) return true;
  if ((ex.custom ?? []).some((cond) => cond.values.length > 0 && customMatches(lead.customFields, cond))) return true;
  return false;
}

/**
 * The verdict of each group the criteria constrain, in the statement's order. An audience that
 * names nobody (MATCH_NOBODY_KEYWORD) is one unmet `keywords` group.
 */
export function criteriaVerdicts(c: LeadCriteria, lead: MatchableLead): GroupVerdict[] {
  const p = lead.profile;
  const out: GroupVerdict[] = [];
  const add = (group: CriteriaGroup, met: boolean): void => {
    out.push({ group, met });
  };
  if (c.keywords.includes(MATCH_NOBODY_KEYWORD)) return [{ group: 'keywords', met: false }];
  if (c.titleKeys.length + c.titleRoles.length > 0) add('title', p.titleKeys.some((k) => c.titleKeys.includes(k)) || c.titleRoles.some((r) => roleMatches(p, r)));
  if (c.seniorities.length > 0) add('seniority', p.seniority !== null && c.seniorities.includes(p.seniority));
  if (c.departments.length > 0) add('department', p.department !== null && c.departments.includes(p.department));
  const subdivisions = (c.subdivisions ?? []).map((s) => s.toUpperCase());
  if (c.countryCodes.length + subdivisions.length + c.cities.length > 0) {
    const inCountry = p.countryCode !== null && c.countryCodes.map((x) => x.toUpperCase()).includes(p.countryCode);
    const inState = p.stateCode !== null && subdivisions.includes(p.stateCode);
    const inCity = c.cities.some((x) => x.city === p.cityNorm && (x.countryCode === '' || x.countryCode.toUpperCase() === p.countryCode));
    add('place', inCountry || inState || inCity);
  }
  if (c.industryIds.length > 0) add('industry', p.industryId !== null && c.industryIds.includes(p.industryId));
  // A range open at both ends takes every size: then sizes do not constrain (as in the SQL).
  if (c.companySizes.length > 0 && c.companySizes.every((r) => r.min !== undefined || r.max !== undefined)) {
    const n = p.companySize;
    add('companySize', n !== null && c.companySizes.some((r) => (r.min === undefined || n >= r.min) && (r.max === undefined || n <= r.max)));
  }
  const keywords = c.keywords.flatMap(keywordForms);
  if (keywords.length > 0) add('keywords', hasKeyword(lead.keywordText, c.keywords));
  const custom = (c.custom ?? []).filter((x) => x.values.length > 0);
  if (custom.length > 0) add('custom', custom.every((x) => customMatches(lead.customFields, x)));
  add('exclude', !excluded(c, lead));
  return out;
}

/** Whether the lead meets the criteria: every group met. */
export function matchesCriteria(c: LeadCriteria, lead: MatchableLead): boolean {
  return criteriaVerdicts(c, lead).every((v) => v.met);
}

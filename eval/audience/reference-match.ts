/**
 * An in-memory reference matcher with the semantics documented on LeadCriteria, for the
 * evaluation (the service matches in SQL). Read as:
 * - titleKeys and titleRoles are one group, the lead's title: it matches a key or a role (a role's
 *   null side matches anything);
 * - every other non-empty list must match (OR within the list); an empty list does not constrain;
 * - keywords: one of them is a substring of the lead's folded title, company or industry;
 *   `unrecognised` only lists what is already in keywords;
 * - a lead matching any exclusion is left out (companies: case and spacing ignored; domains: the
 *   email's domain or a subdomain of it).
 */
import { fold } from '../../src/leads/profile/normalize';
import type { LeadCriteria, LeadProfile } from '../../src/leads/profile/types';

export interface MatchableLead {
  readonly profile: LeadProfile;
  readonly company: string | null;
  readonly industry: string | null;
  readonly email: string | null;
}

type Role = LeadCriteria['titleRoles'][number];

const roleMatches = (p: LeadProfile, r: Role): boolean =>
  (r.seniority === null || r.seniority === p.seniority) && (r.department === null || r.department === p.department) && (r.seniority !== null || r.department !== null);

const companyKey = (s: string): string => s.toLowerCase().replace(/\s+/g, '');

function haystack(lead: MatchableLead): string {
  return ` ${lead.profile.titleNorm ?? ''} | ${fold(lead.company ?? '')} | ${fold(lead.industry ?? '')} `;
}

export function matches(c: LeadCriteria, lead: MatchableLead): boolean {
  const p = lead.profile;
  if (c.titleKeys.length + c.titleRoles.length > 0) {
    const byKey = p.titleKey !== null && c.titleKeys.includes(p.titleKey);
    if (!byKey && !c.titleRoles.some((r) => roleMatches(p, r))) return false;
  }
  if (c.seniorities.length > 0 && (p.seniority === null || !c.seniorities.includes(p.seniority))) return false;
  if (c.departments.length > 0 && (p.department === null || !c.departments.includes(p.department))) return false;
  if (c.countryCodes.length > 0 && (p.countryCode === null || !c.countryCodes.includes(p.countryCode))) return false;
  if (c.cities.length > 0 && !c.cities.some((x) => x.city === p.cityNorm && x.countryCode === p.countryCode)) return false;
  if (c.industryIds.length > 0 && (p.industryId === null || !c.industryIds.includes(p.industryId))) return false;
  if (c.companySizes.length > 0) {
    const n = p.companySize;
    if (n === null || !c.companySizes.some((r) => (r.min === undefined || n >= r.min) && (r.max === undefined || n <= r.max))) return false;
  }
  const text = haystack(lead);
  if (c.keywords.length > 0 && !c.keywords.some((k) => text.includes(k))) return false;

  const ex = c.exclude;
  if (p.titleKey !== null && ex.titleKeys.includes(p.titleKey)) return false;
  if ((ex.titleRoles ?? []).some((r) => roleMatches(p, r))) return false;
  if (p.industryId !== null && (ex.industryIds ?? []).includes(p.industryId)) return false;
  if ((ex.keywords ?? []).some((k) => text.includes(k))) return false;
  if (lead.company !== null && ex.companies.some((x) => companyKey(x) === companyKey(lead.company!))) return false;
  const email = lead.email?.toLowerCase() ?? null;
  if (email !== null) {
    if (ex.emails.includes(email)) return false;
    const domain = email.slice(email.indexOf('@') + 1);
    if (ex.domains.some((d) => domain === d || domain.endsWith(`.${d}`))) return false;
  }
  return true;
}

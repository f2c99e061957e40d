import { FIELD_LIMITS, isValidEmail, normalizeDomain, normalizeLinkedinUrl } from '../fields';
import type { ProviderLead } from '../lead-repository';
import type { ApolloPerson } from './types';

/**
 * The address Apollo gives for a person, when it is a real one. Apollo answers searches with a
 * placeholder ("email_not_unlocked@domain.com") for addresses the account has not revealed.
 */
export function usableEmail(email: string | null | undefined): string | null {
  if (typeof email !== 'string') return null;
  const e = email.trim().toLowerCase();
  if (e === '' || e.startsWith('email_not_unlocked@') || e.endsWith('@domain.com')) return null;
  return isValidEmail(e) ? e : null;
}

const clip = (value: string | null | undefined, max: number): string | null => {
  if (typeof value !== 'string') return null;
  const v = value.trim();
  return v === '' ? null : v.slice(0, max);
};

/**
 * An Apollo person as a lead, or null when Apollo has no usable address for them (a lead is an
 * address to write to). Provider data is cleaned, not refused: long values are clipped, a domain
 * is taken from the website when Apollo has no primary domain, unusable URLs are dropped.
 */
export function personToLead(p: ApolloPerson, fallbackEmail: string | null = null): ProviderLead | null {
  const email = usableEmail(p.email) ?? fallbackEmail;
  if (email === null) return null;
  const org = p.organization ?? null;
  const domainSource = org?.primary_domain ?? org?.website_url ?? null;
  const seniority = clip(p.seniority, FIELD_LIMITS.seniority);
  const employees = org?.estimated_num_employees;
  const companySize = typeof employees === 'number' && employees > 0 ? String(Math.floor(employees)) : null;
  const phone = (p.phone_numbers ?? []).map((n) => n.sanitized_number ?? n.raw_number ?? null).find((n) => typeof n === 'string' && n.trim() !== '');
  return {
    email,
    externalId: p.id,
    firstName: clip(p.first_name, FIELD_LIMITS.firstName),
    lastName: clip(p.last_name, FIELD_LIMITS.lastName),
    title: clip(p.title, FIELD_LIMITS.title),
    company: clip(org?.name ?? p.organization_name, FIELD_LIMITS.company),
    companyDomain: domainSource === null ? null : normalizeDomain(domainSource),
    industry: clip(org?.industry, FIELD_LIMITS.industry),
    city: clip(p.city, FIELD_LIMITS.city),
    state: clip(p.state, FIELD_LIMITS.state),
    country: clip(p.country, FIELD_LIMITS.country),
    linkedinUrl: typeof p.linkedin_url === 'string' ? normalizeLinkedinUrl(p.linkedin_url) : null,
    phone: clip(phone, FIELD_LIMITS.phone),
    // Seniority and head count feed the lead's profile (what an audience's filters match); absent when Apollo has none.
    ...(seniority === null ? {} : { seniority }),
    ...(companySize === null ? {} : { companySize }),
  };
}

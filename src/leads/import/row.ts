import { FIELD_LIMITS, isValidEmail, isValidPhone, normalizeDomain, normalizeLinkedinUrl, splitFullName, splitLocation, type LeadInput, type LeadField } from '../fields';
import type { ColumnMap, ColumnTarget } from './columns';

export type RowOutcome = { readonly ok: true; readonly lead: LeadInput } | { readonly ok: false; readonly error: string };

const quote = (v: string): string => JSON.stringify(v.length > 60 ? `${v.slice(0, 57)}...` : v);

/**
 * One data row as a lead, or the reason it cannot be one. Empty cells are absent values; a full
 * name or a location fills the name or place fields only where those have no column of their own
 * (or an empty one). The first reason found is reported.
 */
export function rowToLead(values: readonly string[], map: ColumnMap): RowOutcome {
  if (values.length > map.names.length) {
    return { ok: false, error: `row has ${values.length} fields, the header has ${map.names.length} (an unquoted comma?)` };
  }
  const cell = (target: ColumnTarget): { value: string; column: string } | null => {
    for (const i of map.columns.get(target) ?? []) {
      const v = (values[i] ?? '').trim();
      if (v !== '') return { value: v, column: map.names[i] ?? target };
    }
    return null;
  };

  const email = cell('email');
  if (email === null) return { ok: false, error: 'email is missing' };
  const address = email.value.toLowerCase();
  if (!isValidEmail(address)) return { ok: false, error: `${email.column} ${quote(email.value)} is not a valid email address` };

  const out: Record<Exclude<LeadField, 'email'>, string | null> = {
    firstName: null,
    lastName: null,
    title: null,
    company: null,
    companyDomain: null,
    industry: null,
    city: null,
    state: null,
    country: null,
    linkedinUrl: null,
    phone: null,
  };
  for (const field of Object.keys(out) as Array<keyof typeof out>) {
    const c = cell(field);
    if (c === null) continue;
    if (field === 'companyDomain') {
      const domain = normalizeDomain(c.value);
      if (domain === null) return { ok: false, error: `${c.column} ${quote(c.value)} is not a domain or website address` };
      out.companyDomain = domain;
    } else if (field === 'linkedinUrl') {
      const url = normalizeLinkedinUrl(c.value);
      if (url === null) return { ok: false, error: `${c.column} ${quote(c.value)} is not a LinkedIn profile URL (https://www.linkedin.com/in/...)` };
      out.linkedinUrl = url;
    } else if (field === 'phone') {
      if (!isValidPhone(c.value)) return { ok: false, error: `${c.column} ${quote(c.value)} is not a phone number` };
      out.phone = c.value;
    } else {
      if (c.value.length > FIELD_LIMITS[field]) return { ok: false, error: `${c.column} is longer than ${FIELD_LIMITS[field]} characters` };
      out[field] = c.value;
    }
  }

  const full = cell('fullName');
  if (full !== null && out.firstName === null && out.lastName === null) {
    const { firstName, lastName } = splitFullName(full.value);
    if ((firstName?.length ?? 0) > FIELD_LIMITS.firstName || (lastName?.length ?? 0) > FIELD_LIMITS.lastName) {
      return { ok: false, error: `${full.column} is too long for a name` };
    }
    Object.assign(out, { firstName, lastName });
  }
  const location = cell('location');
  if (location !== null && out.city === null && out.state === null && out.country === null) {
    const place = splitLocation(location.value);
    if (Object.values(place).some((p) => p !== null && p.length > FIELD_LIMITS.city)) return { ok: false, error: `${location.column} is too long for a location` };
    Object.assign(out, place);
  }
  return { ok: true, lead: { email: address, ...out } };
}

import { customFieldValues } from '../custom-fields';
import { FIELD_LIMITS, isValidEmail, isValidPhone, normalizeDomain, normalizeLinkedinUrl, splitFullName, splitLocation, type LeadInput, type LeadField } from '../fields';
import type { ColumnMap, ColumnTarget } from './columns';

export type RowOutcome = { readonly ok: true; readonly lead: LeadInput } | { readonly ok: false; readonly error: string };

const quote = (v: string): string => JSON.stringify(v.length > 60 ? `${v.slice(0, 57)}...` : v);

/** Fields that only feed the lead's profile: an odd value there is no reason to refuse the lead, so it is clipped. */
const CONTEXT_FIELDS = ['seniority', 'department', 'companySize'] as const;

/**
 * One data row as a lead, or the reason it cannot be one. Empty cells are absent values; a full
 * name or a location fills the name or place fields only where those have no column of their own
 * (or an empty one), and the company's place fills them only when the row has no place of the
 * person at all. The other columns are the lead's custom fields. The first reason found is reported.
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

  const out: Record<Exclude<LeadField, 'email' | (typeof CONTEXT_FIELDS)[number]>, string | null> = {
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
  const noPlace = (): boolean => out.city === null && out.state === null && out.country === null;
  const location = cell('location') ?? (noPlace() ? cell('companyLocation') : null);
  if (location !== null && noPlace()) {
    const place = splitLocation(location.value);
    if (Object.values(place).some((p) => p !== null && p.length > FIELD_LIMITS.city)) return { ok: false, error: `${location.column} is too long for a location` };
    Object.assign(out, place);
  }
  if (noPlace()) {
    for (const [field, target] of [['city', 'companyCity'], ['state', 'companyState'], ['country', 'companyCountry']] as const) {
      const c = cell(target);
      if (c === null) continue;
      if (c.value.length > FIELD_LIMITS[field]) return { ok: false, error: `${c.column} is longer than ${FIELD_LIMITS[field]} characters` };
      out[field] = c.value;
    }
  }

  const context: Partial<Record<(typeof CONTEXT_FIELDS)[number], string>> = {};
  for (const field of CONTEXT_FIELDS) {
    const c = cell(field);
    if (c !== null) context[field] = c.value.slice(0, FIELD_LIMITS[field]);
  }
  const customFields = customFieldValues(values, map.custom);
  return { ok: true, lead: { email: address, ...out, ...context, ...(customFields === undefined ? {} : { customFields }) } };
}

/**
 * What a lead's fields may hold, shared by the CSV importer (which rejects a row that breaks
 * them) and the provider mapping (which cleans what the provider sends instead of rejecting it).
 */

/** Longest value stored per field; longer values are an import error (or clipped, from a provider). */
export const FIELD_LIMITS = {
  email: 254,
  firstName: 100,
  lastName: 100,
  title: 200,
  company: 200,
  companyDomain: 253,
  industry: 100,
  city: 100,
  state: 100,
  country: 100,
  linkedinUrl: 300,
  phone: 40,
  seniority: 100,
  department: 200,
  companySize: 40,
} as const;

/** A lead as it enters the store: the address lower-cased, every other field optional. */
export interface LeadInput {
  readonly email: string;
  readonly firstName: string | null;
  readonly lastName: string | null;
  readonly title: string | null;
  readonly company: string | null;
  readonly companyDomain: string | null;
  readonly industry: string | null;
  readonly city: string | null;
  readonly state: string | null;
  readonly country: string | null;
  readonly linkedinUrl: string | null;
  readonly phone: string | null;
  /**
   * What imports (and providers) carry beyond the fields above, stored raw next to the profile
   * computed from them: a seniority ("Director", "c_suite"), departments, a company size ("51-200").
   */
  readonly seniority?: string | null;
  readonly department?: string | null;
  readonly companySize?: string | null;
  /**
   * The import's columns that are no lead field, by normalised name (src/leads/custom-fields.ts);
   * absent or empty when the lead has none. Providers carry none.
   */
  readonly customFields?: Readonly<Record<string, string>>;
}

/** The fields a CSV column can name (custom fields are named by their own column: custom-fields.ts). */
export type LeadField = Exclude<keyof LeadInput, 'customFields'>;

// The practical address grammar (what mail systems accept in the wild), not RFC 5322's comments and
// quoted local parts: a dotted domain whose labels are letters, digits and inner hyphens.
const EMAIL = /^[a-z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/i;

export function isValidEmail(value: string): boolean {
  if (value.length > FIELD_LIMITS.email || !EMAIL.test(value)) return false;
  const local = value.slice(0, value.lastIndexOf('@'));
  return local.length <= 64 && !local.startsWith('.') && !local.endsWith('.') && !local.includes('..');
}

const HOSTNAME = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/;

/**
 * The bare company domain from a domain or a website address ("https://www.Acme.com/about" ->
 * "acme.com"), or null when it is not one. Stored bare so searches and matches compare like with like.
 */
export function normalizeDomain(value: string): string | null {
  let v = value.trim().toLowerCase();
  if (v === '') return null;
  if (!/^[a-z][a-z0-9+.-]*:\/\//.test(v)) v = `http://${v}`;
  let host: string;
  try {
    const url = new URL(v);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    if (url.username !== '' || url.password !== '') return null;
    host = url.hostname;
  } catch {
    return null;
  }
  host = host.replace(/^www\./, '').replace(/\.$/, '');
  return HOSTNAME.test(host) ? host : null;
}

// linkedin.com or a country subdomain (uk.linkedin.com), then a profile path: /in/<slug> or the
// older /pub/<slug>/... form.
const LINKEDIN = /^https?:\/\/(?:[a-z]{2,3}\.|www\.)?linkedin\.com\/(?:in|pub)\/[^\s/?#]+(?:\/[^\s?#]*)?(?:[?#]\S*)?$/i;

/** A LinkedIn profile address (a scheme is added when missing), or null when it is not one. */
export function normalizeLinkedinUrl(value: string): string | null {
  let v = value.trim();
  if (v === '') return null;
  if (!/^https?:\/\//i.test(v)) v = `https://${v}`;
  return v.length <= FIELD_LIMITS.linkedinUrl && LINKEDIN.test(v) ? v : null;
}

// Digits with the usual separators, an optional leading + and an optional extension.
const PHONE = /^\+?[0-9 ().\-/]+(?:\s*(?:x|ext\.?)\s*[0-9]{1,6})?$/i;

export function isValidPhone(value: string): boolean {
  const digits = value.replace(/\D/g, '').length;
  return value.length <= FIELD_LIMITS.phone && PHONE.test(value) && digits >= 5 && digits <= 20;
}

/** Splits "Ada King Lovelace" into first name "Ada" and last name "King Lovelace". */
export function splitFullName(full: string): { firstName: string | null; lastName: string | null } {
  const parts = full.trim().split(/\s+/).filter((p) => p !== '');
  if (parts.length === 0) return { firstName: null, lastName: null };
  return { firstName: parts[0] ?? null, lastName: parts.length > 1 ? parts.slice(1).join(' ') : null };
}

/**
 * A free-text location ("Austin, Texas, United States") as city, state and country: one part is
 * a country, two are city and country, three or more are city, state and country.
 */
export function splitLocation(location: string): { city: string | null; state: string | null; country: string | null } {
  const parts = location.split(',').map((p) => p.trim()).filter((p) => p !== '');
  if (parts.length === 0) return { city: null, state: null, country: null };
  if (parts.length === 1) return { city: null, state: null, country: parts[0] ?? null };
  if (parts.length === 2) return { city: parts[0] ?? null, state: null, country: parts[1] ?? null };
  return { city: parts[0] ?? null, state: parts.slice(1, -1).join(', '), country: parts[parts.length - 1] ?? null };
}

/**
 * Domains reserved for testing and documentation (RFC 2606, RFC 6761): example.com, example.net,
 * example.org and their subdomains, and every name under .example, .test, .invalid and .localhost.
 * No mail server on the internet answers for them, so DNS alone would call them invalid; in
 * development they are how the local trial addresses leads, and the local SMTP sink takes their
 * mail. What they count as is a setting (EMAIL_VERIFY_RESERVED_DOMAINS, see docs/verification.md).
 */
const RESERVED_SECOND_LEVEL = ['example.com', 'example.net', 'example.org'];
const RESERVED_TOP_LEVEL = ['example', 'test', 'invalid', 'localhost'];

export function isReservedDomain(domain: string): boolean {
  const d = domain.toLowerCase().replace(/\.$/, '');
  if (RESERVED_SECOND_LEVEL.some((r) => d === r || d.endsWith(`.${r}`))) return true;
  const tld = d.slice(d.lastIndexOf('.') + 1);
  return RESERVED_TOP_LEVEL.includes(tld);
}

/** deliver: reserved domains pass (development, the local sink); invalid: they fail (production). */
export type ReservedDomainMode = 'deliver' | 'invalid';

import emailAddresses from 'email-addresses';
import type { CheckResult } from './types';

/** The parts of a well-formed address the other checks read. */
export interface ParsedAddress {
  readonly local: string;
  /** Lower case. */
  readonly domain: string;
}

export type SyntaxOutcome = { readonly check: CheckResult; readonly address: ParsedAddress | null };

const fail = (detail: string): SyntaxOutcome => ({ check: { result: 'fail', detail }, address: null });

/**
 * RFC 5322 syntax through the email-addresses parser (no regex of our own), narrowed to what a
 * lead's address must be: one mailbox, with no display name or comment, no quoted local part with
 * spaces (legal, but no mail system hands those out and many refuse them), and a domain name with a
 * dot (not a bare host or an IP literal). Internationalised addresses (RFC 6532) are accepted.
 */
export function checkSyntax(email: string): SyntaxOutcome {
  const input = email.trim();
  if (input === '') return fail('empty address');
  const parsed = emailAddresses.parseOneAddress({ input, rfc6532: true });
  if (parsed === null) return fail('not an RFC 5322 address');
  if (parsed.type !== 'mailbox') return fail('a group, not one mailbox');
  if (parsed.name !== null) return fail('a display name around the address');
  if (parsed.parts.comments.length > 0) return fail('a comment in the address');
  if (parsed.parts.local.tokens.trim().startsWith('"') && /\s/.test(parsed.local)) return fail('a quoted local part with spaces');
  const domain = parsed.domain.toLowerCase();
  if (domain.startsWith('[')) return fail('an IP literal instead of a domain name');
  if (!domain.includes('.') || domain.endsWith('.')) return fail('a domain without a dot');
  return { check: { result: 'pass', detail: 'RFC 5322 address' }, address: { local: parsed.local, domain } };
}

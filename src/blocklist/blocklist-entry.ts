import { domainToASCII } from 'node:url';
import emailAddresses from 'email-addresses';
import { parse as parseHost } from 'tldts';

export type BlocklistKind = 'address' | 'domain';

/** One blocklist value as stored: a lower-case address, or a lower-case punycode domain without dots at its ends. */
export interface BlocklistEntryValue {
  readonly kind: BlocklistKind;
  readonly value: string;
}

export type ParsedEntry = { readonly ok: true; readonly entry: BlocklistEntryValue } | { readonly ok: false; readonly error: string };

/** Longest address (RFC 5321's path limit) and domain (RFC 1035) the list takes. */
const MAX_ADDRESS = 254;
const MAX_DOMAIN = 253;

/**
 * A plain addr-spec in dot-atom form: every string it matches is a valid RFC 5322 address, so
 * the full parser is skipped for it. The parser costs ~35 µs an address, half a minute for a
 * million-row import; anything else (a display name, a quoted local part, non-ASCII) still goes
 * through it.
 */
const DOT_ATOM_ADDRESS = /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@[a-z0-9-]+(?:\.[a-z0-9-]+)+$/i;

const quoted = (raw: string): string => JSON.stringify(raw.length > 80 ? `${raw.slice(0, 80)}…` : raw);

/**
 * The registrable domain's check: a hostname (IDN as punycode, lower case) that has a registrable
 * domain under a public suffix ("example.com", "a.b.example.co.uk") or under a name the public
 * suffix list does not know ("acme.example": its last label counts as the suffix, as tldts reads
 * it). A public suffix itself ("com", "co.uk"), a single label ("localhost") and an IP address are
 * refused: blocking them would block whole countries or nothing.
 */
function checkDomain(host: string): { ok: true; domain: string } | { ok: false; why: string } {
  const ascii = domainToASCII(host.replace(/\.+$/, ''));
  if (ascii === '' || ascii.length > MAX_DOMAIN) return { ok: false, why: 'not a domain' };
  const parsed = parseHost(ascii);
  if (parsed.isIp === true) return { ok: false, why: 'an IP address, not a domain' };
  if (parsed.hostname === null || parsed.hostname !== ascii || !/^[a-z0-9.-]+$/.test(ascii)) return { ok: false, why: 'not a domain' };
  if (parsed.domain === null) {
    return { ok: false, why: ascii.includes('.') ? 'a public suffix shared by many owners, not one domain' : 'a single-label name, not a domain' };
  }
  return { ok: true, domain: ascii };
}

function parseAddress(raw: string): ParsedEntry {
  const fail = (why: string): ParsedEntry => ({ ok: false, error: `${quoted(raw)} is not a valid email address: ${why}` });
  let local: string;
  let domain: string;
  if (DOT_ATOM_ADDRESS.test(raw)) {
    const at = raw.lastIndexOf('@');
    local = raw.slice(0, at);
    domain = raw.slice(at + 1);
  } else {
    // "Ada <ada@example.com>" is read as its address, as mail clients copy it.
    const parsed = emailAddresses.parseOneAddress({ input: raw, rfc6532: true });
    if (parsed === null || parsed.type !== 'mailbox') return fail('RFC 5322 cannot read it');
    local = parsed.local;
    domain = parsed.domain;
  }
  if (local.length > 64) return fail('the part before @ is longer than 64 characters');
  const host = checkDomain(domain.toLowerCase());
  if (!host.ok) return fail(`its domain ${quoted(domain)} is ${host.why}`);
  const value = `${local}@${host.domain}`.toLowerCase();
  if (value.length > MAX_ADDRESS) return fail(`longer than ${MAX_ADDRESS} characters`);
  return { ok: true, entry: { kind: 'address', value } };
}

/** "https://Example.com/x", "*.example.com", "@example.com" and "www.example.com" to the host they name. */
function hostOf(raw: string): string {
  let s = raw.toLowerCase();
  if (/^[a-z][a-z0-9+.-]*:\/\//.test(s)) {
    try {
      s = new URL(s).hostname;
    } catch {
      return s;
    }
  }
  s = s.replace(/^\*\./, '').replace(/^@/, '').replace(/^\.+/, '');
  return s;
}

/**
 * One value a user gave the blocklist, as what it blocks: an address (validated by an RFC 5322
 * parser, lower-cased, its domain in punycode) or a domain (given bare, as "@example.com",
 * "*.example.com" or a website address; a leading "www." is dropped, since mail never comes
 * from it and the user means the company). Anything else is an error naming the value.
 */
export function parseBlocklistValue(input: string): ParsedEntry {
  const raw = input.trim();
  if (raw === '') return { ok: false, error: 'the value is empty: expected an email address or a domain' };
  // "@example.com" names a domain; any other @ makes it an address.
  if (raw.includes('@') && !raw.startsWith('@') && !/^[a-z][a-z0-9+.-]*:\/\//i.test(raw)) return parseAddress(raw);
  const host = hostOf(raw);
  const bare = host.startsWith('www.') && checkDomain(host.slice(4)).ok ? host.slice(4) : host;
  const domain = checkDomain(bare);
  if (domain.ok) return { ok: true, entry: { kind: 'domain', value: domain.domain } };
  const why = domain.why === 'not a domain' ? 'neither an email address nor a domain' : `${domain.why}; block an address or a domain of one owner`;
  return { ok: false, error: `${quoted(raw)} is ${why}` };
}

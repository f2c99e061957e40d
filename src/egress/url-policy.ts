import { isIP } from 'node:net';
import { judgeAddress, type AddressPolicy } from './address-policy';
import { EgressError } from './errors';

/**
 * Checks a URL before any connection is made: absolute, http or https, no user or password, a
 * host. Any port is allowed: blocking ports protects nothing once the address is public, and real
 * sites and providers do run on 8080 or 8443.
 *
 * The WHATWG parser has already rewritten every spelling of an IPv4 address (decimal 2130706433,
 * octal 0177.0.0.1, hex 0x7f.0.0.1) to dotted decimal, so a literal IP host is judged here and the
 * caller gets a clear error without a connection attempt. The connector checks it again at connect
 * time (see guarded-agent.ts), which is where names are checked.
 */
export function checkEgressUrl(input: string | URL, policy: AddressPolicy): URL {
  let url: URL;
  try {
    url = typeof input === 'string' ? new URL(input) : new URL(input.href);
  } catch {
    throw new EgressError('bad_url', `Not an absolute URL: ${truncate(String(input))}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new EgressError('bad_url', `Only http and https URLs are allowed, not ${url.protocol.replace(/:$/, '')}`);
  }
  if (url.username !== '' || url.password !== '') throw new EgressError('bad_url', 'URLs with credentials are not allowed');
  if (url.hostname === '') throw new EgressError('bad_url', 'The URL has no host');
  const literal = unbracket(url.hostname);
  if (isIP(literal) !== 0) assertAllowedAddress(literal, policy, literal);
  return url;
}

/** Throws 'blocked_address' unless the policy allows connecting to `address`. */
export function assertAllowedAddress(address: string, policy: AddressPolicy, host: string): void {
  const verdict = judgeAddress(address, policy);
  if (!verdict.allowed) {
    const via = host === address ? '' : ` (${host} resolves to it)`;
    throw new EgressError('blocked_address', `Refused to connect to ${address}${via}: ${verdict.range} address`);
  }
}

export function unbracket(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}

function truncate(s: string): string {
  return s.length > 200 ? `${s.slice(0, 200)}…` : s;
}

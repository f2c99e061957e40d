import { isIP } from 'node:net';
import { explainRefusal, judgeAddress, type AddressPolicy } from './address-policy';
import { EgressError } from './errors';

/**
 * Checks a URL before any connection is made: absolute, http or https, no user or password, a
 * host. Any port is allowed: blocking ports protects nothing once the address is public, and real
 * sites and providers do run on 8080 or 8443.
 *
 * The WHATWG parser has already rewritten every spelling of an IPv4 address (decimal 2130706433,
 * octal 0177.0.0.1, hex 0x7f.0.0.1) to dotted decimal, so a literal IP host is judged here and the
 * caller gets a clear error without a connection attempt; so is a name that always means this
 * machine (`localhost`). The connector checks again at connect time (see guarded-agent.ts), which
 * is where other names are checked.
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
  assertAllowedHost(url.hostname, policy);
  return url;
}

/**
 * Throws 'blocked_address' when a URL's host (as the WHATWG parser leaves it) is refused whatever DNS
 * says: an IP address the policy refuses, or a loopback name while loopback is not allowed. Other
 * names pass: their addresses are judged when connecting.
 */
export function assertAllowedHost(hostname: string, policy: AddressPolicy): void {
  const host = unbracket(hostname);
  if (isIP(host) !== 0) assertAllowedAddress(host, policy, host);
  else if (isLoopbackName(host) && !policy.allowLoopback) throw new EgressError('blocked_address', `Refused to connect to ${host}: loopback name`);
}

/** What a URL's host tells before any lookup: see `judgeHost`. */
export interface HostJudgement {
  /** 127.0.0.0/8, ::1 (IPv4-mapped included) or a loopback name. */
  readonly loopback: boolean;
  /** Why the policy refuses the host, in words, or null. A name other than a loopback one is never refused here. */
  readonly refusal: string | null;
}

/**
 * Judges a URL's host (as the WHATWG parser leaves it: `127.0.0.1`, `[::ffff:7f00:1]`, `localhost.`)
 * by the same policy the connector applies, for callers that check a URL when it is saved (webhook
 * destinations) rather than when it is used. An IP address or a loopback name is judged as the
 * connector will judge it; any other name passes, since only its addresses at connect time count.
 */
export function judgeHost(hostname: string, policy: AddressPolicy): HostJudgement {
  const host = unbracket(hostname);
  if (isIP(host) !== 0) {
    const strict = judgeAddress(host, { allowLoopback: false });
    return { loopback: !strict.allowed && strict.range === 'loopback', refusal: explainRefusal(host, policy) };
  }
  if (isLoopbackName(host)) return { loopback: true, refusal: policy.allowLoopback ? null : `${host} is a loopback name (it always means this machine)` };
  return { loopback: false, refusal: null };
}

/**
 * Names that mean this machine whatever DNS says: `localhost` and every name under it (RFC 6761),
 * and the aliases Linux hosts files give 127.0.0.1 and ::1. A trailing dot (`localhost.`) changes
 * nothing. Judged without a lookup so that they are refused before any resolver is asked.
 */
export function isLoopbackName(host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost') || LOOPBACK_ALIASES.has(name);
}

const LOOPBACK_ALIASES = new Set(['localhost.localdomain', 'ip6-localhost', 'ip6-loopback']);

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

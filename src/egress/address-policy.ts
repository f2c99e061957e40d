import ipaddr from 'ipaddr.js';

export interface AddressPolicy {
  /** Dev/test only: also allow 127.0.0.0/8 and ::1. Private and every other range stay refused. */
  readonly allowLoopback: boolean;
}

export type AddressVerdict = { readonly allowed: true } | { readonly allowed: false; readonly range: string };

/**
 * IPv6 outside 2000::/3 (the global unicast block) is never a public host: this one rule refuses
 * the IPv4-compatible ::/96 (`::127.0.0.1`), ::ffff:0:0/96 translated addresses, discard-only and
 * unassigned space, which ipaddr.js would otherwise label plain "unicast".
 */
const IPV6_GLOBAL_UNICAST = ipaddr.IPv6.parseCIDR('2000::/3');

/**
 * Decides whether the service may connect to one IP address.
 *
 * An address is allowed only when ipaddr.js classifies it as plain `unicast`, i.e. it lies in none
 * of its special ranges: for IPv4 unspecified 0/8, broadcast, multicast, link-local 169.254/16
 * (which holds the cloud metadata address 169.254.169.254), loopback 127/8, CGNAT 100.64/10, RFC 1918
 * private, reserved, benchmarking 198.18/15 and documentation ranges, AS112 and AMT; for IPv6 `::`,
 * `::1`, link-local, multicast, unique-local fc00::/7 (which holds the AWS metadata address
 * fd00:ec2::254), site-local, Teredo, benchmarking, ORCHID, documentation and the rest.
 *
 * An IPv4-mapped IPv6 address (`::ffff:127.0.0.1`) is judged as the IPv4 address it maps to.
 *
 * Transition prefixes that embed an IPv4 address (NAT64 64:ff9b::/96 and 64:ff9b:1::/48, 6to4
 * 2002::/16, Teredo 2001::/32) are refused outright rather than decoded: the local-use NAT64 prefix
 * may embed the IPv4 at several prefix lengths, Teredo obfuscates it, and 6to4 is deprecated
 * (RFC 7526). A public site is reachable at its native addresses, so nothing real is lost, and a
 * decoder we got wrong would be an SSRF hole.
 */
export function judgeAddress(address: string, policy: AddressPolicy): AddressVerdict {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    // process() turns ::ffff:a.b.c.d into the IPv4 address a.b.c.d.
    parsed = ipaddr.process(canonicalIPv6(address));
  } catch {
    return { allowed: false, range: 'unparseable' };
  }
  const range = parsed.range();
  if (range === 'loopback' && policy.allowLoopback && isPlainLoopback(parsed)) return { allowed: true };
  if (range !== 'unicast') return { allowed: false, range };
  if (parsed.kind() === 'ipv6' && !parsed.match(IPV6_GLOBAL_UNICAST)) return { allowed: false, range: 'non-global IPv6' };
  return { allowed: true };
}

/**
 * ipaddr.js reads any IPv6 address with a dotted tail as IPv4-mapped: `::127.0.0.1` (which is
 * ::7f00:1, IPv4-compatible) would come out as ::ffff:127.0.0.1, and glibc prints resolved
 * addresses in that dotted form. Rewriting through the WHATWG URL parser gives the same bits in
 * hex, so we judge exactly the address the socket will use.
 */
function canonicalIPv6(address: string): string {
  if (!address.includes(':') || !address.includes('.')) return address;
  return new URL(`http://[${address}]/`).hostname.slice(1, -1);
}

/**
 * Why the policy refuses `address`, in words for whoever typed it (`169.254.169.254 is a cloud
 * metadata address (link-local)`), or null when it is allowed. An IPv4-mapped address is shown with
 * the IPv4 address it stands for, since that is what it reaches.
 */
export function explainRefusal(address: string, policy: AddressPolicy): string | null {
  const verdict = judgeAddress(address, policy);
  if (verdict.allowed) return null;
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.process(canonicalIPv6(address));
  } catch {
    return `${address} is not an IP address`;
  }
  const judged = parsed.toString();
  const metadataRange = METADATA_ADDRESSES.get(judged);
  const words = metadataRange === undefined ? (RANGE_WORDS[verdict.range] ?? `a ${verdict.range} address`) : `a cloud metadata address (${metadataRange})`;
  return parsed.kind() === 'ipv4' && address.includes(':') ? `${address} is ${judged}, ${words}` : `${address} is ${words}`;
}

/**
 * Where cloud providers serve instance metadata and credentials (AWS, Azure, GCP and most others on
 * 169.254.169.254; AWS ECS on 169.254.170.2, AWS over IPv6 on fd00:ec2::254; Alibaba on
 * 100.100.100.200), with the range that refuses each. Naming them says why the refusal matters.
 */
const METADATA_ADDRESSES: ReadonlyMap<string, string> = new Map([
  ['169.254.169.254', 'link-local'],
  ['169.254.170.2', 'link-local'],
  ['fd00:ec2::254', 'unique local'],
  ['100.100.100.200', 'carrier-grade NAT'],
]);

/** ipaddr.js's range names (and ours above) as a person would say them. */
const RANGE_WORDS: Readonly<Record<string, string>> = {
  loopback: 'a loopback address',
  private: 'a private address (RFC 1918)',
  linkLocal: 'a link-local address',
  uniqueLocal: 'a unique local address (fc00::/7)',
  carrierGradeNat: 'a carrier-grade NAT address (100.64.0.0/10)',
  unspecified: 'an unspecified address',
  broadcast: 'the broadcast address',
  multicast: 'a multicast address',
  reserved: 'a reserved address',
  benchmarking: 'a benchmarking address',
  discard: 'a discard-only address',
  rfc6052: 'a NAT64 address',
  rfc6145: 'an IPv4-translated address',
  '6to4': 'a 6to4 address',
  teredo: 'a Teredo address',
  'non-global IPv6': 'not a global unicast IPv6 address',
};

/** 127.0.0.0/8 or ::1 (the only loopback ipaddr.js knows for IPv6). */
function isPlainLoopback(a: ipaddr.IPv4 | ipaddr.IPv6): boolean {
  return a.kind() === 'ipv4' || a.toNormalizedString() === '0:0:0:0:0:0:0:1';
}

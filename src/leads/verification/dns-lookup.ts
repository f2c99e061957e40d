import { promises as dns, type MxRecord } from 'node:dns';
import type { CheckResult } from './types';

export interface DnsSettings {
  /** Resolver addresses as `ip`, `ip:port` or `[ipv6]:port`; empty: the system's resolvers. */
  readonly servers: readonly string[];
  /** Longest one stage of a lookup (the MX query, then the A/AAAA queries) may take. */
  readonly timeoutMs: number;
}

/**
 * A resolver of its own (not the process-wide one), so the servers a test or an operator names
 * apply to verification alone. One try per server: a slow domain should cost its timeout, not four
 * times it (c-ares retries four times by default).
 */
export function createResolver(settings: DnsSettings): dns.Resolver {
  const resolver = new dns.Resolver({ timeout: settings.timeoutMs, tries: 1 });
  if (settings.servers.length > 0) resolver.setServers([...settings.servers]);
  return resolver;
}

/** Codes that mean "the name has no such record" (NODATA) or "no such name" (NXDOMAIN): a real answer. */
const NO_DATA = 'ENODATA';
const NO_NAME = 'ENOTFOUND';

/** Why a lookup had no answer, for the codes worth naming; anything else is shown by its code. */
const UNANSWERED: Readonly<Record<string, string>> = {
  ETIMEOUT: 'DNS did not answer in time',
  ESERVFAIL: 'the DNS server failed (SERVFAIL)',
  EREFUSED: 'the DNS server refused the query',
  ECONNREFUSED: 'the DNS server could not be reached',
  ECANCELLED: 'the DNS query was cancelled',
};

const codeOf = (err: unknown): string => (typeof err === 'object' && err !== null && typeof (err as { code?: unknown }).code === 'string' ? (err as { code: string }).code : 'EUNKNOWN');

const unknownBecause = (code: string): CheckResult => ({ result: 'unknown', detail: UNANSWERED[code] ?? `DNS could not answer (${code})` });

class DeadlinePassed extends Error {
  readonly code = 'ETIMEOUT';
}

/**
 * The query, or an ETIMEOUT error once `ms` have passed, whichever is first: the resolver's own
 * timeout counts per server and per try, and a resolver that never calls back must not hold an
 * import. The query left behind ends by itself at the resolver's timeout.
 */
async function withDeadline<T>(query: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DeadlinePassed(`no DNS answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([query, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Whether a domain can receive mail, by DNS (RFC 5321 section 5.1): its MX records; a single MX of
 * "." (a null MX, RFC 7505) says it accepts none; with no MX records at all, an A or AAAA record is
 * the implicit mail host. A domain that does not exist (NXDOMAIN) or has neither fails. A server
 * that times out, fails (SERVFAIL), refuses or cannot be reached is `unknown`: nothing was learnt
 * about the domain. Never throws.
 */
export async function lookupMailDomain(resolver: dns.Resolver, domain: string, timeoutMs: number): Promise<CheckResult> {
  let mx: MxRecord[];
  try {
    mx = await withDeadline(resolver.resolveMx(domain), timeoutMs);
  } catch (err) {
    const code = codeOf(err);
    if (code === NO_NAME) return { result: 'fail', detail: 'no MX or A record (the domain does not exist)' };
    if (code !== NO_DATA) return unknownBecause(code);
    mx = [];
  }
  const hosts = mx.filter((r) => r.exchange !== '' && r.exchange !== '.');
  if (mx.length > 0 && hosts.length === 0) return { result: 'fail', detail: 'null MX: the domain accepts no mail' };
  if (hosts.length > 0) {
    const best = hosts.reduce((a, b) => (b.priority < a.priority ? b : a));
    return { result: 'pass', detail: `MX ${best.exchange}` };
  }
  const [a, aaaa] = await Promise.allSettled([withDeadline(resolver.resolve4(domain), timeoutMs), withDeadline(resolver.resolve6(domain), timeoutMs)]);
  if ((a.status === 'fulfilled' && a.value.length > 0) || (aaaa.status === 'fulfilled' && aaaa.value.length > 0)) {
    return { result: 'pass', detail: `no MX; ${a.status === 'fulfilled' && a.value.length > 0 ? 'A' : 'AAAA'} record (implicit MX)` };
  }
  for (const r of [a, aaaa]) {
    if (r.status === 'rejected' && ![NO_DATA, NO_NAME].includes(codeOf(r.reason))) return unknownBecause(codeOf(r.reason));
  }
  return { result: 'fail', detail: 'no MX or A record' };
}

import type { promises as dns } from 'node:dns';
import { mapWithConcurrency } from './concurrency';
import { createResolver, lookupMailDomain, type DnsSettings } from './dns-lookup';
import { isReservedDomain, type ReservedDomainMode } from './reserved-domains';
import { TtlCache } from './ttl-cache';
import type { CheckResult } from './types';

export interface MailDomainSettings extends DnsSettings {
  readonly reservedDomains: ReservedDomainMode;
}

/** An answer holds for half an hour (resolveMx does not give record TTLs); a domain DNS could not answer for is asked again after a minute. */
const ANSWER_TTL_MS = 30 * 60_000;
const UNKNOWN_TTL_MS = 60_000;
/** Distinct domains kept: about 10 MB at most. */
const MAX_CACHED_DOMAINS = 50_000;
/** Domains looked up at once when checking many. */
export const DNS_CONCURRENCY = 32;

const RESERVED: Record<ReservedDomainMode, CheckResult> = {
  deliver: { result: 'pass', detail: 'reserved test domain, delivered to the local SMTP sink in development' },
  invalid: { result: 'fail', detail: 'reserved test domain (RFC 2606), never delivered' },
};

/**
 * The mail-domain check of every address of a process: one resolver, a cache of answers per domain
 * (an import of 10,000 leads at 2,000 companies asks DNS 2,000 times, and the next import of the
 * same companies not at all), and one query per domain even when many leads ask at once.
 */
export class MailDomainChecker {
  private readonly cache = new TtlCache<CheckResult>(MAX_CACHED_DOMAINS);
  private readonly inFlight = new Map<string, Promise<CheckResult>>();
  private readonly resolver: dns.Resolver;

  constructor(private readonly settings: MailDomainSettings) {
    this.resolver = createResolver(settings);
  }

  /** `fresh`: ask DNS even when the cache has an answer (a user asking for a check now). */
  async check(domain: string, fresh = false): Promise<CheckResult> {
    const d = domain.toLowerCase();
    if (isReservedDomain(d)) return RESERVED[this.settings.reservedDomains];
    const cached = fresh ? undefined : this.cache.get(d);
    if (cached !== undefined) return cached;
    const pending = this.inFlight.get(d);
    if (pending !== undefined) return pending;
    const lookup = lookupMailDomain(this.resolver, d, this.settings.timeoutMs)
      .then((result) => {
        this.cache.set(d, result, result.result === 'unknown' ? UNKNOWN_TTL_MS : ANSWER_TTL_MS);
        return result;
      })
      .finally(() => this.inFlight.delete(d));
    this.inFlight.set(d, lookup);
    return lookup;
  }

  /** Each distinct domain checked once, at most DNS_CONCURRENCY at a time. */
  async checkMany(domains: Iterable<string>, fresh = false): Promise<Map<string, CheckResult>> {
    const distinct = [...new Set([...domains].map((d) => d.toLowerCase()))];
    const results = await mapWithConcurrency(distinct, DNS_CONCURRENCY, (d) => this.check(d, fresh));
    return new Map(distinct.map((d, i) => [d, results[i]!] as const));
  }
}

const checkers = new WeakMap<object, MailDomainChecker>();

/** The checker of a configuration: one per process (its cache is what makes repeated imports cheap). */
export function mailDomainCheckerFor(config: { readonly emailVerification: MailDomainSettings }): MailDomainChecker {
  let checker = checkers.get(config);
  if (checker === undefined) {
    checker = new MailDomainChecker(config.emailVerification);
    checkers.set(config, checker);
  }
  return checker;
}

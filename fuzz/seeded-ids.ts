import type { Operation } from './operations';
import type { Seed } from './seed';

/**
 * Path ids the fuzzer would never guess: the seeded objects of the account it authenticates as
 * (the request reaches the handler's real work: a hostile query on a real campaign) and of
 * another account (which must stay a 404 whatever else is wrong). An empty list: no seeded
 * object fits, and the parameter gets a plain valid value.
 */
export type PathIdPool = (op: Operation, param: string) => readonly string[];

export function pathIdPool(seed: Seed): PathIdPool {
  const { own, other } = seed;
  // The account's own ids twice: two cases in three name something the key may touch.
  const pick = (ids: (s: Seed['own']) => readonly string[]): string[] => [...ids(own), ...ids(own), ...ids(other)];
  return (op, param) => {
    const p = op.path;
    if (param === 'accountId') return [own.accountId, other.accountId];
    // Never the key the fuzzer authenticates with: only the spare keys may be revoked.
    if (param === 'keyId') return pick((s) => s.spareKeyIds);
    if (param !== 'id') return [];
    if (/^\/(v1\/)?campaigns\//.test(p)) return pick((s) => s.campaignIds);
    if (p.startsWith('/v1/leads/')) return pick((s) => s.leadIds);
    if (p.startsWith('/v1/mailboxes/')) return pick((s) => s.mailboxIds);
    if (p.startsWith('/v1/webhook-deliveries/')) return pick((s) => s.deliveryIds);
    if (p.startsWith('/v1/company/')) return pick((s) => s.companyIds);
    return [];
  };
}

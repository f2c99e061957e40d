import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupFunction } from 'node:net';
import { Agent, buildConnector } from 'undici';
import type { AddressPolicy } from './address-policy';
import { assertAllowedAddress, assertAllowedHost } from './url-policy';

export interface ResolvedAddress {
  readonly address: string;
  readonly family: number;
}

/** Name to addresses. The system resolver by default; tests hand in their own to play DNS tricks. */
export type Resolver = (hostname: string) => Promise<readonly ResolvedAddress[]>;

export const systemResolver: Resolver = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

export interface GuardedAgentOptions {
  readonly policy: AddressPolicy;
  readonly resolve: Resolver;
  readonly connectTimeoutMs: number;
}

/**
 * An undici Agent that can only open connections to addresses the policy allows. The check sits in
 * the connector, on the address the socket is about to connect to:
 * - a host name is resolved by our `lookup`, which refuses the whole name if ANY of its addresses
 *   is blocked (a name mixing public and private answers is an attack, not a website) and hands
 *   net.connect only checked addresses; there is no earlier check whose answer DNS could change
 *   afterwards (rebinding), and every new connection resolves and checks again;
 * - an IP literal never reaches `lookup` (net.connect skips it), so it is checked here first, as is
 *   a loopback name (`localhost`), refused without asking a resolver.
 * Every request that goes through this Agent, whichever undici API sends it, is guarded.
 */
export function createGuardedAgent(opts: GuardedAgentOptions): Agent {
  const lookup: LookupFunction = (hostname, options, callback) => {
    resolveChecked(hostname, opts).then(
      (all) => {
        const family = options.family === 4 || options.family === 6 ? options.family : 0;
        const usable = family === 0 ? all : all.filter((a) => a.family === family);
        const first = usable[0];
        if (first === undefined) {
          callback(Object.assign(new Error(`${hostname} has no IPv${family} address`), { code: 'ENOTFOUND' }), '', 0);
        } else if (options.all === true) {
          callback(null, usable.map((a) => ({ address: a.address, family: a.family })));
        } else {
          callback(null, first.address, first.family);
        }
      },
      (err: NodeJS.ErrnoException) => callback(err, '', 0),
    );
  };
  const connectChecked = buildConnector({ timeout: opts.connectTimeoutMs, lookup });
  return new Agent({
    connect: (connectOpts, callback) => {
      try {
        assertAllowedHost(connectOpts.hostname, opts.policy);
      } catch (err) {
        callback(err as Error, null);
        return;
      }
      connectChecked(connectOpts, callback);
    },
  });
}

async function resolveChecked(hostname: string, opts: GuardedAgentOptions): Promise<readonly ResolvedAddress[]> {
  const addresses = await opts.resolve(hostname);
  if (addresses.length === 0) throw Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' });
  for (const a of addresses) assertAllowedAddress(a.address, opts.policy, hostname);
  return addresses;
}

import type { Config } from '../config/config';
import { createEgress, type Egress, type EgressOptions } from './client';

export function egressOptionsFromConfig(config: Config): EgressOptions {
  return { allowLoopback: config.allowLoopbackEgress, timeoutMs: config.egress.timeoutMs, maxBytes: config.egress.maxBytes };
}

// One client (one connection pool) per configuration, created on first use. Keyed by the Config
// object, so a test that builds an app with its own configuration gets its own client.
const clients = new WeakMap<Config, Egress>();

/** The process's egress client for this configuration. */
export function egressFor(config: Config): Egress {
  let egress = clients.get(config);
  if (egress === undefined) {
    egress = createEgress(egressOptionsFromConfig(config));
    clients.set(config, egress);
  }
  return egress;
}

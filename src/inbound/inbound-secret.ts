import { createHash, timingSafeEqual } from 'node:crypto';
import type { Sequelize } from 'sequelize';
import type { Config } from '../config/config';
import { serviceSecret } from '../config/service-secret-repository';

// The stored secret never changes once generated, so each process reads it once per database.
const cache = new WeakMap<Sequelize, Promise<string>>();

/** The secret a mail relay presents: INBOUND_SECRET, or the one generated and kept in the database. */
export function inboundSecret(sequelize: Sequelize, config: Pick<Config, 'inboundSecret'>): Promise<string> {
  if (config.inboundSecret !== undefined && config.inboundSecret !== '') return Promise.resolve(config.inboundSecret);
  let secret = cache.get(sequelize);
  if (secret === undefined) {
    secret = serviceSecret(sequelize, 'inbound', undefined);
    // A failed read (database down) is not remembered: the next request tries again.
    secret.catch(() => cache.delete(sequelize));
    cache.set(sequelize, secret);
  }
  return secret;
}

/** Constant-time comparison; hashing first makes the time independent of the lengths too. */
export function secretMatches(given: string | undefined | null, expected: string): boolean {
  if (given === undefined || given === null || given === '') return false;
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

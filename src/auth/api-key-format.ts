import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Key format: `ok_<prefix>_<secret>`.
 * - prefix: 12 base62 characters, stored in clear, unique; it finds the key row and is what lists
 *   show, so a user can tell keys apart without the secret.
 * - secret: 32 base62 characters (~190 bits); only SHA-256 of the whole key is stored. A fast hash
 *   is right here: the key is random and long, so there is nothing to brute-force.
 */
const PREFIX_LEN = 12;
const SECRET_LEN = 32;
const KEY_PATTERN = new RegExp(`^ok_([A-Za-z0-9]{${PREFIX_LEN}})_([A-Za-z0-9]{${SECRET_LEN}})$`);
const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      // 248 = 4 * 62: rejecting bytes above it keeps every character equally likely.
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}

export interface NewApiKey {
  readonly key: string;
  readonly prefix: string;
  readonly hash: string;
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export function generateApiKey(): NewApiKey {
  const prefix = randomBase62(PREFIX_LEN);
  const key = `ok_${prefix}_${randomBase62(SECRET_LEN)}`;
  return { key, prefix, hash: hashApiKey(key) };
}

/** The prefix of a well-formed key, or undefined for anything that cannot be a key of ours. */
export function parseApiKey(key: string): { prefix: string } | undefined {
  const m = KEY_PATTERN.exec(key);
  return m ? { prefix: m[1] as string } : undefined;
}

/** Compares a presented key with a stored hash in constant time. */
export function apiKeyMatches(key: string, storedHash: string): boolean {
  const presented = Buffer.from(hashApiKey(key), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return presented.length === stored.length && timingSafeEqual(presented, stored);
}

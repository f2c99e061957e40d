import { createHmac, timingSafeEqual } from 'node:crypto';

export function hmacSha256Hex(key: string, ...parts: readonly (string | Buffer)[]): string {
  const h = createHmac('sha256', key);
  for (const p of parts) h.update(p);
  return h.digest('hex');
}

/** Compares hex digests in constant time; anything that is not hex of the same length is unequal. */
export function sameHex(given: string, expected: string): boolean {
  const g = given.trim().toLowerCase();
  if (!/^[0-9a-f]+$/.test(g) || g.length !== expected.length) return false;
  return timingSafeEqual(Buffer.from(g, 'hex'), Buffer.from(expected, 'hex'));
}

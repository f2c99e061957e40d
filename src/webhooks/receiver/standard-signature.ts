import { createHmac, timingSafeEqual } from 'node:crypto';

const STANDARD_PREFIX = 'whsec_';
const TIMESTAMP_FORM = /^\d{1,15}$/;

/**
 * The HMAC key of a Standard Webhooks signature: the bytes the secret's base64 part encodes (a
 * Standard Webhooks library decodes `whsec_<base64>` the same way). Empty when there are none.
 */
function standardKey(secret: string): Buffer {
  const encoded = secret.startsWith(STANDARD_PREFIX) ? secret.slice(STANDARD_PREFIX.length) : secret;
  return Buffer.from(encoded, 'base64');
}

/** Unix seconds of a `webhook-timestamp` header, or null when it is not whole seconds. */
export function parseTimestamp(header: string): number | null {
  return TIMESTAMP_FORM.test(header) ? Number(header) : null;
}

/**
 * True when one `v1,<base64>` entry of a `webhook-signature` header (entries are separated by
 * spaces, one per secret the service signs with) is the HMAC-SHA256 of `<id>.<timestamp>.<body>`
 * keyed with any given secret. Entries of other versions are ignored, as the standard says.
 * Compared in constant time on equal-length buffers.
 */
export function standardSignatureMatches(rawBody: string | Buffer, id: string, timestamp: string, header: string, secrets: readonly string[]): boolean {
  const offered = header
    .split(' ')
    .filter((entry) => entry.startsWith('v1,'))
    .map((entry) => Buffer.from(entry.slice(3), 'base64'))
    .filter((digest) => digest.length === 32);
  if (offered.length === 0) return false;
  const signed = Buffer.concat([Buffer.from(`${id}.${timestamp}.`, 'utf8'), typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : rawBody]);
  for (const secret of secrets) {
    const key = standardKey(secret);
    if (key.length === 0) continue;
    const expected = createHmac('sha256', key).update(signed).digest();
    if (offered.some((digest) => timingSafeEqual(expected, digest))) return true;
  }
  return false;
}

import { createHmac, timingSafeEqual } from 'node:crypto';

const SIGNATURE_FORM = /^sha256=([0-9a-fA-F]{64})$/;

/** True for what a receiver must verify: the bytes as they arrived, not a parsed or re-serialised body. */
export function isRawBody(body: unknown): body is string | Buffer {
  return typeof body === 'string' || Buffer.isBuffer(body);
}

/** The 32 digest bytes of a `sha256=<hex>` header, or null when the header is not of that form. */
export function parseServiceSignature(header: string | undefined): Buffer | null {
  if (typeof header !== 'string') return null;
  const match = SIGNATURE_FORM.exec(header.trim());
  return match === null ? null : Buffer.from(match[1] as string, 'hex');
}

/**
 * Index of the first secret whose HMAC-SHA256 of `rawBody` equals `digest`, or -1. The HMAC is
 * keyed with the secret string exactly as the settings show it (`whsec_...` included), as the
 * service signs. Digests are compared with timingSafeEqual on two 32-byte buffers, so the time
 * taken does not reveal how many leading bytes of a forged signature were right.
 */
export function matchingSecret(rawBody: string | Buffer, digest: Buffer, secrets: readonly string[]): number {
  if (digest.length !== 32) return -1;
  for (const [i, secret] of secrets.entries()) {
    if (typeof secret !== 'string' || secret === '') continue;
    const expected = createHmac('sha256', secret).update(rawBody).digest();
    if (timingSafeEqual(expected, digest)) return i;
  }
  return -1;
}

/**
 * Checks an `X-Service-Signature` (or `X-Service-Signature-Previous`) header, `sha256=<hex>`,
 * against the raw request body with one secret or several (during a rotation a receiver may hold
 * both). True when any secret produces the signature. A missing or malformed header, an empty
 * secret list or a body that is not a string or Buffer (e.g. already-parsed JSON) is false: this
 * function never throws.
 */
export function verifySignature(rawBody: string | Buffer, header: string | undefined, secrets: string | readonly string[]): boolean {
  try {
    if (!isRawBody(rawBody)) return false;
    const digest = parseServiceSignature(header);
    if (digest === null) return false;
    return matchingSecret(rawBody, digest, typeof secrets === 'string' ? [secrets] : secrets) >= 0;
  } catch {
    return false;
  }
}

import { randomBytes } from 'node:crypto';

const PREFIX = 'whsec_';
const GENERATED_BYTES = 32;
const MIN_BYTES = 24;
const MAX_BYTES = 64;

/**
 * A webhook secret in the Standard Webhooks form, `whsec_<base64 of 32 random bytes>`: receivers
 * using a Standard Webhooks library take it as it is, and the spec's `X-Service-Signature` is the
 * HMAC keyed with the whole string, exactly as shown in the settings.
 */
export function generateWebhookSecret(): string {
  return PREFIX + randomBytes(GENERATED_BYTES).toString('base64');
}

/** Why `value` cannot be a webhook secret, or null when it can (a client may choose its own). */
export function webhookSecretProblem(value: string): string | null {
  if (!value.startsWith(PREFIX)) return `must start with ${PREFIX}`;
  const encoded = value.slice(PREFIX.length);
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded) || encoded.length % 4 !== 0) return `must be ${PREFIX} followed by standard base64`;
  const bytes = Buffer.from(encoded, 'base64').length;
  if (bytes < MIN_BYTES || bytes > MAX_BYTES) return `must encode ${MIN_BYTES} to ${MAX_BYTES} random bytes (this one encodes ${bytes})`;
  return null;
}

import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/** The secrets an account signs with right now: its current one, and during a rotation the one before. */
export interface SigningSecrets {
  readonly current: string;
  /** Set for 24 hours after a rotation; receivers that still hold it keep verifying. */
  readonly previous: string | null;
}

export const SIGNATURE_HEADER = 'x-service-signature';
export const PREVIOUS_SIGNATURE_HEADER = 'x-service-signature-previous';

/** `sha256=<lowercase hex HMAC-SHA256 of the raw body>`, keyed with the secret string as shown. */
export function serviceSignature(body: string | Buffer, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/**
 * Every header of one attempt:
 * - `Content-Type: application/json` and `X-Service-Signature` with the current secret, exactly as
 *   the spec gives them;
 * - during a rotation, `X-Service-Signature-Previous` with the previous secret, so a receiver not
 *   yet updated still verifies (the spec's header keeps its single-value form);
 * - the Standard Webhooks headers: `webhook-id` (the event id, the same on every attempt),
 *   `webhook-timestamp` (this attempt, unix seconds) and `webhook-signature` (`v1,<base64>` per
 *   secret, space-separated), which let a receiver reject replays of an old request.
 */
export function signedHeaders(body: string, eventId: string, at: Date, secrets: SigningSecrets): Record<string, string> {
  const all = secrets.previous === null ? [secrets.current] : [secrets.current, secrets.previous];
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    [SIGNATURE_HEADER]: serviceSignature(body, secrets.current),
    'webhook-id': eventId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': all.map((s) => new Webhook(s).sign(eventId, at, body)).join(' '),
  };
  if (secrets.previous !== null) headers[PREVIOUS_SIGNATURE_HEADER] = serviceSignature(body, secrets.previous);
  return headers;
}

import { WebhookVerificationError } from './errors';
import type { WebhookEvent } from './event-types';
import { headerValue, PREVIOUS_SIGNATURE_HEADER, SIGNATURE_HEADER, type HeaderSource } from './headers';
import { parseWebhookEvent } from './parse-event';
import { isRawBody, matchingSecret, parseServiceSignature } from './service-signature';
import { parseTimestamp, standardSignatureMatches } from './standard-signature';

export interface VerifyWebhookOptions {
  /** How far `webhook-timestamp` may be from now, either way, in seconds (default 300, as Standard Webhooks). */
  readonly toleranceSeconds?: number;
  /** The clock to judge the timestamp by (default: the system clock). */
  readonly now?: Date | number;
  /**
   * Refuse a request without the Standard Webhooks headers (default false). The service always
   * sends them; requiring them stops a replay that strips them to dodge the timestamp check.
   */
  readonly requireTimestamp?: boolean;
}

export interface VerifiedWebhook {
  readonly event: WebhookEvent;
  /** Which of the given secrets verified the signature (its index; 0 with a single secret). */
  readonly secretIndex: number;
  /** The header that carried it: the previous one only while the service signs with both after a rotation. */
  readonly signatureHeader: typeof SIGNATURE_HEADER | typeof PREVIOUS_SIGNATURE_HEADER;
  /** This attempt's `webhook-timestamp`, when the Standard Webhooks headers were sent. */
  readonly timestamp: Date | null;
}

const DEFAULT_TOLERANCE_S = 300;

function fail(reason: WebhookVerificationError['reason'], message: string): never {
  throw new WebhookVerificationError(reason, message);
}

/**
 * Verifies a webhook request and returns its event, or throws WebhookVerificationError (with a
 * `reason`) when it cannot be shown to come from the service, or WebhookPayloadError when it is
 * signed but not an event envelope.
 *
 * - `X-Service-Signature` or `X-Service-Signature-Previous` must match with one of `secrets`.
 *   Pass every secret you hold: after a rotation in the dashboard the service signs with the new
 *   secret and, for 24 hours, with the old one in the -Previous header, so a receiver holding
 *   either verifies.
 * - When the Standard Webhooks headers are present (`webhook-id`, `webhook-timestamp`,
 *   `webhook-signature`; the service sends them on every attempt), the timestamp must be within
 *   `toleranceSeconds` of now and a `v1` signature must match too: an old request replayed is
 *   refused. Some of them without the others is refused.
 *
 * `rawBody` must be the bytes as received: a parsed and re-serialised body does not verify.
 * Deduplicate on `event.id`: delivery is at least once, and a resend carries the same id.
 */
export function verifyWebhook(rawBody: string | Buffer, headers: HeaderSource, secrets: string | readonly string[], options: VerifyWebhookOptions = {}): VerifiedWebhook {
  if (!isRawBody(rawBody)) fail('body_not_raw', 'verify the raw request body (a string or Buffer), not parsed JSON');
  const keys = (typeof secrets === 'string' ? [secrets] : [...secrets]).filter((s) => typeof s === 'string' && s !== '');
  if (keys.length === 0) fail('no_secrets', 'no webhook secret to verify with');

  let signed: { secretIndex: number; header: VerifiedWebhook['signatureHeader'] } | undefined;
  let present = 0;
  let wellFormed = 0;
  for (const header of [SIGNATURE_HEADER, PREVIOUS_SIGNATURE_HEADER] as const) {
    const value = headerValue(headers, header);
    if (value === undefined) continue;
    present++;
    const digest = parseServiceSignature(value);
    if (digest === null) continue;
    wellFormed++;
    const index = matchingSecret(rawBody, digest, keys);
    if (index >= 0) {
      signed = { secretIndex: index, header };
      break;
    }
  }
  if (signed === undefined) {
    if (present === 0) fail('missing_signature', 'no X-Service-Signature header');
    if (wellFormed === 0) fail('malformed_signature', 'the signature header is not sha256=<64 hex digits>');
    fail('signature_mismatch', 'the signature does not match the body with any given secret');
  }

  const timestamp = checkStandardHeaders(rawBody, headers, keys, options);
  return { event: parseWebhookEvent(rawBody), secretIndex: signed.secretIndex, signatureHeader: signed.header, timestamp };
}

/** The Standard Webhooks part: the timestamp within tolerance and a matching v1 signature. */
function checkStandardHeaders(rawBody: string | Buffer, headers: HeaderSource, keys: readonly string[], options: VerifyWebhookOptions): Date | null {
  const id = headerValue(headers, 'webhook-id');
  const stamp = headerValue(headers, 'webhook-timestamp');
  const signature = headerValue(headers, 'webhook-signature');
  if (id === undefined && stamp === undefined && signature === undefined) {
    if (options.requireTimestamp === true) fail('missing_timestamp', 'no webhook-timestamp header (required)');
    return null;
  }
  if (id === undefined || stamp === undefined || signature === undefined) fail('missing_timestamp', 'webhook-id, webhook-timestamp and webhook-signature come together; some are missing');
  const seconds = parseTimestamp(stamp);
  if (seconds === null) fail('malformed_timestamp', 'webhook-timestamp is not unix seconds');
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_S;
  if (!Number.isFinite(tolerance) || tolerance < 0) throw new RangeError(`toleranceSeconds must be a number of seconds >= 0, not ${tolerance}`);
  const now = Math.floor((options.now === undefined ? Date.now() : typeof options.now === 'number' ? options.now : options.now.getTime()) / 1000);
  if (now - seconds > tolerance) fail('timestamp_too_old', `webhook-timestamp is ${now - seconds} s old (tolerance ${tolerance} s)`);
  if (seconds - now > tolerance) fail('timestamp_too_new', `webhook-timestamp is ${seconds - now} s ahead (tolerance ${tolerance} s)`);
  if (!standardSignatureMatches(rawBody, id, stamp, signature, keys)) fail('standard_signature_mismatch', 'no v1 webhook-signature matches with any given secret');
  return new Date(seconds * 1000);
}

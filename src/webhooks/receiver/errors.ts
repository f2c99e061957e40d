/**
 * Why a request was refused. Stable strings, so a receiver can log them, count them or map them
 * to an answer; the message says the same in a sentence.
 */
export type WebhookVerificationReason =
  /** No secret was given to verify with (a configuration mistake on the receiving side). */
  | 'no_secrets'
  /** The body is not raw bytes: it was parsed (or re-serialised) before verification. */
  | 'body_not_raw'
  /** Neither X-Service-Signature nor X-Service-Signature-Previous is present. */
  | 'missing_signature'
  /** A signature header is present but not of the form `sha256=<64 hex digits>`. */
  | 'malformed_signature'
  /** The signature is well formed but no given secret produces it for this body. */
  | 'signature_mismatch'
  /** Only some of the Standard Webhooks headers are present, or none while they are required. */
  | 'missing_timestamp'
  /** `webhook-timestamp` is not whole unix seconds. */
  | 'malformed_timestamp'
  /** `webhook-timestamp` is older than the tolerance: a replay of an old request, or a skewed clock. */
  | 'timestamp_too_old'
  /** `webhook-timestamp` is further in the future than the tolerance allows. */
  | 'timestamp_too_new'
  /** No `v1,` entry of `webhook-signature` matches any given secret. */
  | 'standard_signature_mismatch';

/** The request cannot be shown to come from the service: do not act on it (answer 401). */
export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';

  constructor(
    readonly reason: WebhookVerificationReason,
    message: string,
  ) {
    super(message);
  }
}

/** The body is signed but is not an event envelope `{id, event, created_at, campaign_id, data}` (answer 400). */
export class WebhookPayloadError extends Error {
  override readonly name = 'WebhookPayloadError';
}

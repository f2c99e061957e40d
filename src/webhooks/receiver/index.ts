/**
 * Helpers for a Node receiver of this service's webhooks: verify a request (signature, rotation,
 * replay window) and read its event, typed by kind. They need nothing but node:crypto.
 *
 *   const { event } = verifyWebhook(rawBody, req.headers, [secret]);
 *
 * See examples/webhook-receiver.ts for a whole receiver.
 */
export { WebhookPayloadError, WebhookVerificationError, type WebhookVerificationReason } from './errors';
export type * from './event-types';
export type { HeaderSource } from './headers';
export { parseWebhookEvent } from './parse-event';
export { normalizeReplyData } from './reply-received';
export { verifySignature } from './service-signature';
export { verifyWebhook, type VerifiedWebhook, type VerifyWebhookOptions } from './verify-webhook';

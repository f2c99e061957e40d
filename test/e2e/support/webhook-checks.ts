import { createHmac, timingSafeEqual } from 'node:crypto';
import { expect } from 'chai';
import { Webhook } from 'standardwebhooks';
import type { ReceivedWebhook, WebhookReceiver } from '../../support/webhook-receiver';

/** The body of every webhook request, as the spec's Delivery section gives it. */
export interface Envelope {
  readonly id: string;
  readonly event: string;
  readonly created_at: string;
  readonly campaign_id: string | null;
  readonly data: Record<string, unknown>;
}

export const ENVELOPE_MEMBERS = ['id', 'event', 'created_at', 'campaign_id', 'data'];

/** Polls `probe` every `everyMs` until it returns a value; fails naming `what` after `timeoutMs`. */
export async function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 60_000, everyMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

export function envelopeOf(r: ReceivedWebhook): Envelope {
  return JSON.parse(r.rawBody.toString('utf8')) as Envelope;
}

/** The first request the receiver got whose envelope matches, waiting for it up to `timeoutMs`. */
export function arrival(receiver: WebhookReceiver, what: string, match: (e: Envelope) => boolean, timeoutMs = 60_000): Promise<ReceivedWebhook> {
  return until(`webhook ${what}`, () => receiver.received.find((r) => match(envelopeOf(r))), timeoutMs);
}

function header(r: ReceivedWebhook, name: string): string | undefined {
  const v = r.headers[name];
  return Array.isArray(v) ? v.join(', ') : v;
}

/**
 * The receiver's side of the spec's check, written from the spec and not from the service's code:
 * HMAC-SHA256 of the raw body keyed with the secret, lowercase hex, prefixed `sha256=`, compared in
 * constant time.
 */
export function specSignatureVerifies(rawBody: Buffer, headerValue: string | undefined, secret: string): boolean {
  if (headerValue === undefined) return false;
  const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(rawBody).digest('hex')}`);
  const given = Buffer.from(headerValue);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The `v1,<base64>` entries of the Standard Webhooks signature header. */
export function signatureEntries(r: ReceivedWebhook): string[] {
  return (header(r, 'webhook-signature') ?? '').split(' ').filter((s) => s !== '');
}

/**
 * What a receiver using the `standardwebhooks` library sees: `Webhook.verify` with this secret, on
 * the request as it came or with only `signature` (one entry of the header) offered.
 */
export function standardVerifies(r: ReceivedWebhook, secret: string, signature = header(r, 'webhook-signature') ?? ''): boolean {
  try {
    new Webhook(secret).verify(r.rawBody, { 'webhook-id': header(r, 'webhook-id') ?? '', 'webhook-timestamp': header(r, 'webhook-timestamp') ?? '', 'webhook-signature': signature });
    return true;
  } catch {
    return false;
  }
}

/**
 * Everything a receiver relies on in one request: Content-Type, the envelope's exact members and
 * their types, the Standard Webhooks id equal to the event id. Returns the envelope.
 */
export function expectEnvelope(r: ReceivedWebhook): Envelope {
  expect(header(r, 'content-type')).to.match(/^application\/json\b/);
  const body = envelopeOf(r);
  expect(Object.keys(body), 'envelope members, in order').to.deep.equal(ENVELOPE_MEMBERS);
  expect(body.id).to.be.a('string').and.not.equal('');
  expect(body.event).to.be.a('string');
  expect(new Date(body.created_at).toISOString(), 'created_at is an ISO 8601 UTC timestamp').to.equal(body.created_at);
  expect(body.data).to.be.an('object').and.not.be.an('array');
  expect(header(r, 'webhook-id'), 'webhook-id is the event id').to.equal(body.id);
  expect(Number(header(r, 'webhook-timestamp')), 'webhook-timestamp is this attempt, in unix seconds').to.be.closeTo(r.at / 1000, 30);
  return body;
}

/**
 * A request signed with `secret` alone (no rotation under way): X-Service-Signature and the one
 * Standard Webhooks signature verify with it, and no previous-secret signature is sent.
 */
export function expectSignedWith(r: ReceivedWebhook, secret: string): Envelope {
  const body = expectEnvelope(r);
  expect(specSignatureVerifies(r.rawBody, header(r, 'x-service-signature'), secret), 'X-Service-Signature verifies with the account secret').to.equal(true);
  expect(header(r, 'x-service-signature-previous'), 'no previous-secret signature outside a rotation').to.equal(undefined);
  expect(signatureEntries(r), 'one Standard Webhooks signature').to.have.length(1);
  expect(signatureEntries(r)[0]).to.match(/^v1,[A-Za-z0-9+/]+=*$/);
  expect(standardVerifies(r, secret), 'webhook-signature verifies with the account secret').to.equal(true);
  return body;
}

// The rows tests read back are the delivery tests' (one definition of what a row holds).
export { attemptRows as attemptsOf, deliveriesOf, type DeliveryRow } from '../../webhooks/support/delivery-rows';

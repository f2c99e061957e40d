import type { LOGGED_EVENT_KINDS } from '../event-kinds';
import { WebhookPayloadError } from './errors';
import type { KnownWebhookEvent, KnownWebhookEventKind, WebhookEvent } from './event-types';
import { normalizeReplyData } from './reply-received';
import type { Same } from './same';

// The receiver imports nothing of the service at run time (a customer can copy this folder), so
// it lists the kinds itself; the compiler holds the list, the union in event-types.ts and the
// service's own list (event-kinds.ts) together.
const KNOWN_KINDS = [
  'campaign.started',
  'campaign.milestone',
  'campaign.paused',
  'campaign.completed',
  'campaign.budget_warning',
  'campaign.budget_exceeded',
  'budget.warning',
  'reply.received',
  'meeting.booked',
  'campaign.variant_winner',
  'webhook.test',
] as const;
const KINDS_AGREE: [Same<(typeof KNOWN_KINDS)[number], KnownWebhookEventKind>, Same<KnownWebhookEventKind, (typeof LOGGED_EVENT_KINDS)[number]>] = [true, true];
void KINDS_AGREE;

const KNOWN = new Set<string>(KNOWN_KINDS);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The event in a webhook body: the envelope `{id, event, created_at, campaign_id, data}` checked,
 * and typed by its kind (see event-types.ts). `reply.received` comes back in one shape whichever
 * form it was sent in. A kind this version does not know is returned with `known: false`, never
 * rejected. Throws WebhookPayloadError when the body is not JSON or not an envelope.
 *
 * Parse only a body that verifyWebhook (or verifySignature) accepted: the types describe what the
 * service sends, and only the signature shows the service sent it.
 */
export function parseWebhookEvent(rawBody: string | Buffer): WebhookEvent {
  let parsed: unknown;
  try {
    parsed = JSON.parse(typeof rawBody === 'string' ? rawBody : rawBody.toString('utf8'));
  } catch {
    throw new WebhookPayloadError('the body is not JSON');
  }
  if (!isObject(parsed)) throw new WebhookPayloadError('the body is not a JSON object');
  const { id, event, created_at, campaign_id, data } = parsed;
  if (typeof id !== 'string' || id === '') throw new WebhookPayloadError('the envelope has no id');
  if (typeof event !== 'string' || event === '') throw new WebhookPayloadError('the envelope has no event');
  if (typeof created_at !== 'string') throw new WebhookPayloadError('the envelope has no created_at');
  if (campaign_id !== undefined && campaign_id !== null && typeof campaign_id !== 'string') throw new WebhookPayloadError('campaign_id is neither a string nor null');
  if (data !== undefined && !isObject(data)) throw new WebhookPayloadError('data is not an object');
  const envelope = { id, event, created_at, campaign_id: campaign_id ?? null, data: data ?? {} };
  if (!KNOWN.has(event)) return { ...envelope, known: false };
  // The service's own payloads for every other kind are passed on as they are: the types state them.
  const typedData = event === 'reply.received' ? normalizeReplyData(envelope.data) : envelope.data;
  return { ...envelope, data: typedData, known: true } as KnownWebhookEvent;
}

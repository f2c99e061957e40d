import { Type, type TSchema } from '@sinclair/typebox';
import { DELIVERY_STATUSES } from '../../../webhooks/delivery-repository';
import { LOGGED_EVENT_KINDS } from '../../../webhooks/event-kinds';
import { MAX_WEBHOOK_URL_LENGTH } from '../../../webhooks/webhook-url';
import { Timestamp } from '../../http/common-schemas';
import { StringEnum } from '../string-enum';

const Nullable = <T extends TSchema>(schema: T, description: string) => Type.Union([schema, Type.Null()], { description });

// --- settings ---

export const WebhookSettingsResponse = Type.Object(
  {
    url: Nullable(Type.String(), 'The global URL: it receives the events of every campaign of the account. Null: none set.'),
    secret: Type.String({
      pattern: '^whsec_',
      description:
        'The signing secret, in full (a receiver needs it to verify). X-Service-Signature is `sha256=` and the lowercase hex HMAC-SHA256 ' +
        'of the raw request body keyed with this whole string; it is also a Standard Webhooks secret (webhook-signature header).',
    }),
    previousSecret: Nullable(Type.String({ pattern: '^whsec_' }), 'The secret before the last rotation while it still signs (X-Service-Signature-Previous); null otherwise.'),
    previousSecretExpiresAt: Nullable(Timestamp, 'When the previous secret stops signing: 24 hours after the rotation.'),
    secretRotatedAt: Nullable(Timestamp, 'The last rotation; null if the secret was never rotated.'),
    updatedAt: Timestamp,
  },
  { additionalProperties: false },
);

export const WebhookSettingsPatch = Type.Object(
  {
    url: Type.Union([Type.String(), Type.Null()], {
      description:
        'The global webhook URL: an absolute https URL without credentials whose host is not a private, loopback, link-local, reserved or ' +
        'metadata address or a localhost name (loopback and plain http to it only when the service runs with ALLOW_LOOPBACK_EGRESS). ' +
        'Stored normalised. Null clears it.',
    }),
  },
  { additionalProperties: false },
);

export const RotateSecretBody = Type.Object(
  {
    secret: Type.Optional(
      Type.String({ description: 'Your own new secret: `whsec_` and the standard base64 of 24 to 64 random bytes. Left out: one is generated (32 bytes).' }),
    ),
  },
  { additionalProperties: false },
);

// --- deliveries ---

const Status = StringEnum(DELIVERY_STATUSES, {
  description:
    'pending: the attempt is being made (or a resend is about to be taken); retrying: an attempt failed and the next retry is due at ' +
    'nextAttemptAt (1 min, 5 min, 30 min, 2 h, 24 h after each failure); delivered: the receiver answered 2xx; failed: the fifth retry ' +
    'failed too, or the destination was refused (a host that is or resolves to a private, loopback, link-local or metadata address: ' +
    'not retried, lastError says why), or a test event failed (those are not retried).',
});

const EventKind = StringEnum(LOGGED_EVENT_KINDS, { description: 'The event name (webhook.test: a test event sent on request).' });

export const Delivery = Type.Object(
  {
    id: Type.String(),
    eventId: Type.String({ description: 'The event id: the envelope `id` and the webhook-id header, the same on every attempt and every resend.' }),
    event: EventKind,
    campaignId: Nullable(Type.String(), 'The campaign the event is about; null for a test event.'),
    url: Type.String({ description: 'Where this delivery posts (an event goes to the campaign URL and the global URL: one delivery each).' }),
    status: Status,
    cycle: Type.Integer({ minimum: 1, description: '1, plus one per resend: each cycle is an attempt at once and, if it fails, the retry ladder.' }),
    attemptCount: Type.Integer({ minimum: 0 }),
    nextAttemptAt: Nullable(Timestamp, 'When the next attempt is due; null when none is planned.'),
    lastAttemptAt: Nullable(Timestamp, 'Null before the first attempt.'),
    lastStatusCode: Nullable(Type.Integer(), "The receiver's status at the last attempt; null if it never answered."),
    lastError: Nullable(
      Type.String(),
      'Why the last attempt failed (e.g. "HTTP 500", a connection error, a timeout, or "blocked_address: …" for a refused destination); null when it succeeded.',
    ),
    deliveredAt: Nullable(Timestamp, 'When the receiver last answered 2xx.'),
    failedAt: Nullable(Timestamp, 'When the delivery was given up.'),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    resendsOnRecovery: Type.Boolean({
      description:
        'True for a failed delivery that is not a test event: it waits for its URL to come back. When the URL next answers 2xx to any ' +
        "event of the account (a new event, a retry, a resend or a test event), the account's failed deliveries to it are sent again one at " +
        'a time, oldest event first: each a new cycle with the same event id and body, a failure climbing the retry ladder again.',
    }),
  },
  { additionalProperties: false },
);

const Attempt = Type.Object(
  {
    number: Type.Integer({ minimum: 1, description: '1, 2, … across all cycles of the delivery.' }),
    cycle: Type.Integer({ minimum: 1 }),
    attemptedAt: Timestamp,
    durationMs: Type.Integer({ minimum: 0 }),
    statusCode: Nullable(Type.Integer(), 'Null: no answer (connection refused, timeout after 10 s, address refused).'),
    error: Nullable(Type.String(), 'Null when the attempt succeeded.'),
    succeeded: Type.Boolean({ description: 'A 2xx answer within 10 seconds (redirects are not followed: a 3xx is a failure).' }),
  },
  { additionalProperties: false },
);

const Payload = Type.Object(
  {
    id: Type.String(),
    event: Type.String(),
    created_at: Timestamp,
    campaign_id: Type.Union([Type.String(), Type.Null()]),
    data: Type.Record(Type.String(), Type.Unknown()),
  },
  { additionalProperties: false, description: 'The JSON body posted for the event (the same bytes on every attempt, so the same signature input).' },
);

export const DeliveryDetail = Type.Object(
  { ...Delivery.properties, attempts: Type.Array(Attempt, { description: 'Every attempt, oldest first.' }), payload: Payload },
  { additionalProperties: false },
);

export const DeliveryListQuery = Type.Object(
  {
    event: Type.Optional(EventKind),
    campaignId: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Only deliveries of this campaign.' })),
    status: Type.Optional(Status),
    url: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: MAX_WEBHOOK_URL_LENGTH,
        description: 'Only deliveries to this URL (an absolute URL, compared normalised: `HTTPS://Example.com:443/x` is `https://example.com/x`).',
      }),
    ),
    order: Type.Optional(
      StringEnum(['newest', 'oldest'] as const, {
        default: 'newest',
        description:
          'newest (default): the newest delivery first. oldest: the oldest event first (its time, then its id); with status=failed and a ' +
          'url, the order in which that URL will get them again when it answers 2xx.',
      }),
    ),
    page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1, description: 'Page number, from 1.' })),
    perPage: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'Deliveries per page, at most 100.' })),
  },
  { additionalProperties: false },
);

export const DeliveryListResponse = Type.Object(
  {
    deliveries: Type.Array(Delivery, { description: 'Newest first, or oldest event first with order=oldest.' }),
    page: Type.Integer({ minimum: 1 }),
    perPage: Type.Integer({ minimum: 1 }),
    total: Type.Integer({ minimum: 0, description: 'Deliveries matching the filters, over all pages.' }),
  },
  { additionalProperties: false },
);

export const DeliveryIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) }, { additionalProperties: false });

// --- test event ---

export const TestEventBody = Type.Object(
  {
    url: Type.Optional(Type.String({ description: "Where to send the test event; left out: the account's global URL." })),
  },
  { additionalProperties: false },
);

export const TestEventResponse = Type.Object(
  {
    deliveryId: Type.String({ description: 'The delivery in the log (GET /v1/webhook-deliveries/{id}).' }),
    eventId: Type.String({ description: 'The envelope id and webhook-id header of the test event.' }),
    url: Type.String(),
    delivered: Type.Boolean({ description: 'The endpoint answered 2xx within 10 seconds.' }),
    statusCode: Nullable(Type.Integer(), "The endpoint's status; null when it did not answer."),
    durationMs: Type.Integer({ minimum: 0 }),
    error: Nullable(Type.String(), 'Why the attempt failed; null when delivered.'),
  },
  { additionalProperties: false },
);

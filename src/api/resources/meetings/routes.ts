import type { TSchema } from '@sinclair/typebox';
import type { CalendarProvider } from '../../../db/models/meeting';
import type { WebhookIntent } from '../../../meetings/booking';
import { CALCOM_SIGNATURE_HEADER, CalcomBooking, CalcomEnvelope, calcomIntent, calcomTrigger, verifyCalcomSignature } from '../../../meetings/calcom';
import {
  CALENDLY_SIGNATURE_HEADER,
  CalendlyEnvelope,
  CalendlyInvitee,
  calendlyIntent,
  calendlyTrigger,
  verifyCalendlySignature,
} from '../../../meetings/calendly';
import { recordMeeting } from '../../../meetings/record-meeting';
import { calendarWebhookSecret } from '../../../meetings/webhook-secrets';
import { badRequest, unauthorized } from '../../http/errors';
import { defineRoute, type HandlerContext, type HandlerResult } from '../../http/route';
import { compileValidator } from '../../http/validation';
import { AccountParams, MeetingWebhookResponse } from './schemas';

const RAW_JSON = { contentTypes: ['application/json'], maxBytes: 1024 * 1024, mode: 'buffer', description: 'The provider\'s JSON payload, exactly as sent (the signature covers these bytes).' } as const;

const NOT_CONFIGURED = 'Invalid signature, or no webhook secret is configured for this account';

function parseJson(raw: Buffer | undefined): unknown {
  try {
    return JSON.parse((raw ?? Buffer.alloc(0)).toString('utf8'));
  } catch {
    throw badRequest('Malformed JSON in request body');
  }
}

/** Validates the provider's payload (a 400 names the first problem) and narrows its type. */
function check<T>(schema: TSchema): (value: unknown) => T {
  const validate = compileValidator('body', schema);
  return (value) => {
    validate(value);
    return value as T;
  };
}

const calcomEnvelope = check<CalcomEnvelope>(CalcomEnvelope);
const calcomBooking = check<CalcomBooking>(CalcomBooking);
const calendlyEnvelope = check<CalendlyEnvelope>(CalendlyEnvelope);
const calendlyInvitee = check<CalendlyInvitee>(CalendlyInvitee);

async function record(ctx: HandlerContext<'none'>, accountId: string, intent: WebhookIntent): Promise<HandlerResult> {
  if (intent.kind === 'ignored') return { body: { meetingId: null, matched: false, outcome: 'ignored' } };
  const result = await recordMeeting(ctx.deps.sequelize, accountId, intent.notice, ctx.deps.leadFacts);
  ctx.log.info({ accountId, provider: intent.notice.provider, ...result }, 'calendar booking');
  return { body: result };
}

async function secretFor(ctx: HandlerContext<'none'>, accountId: string, provider: CalendarProvider): Promise<string> {
  const secret = await calendarWebhookSecret(ctx.deps.sequelize, accountId, provider);
  if (secret === null) throw unauthorized(NOT_CONFIGURED);
  return secret;
}

const DESCRIPTION_COMMON =
  'A booking is matched to the account\'s lead by the attendee\'s email, and to the campaign of the most recent email sent to that ' +
  'lead; it is recorded once per booking (a redelivery answers `duplicate`), with a `meeting.booked` webhook event. A booking by ' +
  'someone the account never emailed is not recorded (`unknown_attendee`).';

const calcomWebhook = defineRoute({
  method: 'post',
  path: '/webhooks/calcom/:accountId',
  auth: 'none',
  operationId: 'postCalcomWebhook',
  summary: 'Cal.com webhook: a meeting booked through a campaign\'s calendar link',
  description:
    'Configure in Cal.com (Settings > Developer > Webhooks) with this URL and the secret saved as the account\'s `calcomWebhookSecret`. ' +
    'Authenticated by `X-Cal-Signature-256` (hex HMAC-SHA256 of the raw body). BOOKING_CREATED records a meeting; other triggers ' +
    '(PING, cancellations, reschedules) are answered `ignored`. ' +
    DESCRIPTION_COMMON,
  tags: ['meetings'],
  params: AccountParams,
  rawBody: RAW_JSON,
  responses: { 200: { description: 'The booking was handled', schema: MeetingWebhookResponse } },
  errors: [400, 401],
  handler: async ({ params, raw }, ctx) => {
    const secret = await secretFor(ctx, params.accountId, 'calcom');
    if (!verifyCalcomSignature(raw ?? Buffer.alloc(0), ctx.koa.get(CALCOM_SIGNATURE_HEADER) || undefined, secret)) throw unauthorized(NOT_CONFIGURED);
    const envelope = calcomEnvelope(parseJson(raw));
    if (calcomTrigger(envelope) === 'ignored') return record(ctx, params.accountId, { kind: 'ignored', trigger: envelope.triggerEvent });
    return record(ctx, params.accountId, calcomIntent(calcomBooking(envelope.payload)));
  },
});

const calendlyWebhook = defineRoute({
  method: 'post',
  path: '/webhooks/calendly/:accountId',
  auth: 'none',
  operationId: 'postCalendlyWebhook',
  summary: 'Calendly webhook: a meeting booked through a campaign\'s calendar link',
  description:
    'Create the Calendly webhook subscription with this URL and a signing key saved as the account\'s `calendlySigningKey`. ' +
    'Authenticated by `Calendly-Webhook-Signature: t=<unix>,v1=<hex>` (HMAC-SHA256 of `<t>.<raw body>`); a signature older than ' +
    '5 minutes is refused as a replay. invitee.created records a meeting (a reschedule moves the meeting it replaces); other events ' +
    'are answered `ignored`. ' +
    DESCRIPTION_COMMON,
  tags: ['meetings'],
  params: AccountParams,
  rawBody: RAW_JSON,
  responses: { 200: { description: 'The booking was handled', schema: MeetingWebhookResponse } },
  errors: [400, 401],
  handler: async ({ params, raw }, ctx) => {
    const secret = await secretFor(ctx, params.accountId, 'calendly');
    const verdict = verifyCalendlySignature(raw ?? Buffer.alloc(0), ctx.koa.get(CALENDLY_SIGNATURE_HEADER) || undefined, secret);
    if (verdict === 'stale') throw unauthorized('The signature timestamp is older than 5 minutes');
    if (verdict !== 'valid') throw unauthorized(NOT_CONFIGURED);
    const envelope = calendlyEnvelope(parseJson(raw));
    if (calendlyTrigger(envelope) === 'ignored') return record(ctx, params.accountId, { kind: 'ignored', trigger: envelope.event });
    return record(ctx, params.accountId, calendlyIntent(calendlyInvitee(envelope.payload)));
  },
});

export const meetingRoutes = [calcomWebhook, calendlyWebhook];

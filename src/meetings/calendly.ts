import { Type, type Static } from '@sinclair/typebox';
import { httpUrl, parseTime, type WebhookIntent } from './booking';
import { hmacSha256Hex, sameHex } from './hmac';

export const CALENDLY_SIGNATURE_HEADER = 'calendly-webhook-signature';
/** A delivery signed longer ago than this is refused as a possible replay. */
export const CALENDLY_TOLERANCE_SECONDS = 5 * 60;

export type SignatureCheck = 'valid' | 'invalid' | 'stale';

/**
 * Calendly signs with the subscription's signing key: `Calendly-Webhook-Signature:
 * t=<unix seconds>,v1=<hex>`, where v1 is HMAC-SHA256 of `<t>.<raw body>`. The timestamp is
 * covered by the signature, so an old delivery cannot be made fresh; one outside the tolerance is
 * refused (replay protection). Checked only after the signature, so "stale" is never a hint to
 * someone without the key.
 */
export function verifyCalendlySignature(raw: Buffer, header: string | undefined, key: string, nowMs: number = Date.now()): SignatureCheck {
  if (header === undefined || header === '') return 'invalid';
  let t: string | undefined;
  const v1: string[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (name === 't') t = value;
    if (name === 'v1') v1.push(value);
  }
  if (t === undefined || !/^\d{1,12}$/.test(t) || v1.length === 0) return 'invalid';
  const expected = hmacSha256Hex(key, `${t}.`, raw);
  if (!v1.some((sig) => sameHex(sig, expected))) return 'invalid';
  return Math.abs(nowMs / 1000 - Number(t)) > CALENDLY_TOLERANCE_SECONDS ? 'stale' : 'valid';
}

/** The envelope of every Calendly webhook: `{event, created_at, payload}`. */
export const CalendlyEnvelope = Type.Object({ event: Type.String({ minLength: 1 }), created_at: Type.Optional(Type.String()), payload: Type.Optional(Type.Unknown()) });

/** The part of an invitee.created payload the service reads. */
export const CalendlyInvitee = Type.Object({
  uri: Type.String({ minLength: 1, maxLength: 500 }),
  email: Type.String({ minLength: 3 }),
  name: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  old_invitee: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  scheduled_event: Type.Optional(Type.Object({ uri: Type.Optional(Type.String()), start_time: Type.Optional(Type.String()), name: Type.Optional(Type.String()) })),
});

export type CalendlyEnvelope = Static<typeof CalendlyEnvelope>;
export type CalendlyInvitee = Static<typeof CalendlyInvitee>;

/** invitee.created is a booking (a reschedule is one too, naming the invitee it replaces). */
export function calendlyTrigger(envelope: CalendlyEnvelope): 'booking' | 'ignored' {
  return envelope.event === 'invitee.created' ? 'booking' : 'ignored';
}

export function calendlyIntent(invitee: CalendlyInvitee): WebhookIntent {
  return {
    kind: 'booking',
    notice: {
      provider: 'calendly',
      externalId: invitee.uri,
      attendees: [{ email: invitee.email, name: invitee.name?.trim() || null }],
      meetingTime: parseTime(invitee.scheduled_event?.start_time),
      bookingUrl: httpUrl(invitee.scheduled_event?.uri),
      replaces: invitee.old_invitee ?? null,
    },
  };
}

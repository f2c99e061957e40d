import { Type, type Static } from '@sinclair/typebox';
import { httpUrl, parseTime, type WebhookIntent } from './booking';
import { hmacSha256Hex, sameHex } from './hmac';

export const CALCOM_SIGNATURE_HEADER = 'x-cal-signature-256';

/**
 * Cal.com signs a delivery with the webhook's secret: `X-Cal-Signature-256` is the hex
 * HMAC-SHA256 of the raw body. (A `sha256=` prefix is tolerated.)
 */
export function verifyCalcomSignature(raw: Buffer, header: string | undefined, secret: string): boolean {
  if (header === undefined || header === '') return false;
  return sameHex(header.replace(/^sha256=/i, ''), hmacSha256Hex(secret, raw));
}

/** The envelope of every Cal.com webhook: `{triggerEvent, createdAt, payload}`. */
export const CalcomEnvelope = Type.Object({ triggerEvent: Type.String({ minLength: 1 }), createdAt: Type.Optional(Type.String()), payload: Type.Optional(Type.Unknown()) });

const Person = Type.Object({ email: Type.String({ minLength: 3 }), name: Type.Optional(Type.String()), timeZone: Type.Optional(Type.String()) });

/** The part of a BOOKING_CREATED payload the service reads (Cal.com sends many more fields). */
export const CalcomBooking = Type.Object({
  uid: Type.String({ minLength: 1, maxLength: 200 }),
  title: Type.Optional(Type.String()),
  startTime: Type.String({ minLength: 1 }),
  endTime: Type.Optional(Type.String()),
  attendees: Type.Array(Person, { minItems: 1 }),
  organizer: Type.Optional(Type.Object({ email: Type.Optional(Type.String()), name: Type.Optional(Type.String()) })),
  bookerUrl: Type.Optional(Type.String()),
});

export type CalcomEnvelope = Static<typeof CalcomEnvelope>;
export type CalcomBooking = Static<typeof CalcomBooking>;

/** BOOKING_CREATED is a booking; PING (the "test" button), cancellations and the rest are not. */
export function calcomTrigger(envelope: CalcomEnvelope): 'booking' | 'ignored' {
  return envelope.triggerEvent === 'BOOKING_CREATED' ? 'booking' : 'ignored';
}

export function calcomIntent(booking: CalcomBooking): WebhookIntent {
  const base = httpUrl(booking.bookerUrl);
  return {
    kind: 'booking',
    notice: {
      provider: 'calcom',
      externalId: booking.uid,
      attendees: booking.attendees.map((a) => ({ email: a.email, name: a.name?.trim() || null })),
      meetingTime: parseTime(booking.startTime),
      bookingUrl: base === null ? null : `${base.replace(/\/+$/, '')}/booking/${encodeURIComponent(booking.uid)}`,
      replaces: null,
    },
  };
}

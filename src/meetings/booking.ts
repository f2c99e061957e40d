import type { CalendarProvider } from '../db/models/meeting';

/** A booking as a calendar provider reported it, reduced to what the service records. */
export interface BookingNotice {
  readonly provider: CalendarProvider;
  /** The provider's id of this booking: the Cal.com booking uid, the Calendly invitee URI. */
  readonly externalId: string;
  /** The people who booked, booker first (Cal.com lists guests after the booker). */
  readonly attendees: readonly { readonly email: string; readonly name: string | null }[];
  readonly meetingTime: Date | null;
  /** A link to the booking at the provider, used when the campaign has no calendar link. */
  readonly bookingUrl: string | null;
  /** For a rescheduled booking (Calendly): the id of the booking it replaces. */
  readonly replaces: string | null;
}

/** What a provider's webhook asked for: record a booking, or nothing (another trigger). */
export type WebhookIntent = { readonly kind: 'booking'; readonly notice: BookingNotice } | { readonly kind: 'ignored'; readonly trigger: string };

export function parseTime(value: string | undefined | null): Date | null {
  if (value === undefined || value === null) return null;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
}

export function httpUrl(value: string | undefined | null): string | null {
  if (value === undefined || value === null) return null;
  try {
    const u = new URL(value);
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.toString() : null;
  } catch {
    return null;
  }
}

import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import { newId } from '../accounts/ids';
import type { LeadFactSink } from '../campaigns/control/lead-fact-signals';
import { recordEmailFact } from '../sending/email-event-repository';
import { emitEvent } from '../webhooks/outbox-repository';
import { normalizeEmail } from '../suppressions/suppression-repository';
import { leadName } from '../replies/sent-email';
import type { BookingNotice } from './booking';

export type MeetingOutcome =
  /** A new meeting was recorded, with its fact and `meeting.booked` event. */
  | 'recorded'
  /** This booking was recorded before (a redelivery): nothing changed. */
  | 'duplicate'
  /** A rescheduled booking: the meeting it replaces now has the new time; no second meeting. */
  | 'rescheduled'
  /** No attendee is a lead this account has emailed: not recorded. */
  | 'unknown_attendee';

export interface MeetingResult {
  readonly meetingId: string | null;
  readonly matched: boolean;
  readonly outcome: MeetingOutcome;
}

interface LeadMatch {
  lead_id: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  company: string | null;
  email_id: string;
  campaign_id: string;
  calendar_link: string | null;
}

/**
 * The first attendee (booker first) who is a lead of the account that a campaign email was sent
 * to, with the campaign of the most recent such email: that is the campaign whose calendar link
 * most likely brought the booking.
 */
async function matchAttendee(sequelize: Sequelize, accountId: string, notice: BookingNotice): Promise<LeadMatch | null> {
  const emails = notice.attendees.map((a) => normalizeEmail(a.email));
  const rows = await sequelize.query<LeadMatch>(
    `SELECT DISTINCT ON (l.id) l.id AS lead_id, l.email, l.first_name, l.last_name, l.company,
            e.id AS email_id, e.campaign_id, c.calendar_link
       FROM leads l
       JOIN emails e ON e.lead_id = l.id AND e.account_id = l.account_id AND e.sent_at IS NOT NULL
       JOIN campaigns c ON c.id = e.campaign_id
      WHERE l.account_id = $1 AND l.email = ANY($2::text[])
      ORDER BY l.id, e.sent_at DESC, e.id DESC`,
    { bind: [accountId, emails], type: QueryTypes.SELECT },
  );
  for (const email of emails) {
    const row = rows.find((r) => r.email === email);
    if (row) return row;
  }
  return null;
}

async function existingMeeting(sequelize: Sequelize, accountId: string, notice: BookingNotice, externalId: string, tx: Transaction | null = null): Promise<string | null> {
  const rows = await sequelize.query<{ id: string }>(`SELECT id FROM meetings WHERE account_id = $1 AND provider = $2 AND external_id = $3`, {
    bind: [accountId, notice.provider, externalId],
    type: QueryTypes.SELECT,
    transaction: tx,
  });
  return rows[0]?.id ?? null;
}

/**
 * Records a booking for the account: the `meetings` row (once per provider booking), the lead's
 * `meeting_booked` fact and the `meeting.booked` event, in one transaction. Bookings by people the
 * account never emailed are not recorded: the account's calendar serves all its meetings, and
 * only those that outreach brought count. A new meeting is told to `leadFacts` after the commit
 * (the campaign's workflow then ends the lead's sequence).
 */
export async function recordMeeting(sequelize: Sequelize, accountId: string, notice: BookingNotice, leadFacts?: LeadFactSink): Promise<MeetingResult> {
  const known = await existingMeeting(sequelize, accountId, notice, notice.externalId);
  if (known !== null) return { meetingId: known, matched: true, outcome: 'duplicate' };
  if (notice.replaces !== null) {
    const replaced = await existingMeeting(sequelize, accountId, notice, notice.replaces);
    if (replaced !== null) {
      await sequelize.query(`UPDATE meetings SET meeting_time = $2 WHERE id = $1`, { bind: [replaced, notice.meetingTime?.toISOString() ?? null] });
      return { meetingId: replaced, matched: true, outcome: 'rescheduled' };
    }
  }
  const match = await matchAttendee(sequelize, accountId, notice);
  if (match === null) return { meetingId: null, matched: false, outcome: 'unknown_attendee' };

  const attendee = notice.attendees.find((a) => normalizeEmail(a.email) === match.email);
  const name = attendee?.name ?? leadName(match.first_name, match.last_name);
  const calendarLink = match.calendar_link ?? notice.bookingUrl;
  const id = newId('mtg');
  const now = new Date();
  const result = await sequelize.transaction(async (tx) => {
    const inserted = await sequelize.query<{ id: string }>(
      `INSERT INTO meetings (id, account_id, campaign_id, lead_id, provider, external_id, email, name, company, meeting_time, calendar_link)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
       ON CONFLICT (account_id, provider, external_id) DO NOTHING RETURNING id`,
      {
        bind: [id, accountId, match.campaign_id, match.lead_id, notice.provider, notice.externalId, match.email, name, match.company, notice.meetingTime?.toISOString() ?? null, calendarLink],
        type: QueryTypes.SELECT,
        transaction: tx,
      },
    );
    if (inserted.length === 0) {
      // The same booking delivered twice at once: the other delivery recorded it.
      return { meetingId: await existingMeeting(sequelize, accountId, notice, notice.externalId, tx), matched: true, outcome: 'duplicate' as const };
    }
    await recordEmailFact(sequelize, tx, {
      accountId,
      campaignId: match.campaign_id,
      emailId: match.email_id,
      leadId: match.lead_id,
      type: 'meeting_booked',
      occurredAt: now,
      data: { meeting_id: id, provider: notice.provider, meeting_time: notice.meetingTime?.toISOString() ?? null },
      dedupeKey: `meeting:${notice.provider}:${notice.externalId}`,
    });
    await emitEvent(sequelize, tx, {
      accountId,
      campaignId: match.campaign_id,
      event: 'meeting.booked',
      data: { email: match.email, name, company: match.company, meeting_time: notice.meetingTime?.toISOString() ?? null, calendar_link: calendarLink },
      at: now,
    });
    return { meetingId: id, matched: true, outcome: 'recorded' as const };
  });
  if (result.outcome === 'recorded') leadFacts?.notify([{ campaignId: match.campaign_id, leadId: match.lead_id, fact: 'meeting_booked' }]);
  return result;
}

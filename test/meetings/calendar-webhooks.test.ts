import { createHmac } from 'node:crypto';
import { expect } from 'chai';
import { createAccount, request, useTestApi } from '../support/api';
import { rows, seedSentEmail, type SentFixture } from '../replies/seed';

const CALCOM_SECRET = 'calcom-secret-0123456789abcdef';
const CALENDLY_KEY = 'calendly-key-0123456789abcdef';

const hmac = (key: string, data: string): string => createHmac('sha256', key).update(data).digest('hex');

function calcomBody(uid: string, attendee: string, trigger = 'BOOKING_CREATED'): string {
  return JSON.stringify({
    triggerEvent: trigger,
    createdAt: '2025-11-17T10:00:00.000Z',
    payload: {
      type: 'intro-call',
      title: 'Intro call between Sam and Jane',
      startTime: '2025-11-20T15:00:00Z',
      endTime: '2025-11-20T15:30:00Z',
      organizer: { email: 'sam@outreach.test', name: 'Sam Sender', timeZone: 'Europe/London' },
      attendees: [{ email: attendee, name: 'Jane Q. Doe', timeZone: 'America/New_York', language: { locale: 'en' } }],
      uid,
      bookingId: 42,
      location: 'integrations:daily',
      metadata: { videoCallUrl: 'https://app.cal.com/video/abc' },
    },
  });
}

function calendlyBody(uri: string, email: string, opts: { event?: string; oldInvitee?: string | null; start?: string } = {}): string {
  return JSON.stringify({
    created_at: '2025-11-17T10:00:00.000000Z',
    created_by: 'https://api.calendly.com/users/AAAA',
    event: opts.event ?? 'invitee.created',
    payload: {
      cancel_url: 'https://calendly.com/cancellations/INV',
      created_at: '2025-11-17T10:00:00.000000Z',
      email,
      first_name: 'Jane',
      last_name: 'Doe',
      name: 'Jane Doe',
      new_invitee: null,
      old_invitee: opts.oldInvitee ?? null,
      questions_and_answers: [],
      reschedule_url: 'https://calendly.com/reschedulings/INV',
      rescheduled: false,
      status: 'active',
      timezone: 'Europe/Berlin',
      tracking: { utm_campaign: null, utm_source: null },
      uri,
      scheduled_event: {
        uri: 'https://api.calendly.com/scheduled_events/EVT1',
        name: '30 Minute Meeting',
        status: 'active',
        start_time: opts.start ?? '2025-11-21T09:00:00.000000Z',
        end_time: '2025-11-21T09:30:00.000000Z',
        event_type: 'https://api.calendly.com/event_types/ET1',
      },
    },
  });
}

function calendlyHeader(body: string, key = CALENDLY_KEY, t = Math.floor(Date.now() / 1000)): string {
  return `t=${t},v1=${hmac(key, `${t}.${body}`)}`;
}

describe('meetings booked through Cal.com and Calendly webhooks', () => {
  const t = useTestApi();

  async function configure(accountId: string): Promise<void> {
    await t.db.sequelize.query(`INSERT INTO account_integrations (account_id, calcom_webhook_secret, calendly_signing_key) VALUES ($1, $2, $3)`, {
      bind: [accountId, CALCOM_SECRET, CALENDLY_KEY],
    });
  }

  async function counts(accountId: string): Promise<{ meetings: number; facts: number; events: number }> {
    const [m] = await rows<{ n: number }>(t.db.sequelize, `SELECT count(*)::int AS n FROM meetings WHERE account_id = $1`, [accountId]);
    const [f] = await rows<{ n: number }>(t.db.sequelize, `SELECT count(*)::int AS n FROM email_events WHERE account_id = $1 AND type = 'meeting_booked'`, [accountId]);
    const [e] = await rows<{ n: number }>(t.db.sequelize, `SELECT count(*)::int AS n FROM outbox WHERE account_id = $1 AND event = 'meeting.booked'`, [accountId]);
    return { meetings: m?.n ?? -1, facts: f?.n ?? -1, events: e?.n ?? -1 };
  }

  const postCalcom = (accountId: string, body: string, signature: string | null) =>
    request<Record<string, unknown>>(`${t.api.baseUrl}/webhooks/calcom/${accountId}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...(signature === null ? {} : { 'X-Cal-Signature-256': signature }) },
      body,
    });

  const postCalendly = (accountId: string, body: string, signature: string | null) =>
    request<Record<string, unknown>>(`${t.api.baseUrl}/webhooks/calendly/${accountId}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...(signature === null ? {} : { 'Calendly-Webhook-Signature': signature }) },
      body,
    });

  describe('Cal.com', () => {
    let sent: SentFixture;
    before(async () => {
      sent = await seedSentEmail(t.db.sequelize, { company: 'Acme Corp' });
      await configure(sent.accountId);
    });

    it('a signed BOOKING_CREATED records the meeting once, with its fact and meeting.booked event', async () => {
      const body = calcomBody('bk_123', sent.leadEmail.toUpperCase());
      const first = await postCalcom(sent.accountId, body, hmac(CALCOM_SECRET, body));
      expect(first.status, first.text).to.equal(200);
      expect(first.body).to.include({ matched: true, outcome: 'recorded' });
      expect(first.body.meetingId).to.match(/^mtg_/);

      const [meeting] = await rows<Record<string, unknown>>(t.db.sequelize, `SELECT * FROM meetings WHERE id = $1`, [first.body.meetingId]);
      expect(meeting).to.include({
        account_id: sent.accountId,
        campaign_id: sent.campaignId,
        lead_id: sent.leadId,
        provider: 'calcom',
        external_id: 'bk_123',
        email: sent.leadEmail,
        name: 'Jane Q. Doe',
        company: 'Acme Corp',
        calendar_link: 'https://cal.test/sam/intro',
      });
      expect((meeting?.meeting_time as Date).toISOString()).to.equal('2025-11-20T15:00:00.000Z');

      const [event] = await rows<{ campaign_id: string; data: Record<string, unknown> }>(
        t.db.sequelize,
        `SELECT campaign_id, data FROM outbox WHERE account_id = $1 AND event = 'meeting.booked'`,
        [sent.accountId],
      );
      expect(event?.campaign_id).to.equal(sent.campaignId);
      expect(event?.data).to.deep.equal({
        email: sent.leadEmail,
        name: 'Jane Q. Doe',
        company: 'Acme Corp',
        meeting_time: '2025-11-20T15:00:00.000Z',
        calendar_link: 'https://cal.test/sam/intro',
      });
      const [fact] = await rows<{ email_id: string; lead_id: string; dedupe_key: string }>(
        t.db.sequelize,
        `SELECT email_id, lead_id, dedupe_key FROM email_events WHERE account_id = $1 AND type = 'meeting_booked'`,
        [sent.accountId],
      );
      expect(fact).to.deep.equal({ email_id: sent.emailId, lead_id: sent.leadId, dedupe_key: 'meeting:calcom:bk_123' });

      const again = await postCalcom(sent.accountId, body, hmac(CALCOM_SECRET, body));
      expect(again.status).to.equal(200);
      expect(again.body).to.deep.equal({ meetingId: first.body.meetingId, matched: true, outcome: 'duplicate' });
      expect(await counts(sent.accountId)).to.deep.equal({ meetings: 1, facts: 1, events: 1 });
    });

    it('a tampered body, a missing signature or a wrong secret is 401 and records nothing', async () => {
      const body = calcomBody('bk_tampered', sent.leadEmail);
      const signature = hmac(CALCOM_SECRET, body);
      const tampered = body.replace('2025-11-20T15:00:00Z', '2025-11-20T16:00:00Z');
      const before = await counts(sent.accountId);
      for (const res of [
        await postCalcom(sent.accountId, tampered, signature),
        await postCalcom(sent.accountId, body, null),
        await postCalcom(sent.accountId, body, hmac('another-secret-0123456789', body)),
      ]) {
        expect(res.status).to.equal(401);
        expect(Object.keys(res.body)).to.deep.equal(['error']);
      }
      expect(await counts(sent.accountId)).to.deep.equal(before);
    });

    it('an account without a configured secret refuses every delivery', async () => {
      const { accountId } = await createAccount(t.db.sequelize);
      const body = calcomBody('bk_nosecret', 'x@y.test');
      const res = await postCalcom(accountId, body, hmac('', body));
      expect(res.status).to.equal(401);
      expect((await postCalcom('acc_doesnotexist', body, hmac(CALCOM_SECRET, body))).status).to.equal(401);
    });

    it('PING and other triggers are answered 200 ignored and record nothing', async () => {
      const before = await counts(sent.accountId);
      for (const trigger of ['PING', 'BOOKING_CANCELLED', 'BOOKING_RESCHEDULED']) {
        const body = calcomBody(`bk_${trigger}`, sent.leadEmail, trigger);
        const res = await postCalcom(sent.accountId, body, hmac(CALCOM_SECRET, body));
        expect(res.status).to.equal(200);
        expect(res.body).to.deep.equal({ meetingId: null, matched: false, outcome: 'ignored' });
      }
      expect(await counts(sent.accountId)).to.deep.equal(before);
    });

    it('a booking by someone the account never emailed is not recorded', async () => {
      const body = calcomBody('bk_stranger', 'stranger@elsewhere.test');
      const res = await postCalcom(sent.accountId, body, hmac(CALCOM_SECRET, body));
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal({ meetingId: null, matched: false, outcome: 'unknown_attendee' });
      expect(await rows(t.db.sequelize, `SELECT 1 FROM meetings WHERE external_id = 'bk_stranger'`)).to.have.length(0);
    });

    it('a signed payload that is not a booking is a 400 naming the problem', async () => {
      const body = JSON.stringify({ triggerEvent: 'BOOKING_CREATED', payload: { uid: 'bk_bad', startTime: '2025-11-20T15:00:00Z', attendees: [] } });
      const res = await postCalcom(sent.accountId, body, hmac(CALCOM_SECRET, body));
      expect(res.status).to.equal(400);
      expect(res.body.error).to.match(/attendees/);
    });
  });

  describe('Calendly', () => {
    let older: SentFixture;
    let latest: SentFixture;
    before(async () => {
      older = await seedSentEmail(t.db.sequelize, { sentAt: new Date(Date.now() - 3 * 86_400_000) });
      // A later campaign wrote to the same lead, without a calendar link of its own.
      latest = await seedSentEmail(t.db.sequelize, { accountId: older.accountId, leadEmail: older.leadEmail, calendarLink: null, sentAt: new Date(Date.now() - 86_400_000) });
      await configure(older.accountId);
    });

    it('a signed invitee.created is recorded once, for the campaign of the most recent email', async () => {
      const uri = 'https://api.calendly.com/scheduled_events/EVT1/invitees/INV1';
      const body = calendlyBody(uri, older.leadEmail);
      const first = await postCalendly(older.accountId, body, calendlyHeader(body));
      expect(first.status, first.text).to.equal(200);
      expect(first.body).to.include({ matched: true, outcome: 'recorded' });
      const [meeting] = await rows<Record<string, unknown>>(t.db.sequelize, `SELECT * FROM meetings WHERE id = $1`, [first.body.meetingId]);
      expect(meeting).to.include({ campaign_id: latest.campaignId, lead_id: latest.leadId, provider: 'calendly', external_id: uri, name: 'Jane Doe' });
      const [event] = await rows<{ campaign_id: string; data: Record<string, unknown> }>(
        t.db.sequelize,
        `SELECT campaign_id, data FROM outbox WHERE account_id = $1 AND event = 'meeting.booked'`,
        [older.accountId],
      );
      expect(event?.campaign_id).to.equal(latest.campaignId);
      // The campaign has no calendar link: the booking's own URL stands in.
      expect(event?.data).to.deep.equal({
        email: older.leadEmail,
        name: 'Jane Doe',
        company: 'Acme Corp',
        meeting_time: '2025-11-21T09:00:00.000Z',
        calendar_link: 'https://api.calendly.com/scheduled_events/EVT1',
      });

      const again = await postCalendly(older.accountId, body, calendlyHeader(body));
      expect(again.body).to.deep.equal({ meetingId: first.body.meetingId, matched: true, outcome: 'duplicate' });
      expect(await counts(older.accountId)).to.deep.equal({ meetings: 1, facts: 1, events: 1 });
    });

    it('a reschedule moves the meeting it replaces instead of booking a second one', async () => {
      const body = calendlyBody('https://api.calendly.com/scheduled_events/EVT2/invitees/INV2', older.leadEmail, {
        oldInvitee: 'https://api.calendly.com/scheduled_events/EVT1/invitees/INV1',
        start: '2025-11-24T11:00:00.000000Z',
      });
      const res = await postCalendly(older.accountId, body, calendlyHeader(body));
      expect(res.body).to.include({ matched: true, outcome: 'rescheduled' });
      const [meeting] = await rows<{ meeting_time: Date }>(t.db.sequelize, `SELECT meeting_time FROM meetings WHERE id = $1`, [res.body.meetingId]);
      expect(meeting?.meeting_time.toISOString()).to.equal('2025-11-24T11:00:00.000Z');
      expect(await counts(older.accountId)).to.deep.equal({ meetings: 1, facts: 1, events: 1 });
    });

    it('a correctly signed delivery older than 5 minutes is refused as a replay', async () => {
      const body = calendlyBody('https://api.calendly.com/scheduled_events/EVT3/invitees/INV3', older.leadEmail);
      const res = await postCalendly(older.accountId, body, calendlyHeader(body, CALENDLY_KEY, Math.floor(Date.now() / 1000) - 6 * 60));
      expect(res.status).to.equal(401);
      expect(res.body.error).to.match(/older than 5 minutes/);
      expect(await rows(t.db.sequelize, `SELECT 1 FROM meetings WHERE external_id LIKE '%INV3'`)).to.have.length(0);
    });

    it('a tampered body, a wrong key or a malformed header is 401', async () => {
      const body = calendlyBody('https://api.calendly.com/scheduled_events/EVT4/invitees/INV4', older.leadEmail);
      const header = calendlyHeader(body);
      for (const res of [
        await postCalendly(older.accountId, body.replace('Jane Doe', 'Eve Doe'), header),
        await postCalendly(older.accountId, body, calendlyHeader(body, 'wrong-key-0123456789abcdef')),
        await postCalendly(older.accountId, body, 'v1=deadbeef'),
        await postCalendly(older.accountId, body, null),
      ]) {
        expect(res.status).to.equal(401);
        expect(Object.keys(res.body)).to.deep.equal(['error']);
      }
      expect(await rows(t.db.sequelize, `SELECT 1 FROM meetings WHERE external_id LIKE '%INV4'`)).to.have.length(0);
    });

    it('invitee.canceled and other events are ignored', async () => {
      const body = calendlyBody('https://api.calendly.com/scheduled_events/EVT1/invitees/INV1', older.leadEmail, { event: 'invitee.canceled' });
      const res = await postCalendly(older.accountId, body, calendlyHeader(body));
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal({ meetingId: null, matched: false, outcome: 'ignored' });
      expect(await counts(older.accountId)).to.deep.equal({ meetings: 1, facts: 1, events: 1 });
    });
  });
});

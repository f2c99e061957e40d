import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { QueryTypes } from 'sequelize';
import { enrolLeads, enrolSettingsOf } from '../../src/campaigns/enrolment/enrol-leads';
import { adoptTracks, listEnrolments } from '../../src/campaigns/enrolment/enrolment-repository';
import { utcDate } from '../../src/campaigns/model/calendar';
import type { CampaignSchedule } from '../../src/campaigns/model/schedule';
import { findTemplate } from '../../src/campaigns/model/templates';
import { sendEnrolledBatch } from '../../src/campaigns/sending/send-enrolled';
import { insertNewLeads } from '../../src/leads/lead-repository';
import type { LeadInput } from '../../src/leads/fields';
import { createLogger } from '../../src/log/logger';
import { EmailSender } from '../../src/sending/email-sender';
import { smtpTransports } from '../../src/sending/transports';
import { EmailWriter } from '../../src/writing/email-writer';
import type { SendEnrolledInput, SendEnrolledResult } from '../../workflows/campaign/contract';
import { createAccount, testConfig } from '../support/api';
import { seedCampaign } from '../support/campaign-seed';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { startLocalDns, type LocalDns } from '../support/local-dns';
import { TestSmtpSink } from '../support/smtp-sink';

const log = createLogger('silent', 'test');
/** Step delays 0, 3, 4, 7 days. */
const STEPS = findTemplate('sales_outreach')!.steps.map((s) => ({ delayDays: s.delayDays, kind: s.kind }));
const NINE_TO_FIVE = { startMinute: 9 * 60, endMinute: 17 * 60 };
const t = (iso: string): number => Date.parse(iso);

function schedule(s: Partial<CampaignSchedule> = {}): CampaignSchedule {
  return { frequency: 'daily', timezone: 'UTC', leadTimezones: true, window: NINE_TO_FIVE, days: null, blackoutDates: [], skipHolidays: false, ...s };
}

interface Person {
  readonly name: string;
  readonly city?: string;
  readonly country?: string;
}

/**
 * Sending in each lead's own hours (issue 28 point 4) on PostgreSQL, a local DNS server and the SMTP
 * sink: the batch is given the workflow's instant (`at`) and the schedule; who is emailed is read
 * from what the SMTP server received, and when the workflow should wake from `nextWakeAt`. The
 * instants are fixed (no test depends on the time it runs at).
 */
describe('sending in each lead\'s own zone: windows, holidays, blackout dates, DST (PostgreSQL, SMTP sink)', () => {
  let db: TestDatabase;
  let sink: TestSmtpSink;
  let dns: LocalDns;

  before(async () => {
    [db, sink, dns] = await Promise.all([createTestDatabase(), TestSmtpSink.start(), startLocalDns((name) => ({ mx: [`mx.${name}`] }))]);
  });
  after(async () => {
    await smtpTransports.closeAll();
    await sink?.close();
    await dns?.close();
    await db?.drop();
  });

  const config = () => testConfig({ SMTP_SINK_PORT: String(sink.port), DEFAULT_FROM_EMAIL: 'outreach@sender.example', EMAIL_DNS_SERVERS: dns.server, EMAIL_DNS_TIMEOUT_MS: '300' });
  const received = (address: string): number => sink.messages.filter((m) => m.to.includes(address)).length;

  /** A campaign (its own account) with one lead per person, enrolled through enrolLeads; addresses by person's name. */
  async function campaignWith(people: Person[], attrs: { timezone?: string; leadTimezones?: boolean; scheduleStartDate?: string } = {}) {
    const tag = randomBytes(4).toString('hex');
    const emailOf = (p: Person): string => `${p.name.toLowerCase()}@${p.name.toLowerCase()}-${tag}.com`;
    const leads: LeadInput[] = people.map((p) => ({
      email: emailOf(p),
      firstName: p.name,
      lastName: 'Lead',
      title: 'CTO',
      company: `${p.name} Co`,
      companyDomain: null,
      industry: null,
      city: p.city ?? null,
      state: null,
      country: p.country ?? null,
      linkedinUrl: null,
      phone: null,
    }));
    const { accountId } = await createAccount(db.sequelize, 'pro');
    await db.sequelize.transaction((tx) => insertNewLeads(db.sequelize, tx, accountId, 'import', leads));
    const campaign = await seedCampaign(accountId, { status: 'running', timezone: attrs.timezone ?? 'UTC', leadTimezones: attrs.leadTimezones ?? true, scheduleStartDate: attrs.scheduleStartDate ?? null });
    const ids = await db.sequelize.query<{ id: string; email: string }>('SELECT id, email FROM leads WHERE account_id = $1', { bind: [accountId], type: QueryTypes.SELECT });
    const settings = (await enrolSettingsOf(db.sequelize, accountId, campaign.id))!;
    const enrolled = await enrolLeads(db.sequelize, settings, ids.map((r) => r.id), { source: 'manual', day: null, retake: true });
    expect(enrolled.queued).to.have.length(people.length);
    const email = Object.fromEntries(people.map((p) => [p.name, emailOf(p)]));
    return { accountId, campaignId: campaign.id, email };
  }

  function deps() {
    const cfg = config();
    return { sequelize: db.sequelize, config: cfg, log, writer: new EmailWriter({ sequelize: db.sequelize, config: cfg, log }), sender: new EmailSender({ sequelize: db.sequelize, config: cfg, log }) };
  }
  const runtime = { heartbeat: () => undefined, sleep: async () => undefined };

  /** One batch at `at` (the campaign's day is the UTC date: these campaigns' zone is UTC unless said). */
  async function batchAt(c: { accountId: string; campaignId: string }, at: number, s: CampaignSchedule, firstEmailsLeft = 100): Promise<SendEnrolledResult> {
    const input: SendEnrolledInput = {
      campaignId: c.campaignId,
      accountId: c.accountId,
      mcp: 'sales_outreach',
      companyId: null,
      day: utcDate(at),
      steps: STEPS,
      firstEmailsLeft,
      maxItems: 500,
      budgetRemainingUsd: null,
      at,
      schedule: s,
    };
    return sendEnrolledBatch(deps(), runtime, input);
  }
  const rowsOf = async (campaignId: string) =>
    Object.fromEntries(
      (
        await db.sequelize.query<{ email: string; state: string; next_send_day: string | null; time_zone: string | null; time_zone_source: string | null; country_code: string | null }>(
          `SELECT l.email, ce.state, to_char(ce.next_send_day, 'YYYY-MM-DD') AS next_send_day, ce.time_zone, ce.time_zone_source, ce.country_code
           FROM campaign_enrolments ce JOIN leads l ON l.id = ce.lead_id WHERE ce.campaign_id = $1`,
          { bind: [campaignId], type: QueryTypes.SELECT },
        )
      ).map((r) => [r.email, r]),
    );

  it('Tokyo, Berlin and New York on Wed 2026-12-02 (09:00-17:00 local): at 01:00 UTC only Tokyo is written; the workflow wakes at Berlin\'s 09:00 (08:00 UTC), then at New York\'s (14:00 UTC)', async () => {
    const c = await campaignWith([
      { name: 'Aiko', city: 'Tokyo', country: 'Japan' },
      { name: 'Bernd', city: 'Berlin', country: 'Germany' },
      { name: 'Nora', city: 'New York', country: 'US' },
    ]);
    const rows = await rowsOf(c.campaignId);
    expect(rows[c.email.Aiko!]).to.include({ time_zone: 'Asia/Tokyo', time_zone_source: 'city', country_code: 'JP' });
    expect(rows[c.email.Bernd!]).to.include({ time_zone: 'Europe/Berlin', time_zone_source: 'city', country_code: 'DE' });
    expect(rows[c.email.Nora!]).to.include({ time_zone: 'America/New_York', time_zone_source: 'city', country_code: 'US' });

    // 10:00 in Tokyo, 02:00 in Berlin, 20:00 (the day before) in New York.
    const first = await batchAt(c, t('2026-12-02T01:00:00Z'), schedule());
    expect([received(c.email.Aiko!), received(c.email.Bernd!), received(c.email.Nora!)]).to.deep.equal([1, 0, 0]);
    expect(first).to.include({ selected: 1, sent: 1, activeLeads: 3 });
    expect(first.nextWakeAt).to.equal(t('2026-12-02T08:00:00Z'));
    // Tokyo's follow-up is counted from Tokyo's date (2026-12-02 + 3 days).
    expect((await rowsOf(c.campaignId))[c.email.Aiko!]).to.include({ state: 'in_sequence', next_send_day: '2026-12-05' });

    const second = await batchAt(c, t('2026-12-02T08:00:00Z'), schedule());
    expect([received(c.email.Aiko!), received(c.email.Bernd!), received(c.email.Nora!)]).to.deep.equal([1, 1, 0]);
    expect(second.nextWakeAt).to.equal(t('2026-12-02T14:00:00Z'));

    const third = await batchAt(c, t('2026-12-02T14:00:00Z'), schedule());
    expect([received(c.email.Aiko!), received(c.email.Bernd!), received(c.email.Nora!)]).to.deep.equal([1, 1, 1]);
    // Everyone waits for a follow-up now: the first is Tokyo's, on 2026-12-05 at 09:00 there.
    expect(third.nextWakeAt).to.equal(t('2026-12-05T00:00:00Z'));
  });

  it('skip_holidays: a New York lead is held on Thanksgiving (Thu 2026-11-26) and on Independence Day observed (Fri 2026-07-03); without it the lead is written', async () => {
    const held = await campaignWith([{ name: 'Hank', city: 'New York', country: 'United States' }]);
    const thanksgiving = await batchAt(held, t('2026-11-26T15:00:00Z'), schedule({ skipHolidays: true }));
    expect(received(held.email.Hank!)).to.equal(0);
    expect(thanksgiving).to.include({ selected: 0, sent: 0 });
    // Friday 09:00 in New York (EST).
    expect(thanksgiving.nextWakeAt).to.equal(t('2026-11-27T14:00:00Z'));
    // 2026-07-04 is a Saturday: observed on Friday the 3rd; weekdays only, so the next day is Monday the 6th, 09:00 EDT.
    const observed = await batchAt(held, t('2026-07-03T14:00:00Z'), schedule({ skipHolidays: true, frequency: 'weekdays' }));
    expect(received(held.email.Hank!)).to.equal(0);
    expect(observed.nextWakeAt).to.equal(t('2026-07-06T13:00:00Z'));

    const written = await campaignWith([{ name: 'Hope', city: 'New York', country: 'United States' }]);
    const result = await batchAt(written, t('2026-11-26T15:00:00Z'), schedule({ skipHolidays: false }));
    expect(received(written.email.Hope!)).to.equal(1);
    expect(result).to.include({ sent: 1 });
  });

  it('a lead with neither city nor country is written in the campaign\'s zone (Asia/Tokyo) and listed with it; a Berlin lead keeps their own', async () => {
    const c = await campaignWith([{ name: 'Unknown' }, { name: 'Berta', city: 'Berlin', country: 'DE' }], { timezone: 'Asia/Tokyo' });
    const rows = await rowsOf(c.campaignId);
    expect(rows[c.email.Unknown!]).to.include({ time_zone: null, time_zone_source: null, country_code: null });
    // 10:00 in Tokyo, 02:00 in Berlin.
    const result = await batchAt(c, t('2026-12-02T01:00:00Z'), schedule({ timezone: 'Asia/Tokyo' }));
    expect(received(c.email.Unknown!)).to.equal(1);
    expect(received(c.email.Berta!)).to.equal(0);
    expect(result.nextWakeAt).to.equal(t('2026-12-02T08:00:00Z'));
    const listed = Object.fromEntries((await listEnrolments(db.sequelize, c.campaignId, { limit: 10, offset: 0 })).leads.map((l) => [l.email, [l.timeZone, l.timeZoneSource]]));
    expect(listed).to.deep.equal({ [c.email.Unknown!]: ['Asia/Tokyo', 'campaign'], [c.email.Berta!]: ['Europe/Berlin', 'city'] });
  });

  it('a campaign not in lead mode writes everyone in its own zone and lists that zone for each lead, their own zone known or not', async () => {
    const c = await campaignWith([{ name: 'Taro', city: 'Tokyo', country: 'JP' }, { name: 'Greta', city: 'Berlin', country: 'DE' }], { timezone: 'Europe/Berlin', leadTimezones: false });
    // 10:00 in Berlin (19:00 in Tokyo): both written, in Berlin's window.
    const result = await batchAt(c, t('2026-12-02T09:00:00Z'), schedule({ timezone: 'Europe/Berlin', leadTimezones: false }));
    expect([received(c.email.Taro!), received(c.email.Greta!)]).to.deep.equal([1, 1]);
    expect(result.nextWakeAt).to.equal(t('2026-12-05T08:00:00Z'));
    const listed = (await listEnrolments(db.sequelize, c.campaignId, { limit: 10, offset: 0 })).leads.map((l) => [l.timeZone, l.timeZoneSource]);
    expect(listed).to.deep.equal([
      ['Europe/Berlin', 'campaign'],
      ['Europe/Berlin', 'campaign'],
    ]);
  });

  it('Sydney across the end of DST (Sun 2026-04-05): the window opens at 09:00 local on Fri 04-03 (22:00 UTC the day before, AEDT) and on Mon 04-06 (23:00 UTC, AEST)', async () => {
    const c = await campaignWith([{ name: 'Sid', city: 'Sydney', country: 'Australia' }]);
    const early = await batchAt(c, t('2026-04-02T21:30:00Z'), schedule());
    expect(received(c.email.Sid!)).to.equal(0);
    expect(early.nextWakeAt).to.equal(t('2026-04-02T22:00:00Z'));
    const opening = await batchAt(c, t('2026-04-02T22:00:00Z'), schedule());
    expect(received(c.email.Sid!)).to.equal(1);
    expect((await rowsOf(c.campaignId))[c.email.Sid!]).to.include({ next_send_day: '2026-04-06' });
    expect(opening.nextWakeAt).to.equal(t('2026-04-05T23:00:00Z'));
    // 09:30 had the clocks not gone back; 08:30 AEST: not yet.
    const beforeNine = await batchAt(c, t('2026-04-05T22:30:00Z'), schedule());
    expect(received(c.email.Sid!)).to.equal(1);
    expect(beforeNine.nextWakeAt).to.equal(t('2026-04-05T23:00:00Z'));
    await batchAt(c, t('2026-04-05T23:00:00Z'), schedule());
    expect(received(c.email.Sid!)).to.equal(2);
  });

  it('Berlin across the start of DST (Sun 2026-03-29): the window opens at 09:00 local on Fri 03-27 (08:00 UTC, CET) and on Mon 03-30 (07:00 UTC, CEST)', async () => {
    const c = await campaignWith([{ name: 'Bea', city: 'Berlin', country: 'Germany' }]);
    const early = await batchAt(c, t('2026-03-27T07:30:00Z'), schedule());
    expect(received(c.email.Bea!)).to.equal(0);
    expect(early.nextWakeAt).to.equal(t('2026-03-27T08:00:00Z'));
    const opening = await batchAt(c, t('2026-03-27T08:00:00Z'), schedule());
    expect(received(c.email.Bea!)).to.equal(1);
    expect(opening.nextWakeAt).to.equal(t('2026-03-30T07:00:00Z'));
    // 07:30 CET would be 08:30 CEST: still before nine.
    await batchAt(c, t('2026-03-30T06:30:00Z'), schedule());
    expect(received(c.email.Bea!)).to.equal(1);
    await batchAt(c, t('2026-03-30T07:00:00Z'), schedule());
    expect(received(c.email.Bea!)).to.equal(2);
  });

  it('a blackout date is read in the lead\'s zone: at 03:00 UTC on 2026-12-03 (blacked out) Tokyo, already on the 3rd, is held; New York, still on the 2nd, is written', async () => {
    const c = await campaignWith([{ name: 'Kenji', city: 'Tokyo', country: 'Japan' }, { name: 'Ned', city: 'New York', country: 'US' }]);
    const allDay = schedule({ window: { startMinute: 0, endMinute: 1440 }, blackoutDates: ['2026-12-03'] });
    const result = await batchAt(c, t('2026-12-03T03:00:00Z'), allDay);
    expect(received(c.email.Kenji!)).to.equal(0);
    expect(received(c.email.Ned!)).to.equal(1);
    // Tokyo's next day, 2026-12-04 00:00 there.
    expect(result.nextWakeAt).to.equal(t('2026-12-03T15:00:00Z'));
  });

  it('the day\'s pace holds across zones: with room for 2 first emails, 2 of the 3 leads in their window go and the third waits for room; the Berlin lead (02:00) waits for its window', async () => {
    const c = await campaignWith([
      { name: 'Ai', city: 'Tokyo', country: 'Japan' },
      { name: 'Bo', city: 'Berlin', country: 'Germany' },
      { name: 'Cho', city: 'Osaka', country: 'Japan' },
      { name: 'Dai', city: 'Sapporo', country: 'Japan' },
    ]);
    const japan = ['Ai', 'Cho', 'Dai'];
    const sentTo = (names: string[]) => names.filter((n) => received(c.email[n]!) === 1);
    // 10:00 in Japan, 02:00 in Berlin: three leads in their window, room for two.
    const result = await batchAt(c, t('2026-12-02T01:00:00Z'), schedule(), 2);
    expect(result).to.include({ selected: 2, sent: 2 });
    expect(sentTo(japan)).to.have.length(2);
    await batchAt(c, t('2026-12-02T01:05:00Z'), schedule(), 100);
    expect(sentTo(japan)).to.have.length(3);
    expect(received(c.email.Bo!)).to.equal(0);
  });

  it('a weekly campaign sends on its start date\'s weekday (Tue 2026-12-01), in the lead\'s zone: nothing on Wed 12-02, the next opening is Tue 12-08 09:00 in Berlin', async () => {
    const c = await campaignWith([{ name: 'Wil', city: 'Berlin', country: 'Germany' }], { scheduleStartDate: '2026-12-01' });
    const result = await batchAt(c, t('2026-12-02T09:00:00Z'), schedule({ frequency: 'weekly' }));
    expect(received(c.email.Wil!)).to.equal(0);
    expect(result.nextWakeAt).to.equal(t('2026-12-08T08:00:00Z'));
    await batchAt(c, t('2026-12-08T08:00:00Z'), schedule({ frequency: 'weekly' }));
    expect(received(c.email.Wil!)).to.equal(1);
  });

  it('a workflow\'s own record adopted into the table gets each lead\'s zone and country too', async () => {
    const { accountId } = await createAccount(db.sequelize, 'pro');
    const tag = randomBytes(4).toString('hex');
    const lead = (email: string, city: string | null, country: string | null): LeadInput => ({
      email, firstName: 'A', lastName: 'B', title: null, company: null, companyDomain: null, industry: null, city, state: null, country, linkedinUrl: null, phone: null,
    });
    await db.sequelize.transaction((tx) => insertNewLeads(db.sequelize, tx, accountId, 'import', [lead(`syd@${tag}.com`, 'Sydney', 'Australia'), lead(`none@${tag}.com`, null, null)]));
    const ids = await db.sequelize.query<{ id: string; email: string }>('SELECT id, email FROM leads WHERE account_id = $1', { bind: [accountId], type: QueryTypes.SELECT });
    const campaign = await seedCampaign(accountId, { status: 'running', leadTimezones: true });
    await adoptTracks(db.sequelize, accountId, campaign.id, ids.map((r) => ({ leadId: r.id, step: 0, nextDay: '2026-12-05', subject: 'Hello', thread: ['<m1@x>'] })));
    const rows = await rowsOf(campaign.id);
    expect(rows[`syd@${tag}.com`]).to.include({ state: 'in_sequence', next_send_day: '2026-12-05', time_zone: 'Australia/Sydney', time_zone_source: 'city', country_code: 'AU' });
    expect(rows[`none@${tag}.com`]).to.include({ state: 'in_sequence', time_zone: null, time_zone_source: null, country_code: null });
  });

  it('a schedule whose only sending weekday is blacked out for 400 days gives no wake-up (null), and sends nothing', async () => {
    const c = await campaignWith([{ name: 'Mona', city: 'Berlin', country: 'Germany' }]);
    // Every Monday from 2026-11-30 for 58 weeks.
    const mondays = Array.from({ length: 58 }, (_, i) => utcDate(t('2026-11-30T00:00:00Z') + i * 7 * 86_400_000));
    const result = await batchAt(c, t('2026-11-30T10:00:00Z'), schedule({ days: { '1': NINE_TO_FIVE }, blackoutDates: mondays }));
    expect(received(c.email.Mona!)).to.equal(0);
    expect(result).to.include({ selected: 0, activeLeads: 1, nextWakeAt: null });
  });
});

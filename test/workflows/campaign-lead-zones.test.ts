import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { QueryTypes } from 'sequelize';
import { createActivities } from '../../activities';
import type { LeadInput } from '../../src/leads/fields';
import { insertNewLeads } from '../../src/leads/lead-repository';
import { addLeadsToList, createList } from '../../src/leads/lists/list-repository';
import { createLogger } from '../../src/log/logger';
import { smtpTransports } from '../../src/sending/transports';
import { statusQuery } from '../../workflows/campaign/contract';
import { createAccount, testConfig } from '../support/api';
import { seedCampaign } from '../support/campaign-seed';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { pages, startFakeSite, type FakeSite } from '../support/fake-site';
import { TestSmtpSink } from '../support/smtp-sink';
import { aSchedule, at, firstDateAfter, weekday } from './support/campaign-harness';
import { RealCampaignHarness } from './support/real-campaign-harness';

const HOME = '<html><head><title>Acme Analytics</title></head><body><h1>Acme Analytics</h1></body></html>';

/**
 * `timezone: "lead"` end to end: the real workflow and activities on the time-skipping server,
 * PostgreSQL and a local SMTP sink. Three leads in Tokyo, Berlin and New York each get their first
 * email when their own 09:00-17:00 window opens: the workflow sleeps until the next lead's window
 * (the batch's nextWakeAt), not until a window of the campaign.
 */
describe('lead-zone campaign over one day (time-skipping, real activities, PostgreSQL, SMTP sink)', function () {
  this.timeout(180_000);
  const h = new RealCampaignHarness();
  let db: TestDatabase;
  let sink: TestSmtpSink;
  let site: FakeSite;

  before(async () => {
    [db, sink, site] = await Promise.all([createTestDatabase(), TestSmtpSink.start(), startFakeSite(pages({ '/': [200, { 'content-type': 'text/html' }, HOME] })), h.start()]);
  });
  after(async () => {
    await h.stop();
    await smtpTransports.closeAll();
    await sink?.close();
    await site?.close();
    await db?.drop();
  });

  const activities = () =>
    createActivities({ sequelize: db.sequelize, config: testConfig({ SMTP_SINK_PORT: String(sink.port), DEFAULT_FROM_EMAIL: 'outreach@sender.example' }), log: createLogger('silent', 'test') });
  const received = (address: string): number => sink.messages.filter((m) => m.to.includes(address)).length;

  it('Tokyo at 01:00 UTC, Berlin at 09:00 UTC, New York at 15:00 UTC (a winter Wednesday), each in their own 10:00', async () => {
    const domain = `zones-${randomBytes(4).toString('hex')}.example`;
    const people: Array<[string, string, string]> = [
      ['kenji', 'Tokyo', 'Japan'],
      ['greta', 'Berlin', 'Germany'],
      ['nora', 'New York', 'United States'],
    ];
    const address = (local: string): string => `${local}@${domain}`;
    const lead = ([local, city, country]: [string, string, string]): LeadInput => ({
      email: address(local), firstName: local, lastName: 'Lead', title: 'CTO', company: `${local} Inc`, companyDomain: `${local}-co.example`,
      industry: null, city, state: null, country, linkedinUrl: null, phone: null,
    });
    const { accountId } = await createAccount(db.sequelize, 'pro');
    await db.sequelize.transaction((tx) => insertNewLeads(db.sequelize, tx, accountId, 'import', people.map(lead)));
    const ids = await db.sequelize.query<{ id: string }>('SELECT id FROM leads WHERE account_id = $1', { bind: [accountId], type: QueryTypes.SELECT });
    const list = await createList(db.sequelize, accountId, 'Three zones');
    await addLeadsToList(db.sequelize, null, accountId, list.id, ids.map((r) => r.id));
    const campaign = await seedCampaign(accountId, { status: 'starting', name: 'Around the world', targetUrl: site.origin });
    await db.sequelize.query(`UPDATE campaigns SET lead_list_ids = $2, lead_timezones = true, timezone = 'UTC' WHERE id = $1`, { bind: [campaign.id, [list.id]] });

    // A Wednesday in winter: no DST anywhere of the three; the campaign starts on Tuesday evening UTC.
    const S = firstDateAfter(await h.now(), (d) => weekday(d) === 3 && ['12', '01', '02'].includes(d.slice(5, 7)));
    const startDate = S;
    // 10:00-17:00: at the start (00:00 UTC) no lead's window is open; the first batch finds nothing
    // due and must still say when Tokyo's opens.
    const schedule = aSchedule({ leadTimezones: true, timezone: 'UTC', window: { startMinute: 600, endMinute: 1020 } });
    await db.sequelize.query('UPDATE campaigns SET send_window_start_minute = 600 WHERE id = $1', { bind: [campaign.id] });
    await h.realCampaign({ campaignId: campaign.id, accountId, mcp: 'sales_outreach', targetUrl: site.origin, startDate, schedule }, activities(), async (handle) => {
      await h.sleepUntil(at(S, '00:30')); // 09:30 in Tokyo: not yet
      expect(received(address('kenji'))).to.equal(0);
      await h.sleepUntil(at(S, '01:30')); // 10:30 in Tokyo, 02:30 in Berlin, 20:30 the day before in New York
      expect([received(address('kenji')), received(address('greta')), received(address('nora'))]).to.deep.equal([1, 0, 0]);
      await h.sleepUntil(at(S, '09:30')); // 10:30 in Berlin
      expect([received(address('kenji')), received(address('greta')), received(address('nora'))]).to.deep.equal([1, 1, 0]);
      await h.sleepUntil(at(S, '14:30')); // 09:30 in New York: not yet
      expect(received(address('nora'))).to.equal(0);
      await h.sleepUntil(at(S, '15:30')); // 10:30 in New York
      expect([received(address('kenji')), received(address('greta')), received(address('nora'))]).to.deep.equal([1, 1, 1]);
      expect((await handle.query(statusQuery)).counters.emailsSent).to.equal(3);
    });
    const zones = await db.sequelize.query<{ time_zone: string; time_zone_source: string }>(
      'SELECT time_zone, time_zone_source FROM campaign_enrolments WHERE campaign_id = $1 ORDER BY time_zone',
      { bind: [campaign.id], type: QueryTypes.SELECT },
    );
    expect(zones).to.deep.equal([
      { time_zone: 'America/New_York', time_zone_source: 'city' },
      { time_zone: 'Asia/Tokyo', time_zone_source: 'city' },
      { time_zone: 'Europe/Berlin', time_zone_source: 'city' },
    ]);
  });
});

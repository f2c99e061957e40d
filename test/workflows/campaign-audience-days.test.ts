import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { createActivities } from '../../activities';
import type { AudienceFilters } from '../../src/campaigns/audience/types';
import type { LeadInput } from '../../src/leads/fields';
import { insertNewLeads } from '../../src/leads/lead-repository';
import { createLogger } from '../../src/log/logger';
import { smtpTransports } from '../../src/sending/transports';
import { statusQuery } from '../../workflows/campaign/contract';
import { createAccount, testConfig } from '../support/api';
import { seedCampaign } from '../support/campaign-seed';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { pages, startFakeSite, type FakeSite } from '../support/fake-site';
import { TestSmtpSink } from '../support/smtp-sink';
import { at, firstDateAfter, plusDays, weekday } from './support/campaign-harness';
import { RealCampaignHarness } from './support/real-campaign-harness';

const HOME = '<html><head><title>Acme Analytics</title><meta name="description" content="Dashboards for finance teams"></head><body><h1>Acme Analytics</h1></body></html>';
const AUDIENCE: AudienceFilters = { titles: ['CTO'], locations: ['Germany'] };

/**
 * A campaign with an audience, run by the real campaign workflow with the real activities
 * (planning with the SQL matcher, the real batch) on the time-skipping server, against PostgreSQL
 * and a local SMTP sink: who is emailed is read from what the SMTP server received. The sending
 * window is the default 09:00-17:00 UTC.
 */
describe('campaign audience over sending days (time-skipping, real activities, PostgreSQL, SMTP sink)', function () {
  this.timeout(120_000);
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

  it('day S emails only the matching leads; a matching lead imported after it gets its first email on S+1, a non-matching one never, nobody a first email twice (S 00:00 .. S+1 17:00)', async () => {
    const domain = `audience-days-${randomBytes(4).toString('hex')}.example`;
    const address = (local: string): string => `${local}@${domain}`;
    const lead = (local: string, title: string, country: string): LeadInput => ({
      email: address(local),
      firstName: local,
      lastName: 'Lead',
      title,
      company: `${local} GmbH`,
      companyDomain: null,
      industry: 'Software',
      city: null,
      state: null,
      country,
      linkedinUrl: null,
      phone: null,
    });
    const { accountId } = await createAccount(db.sequelize, 'pro');
    // The import path: the profile columns (title key, country code, ...) are filled on insert.
    const importLeads = (leads: LeadInput[]): Promise<number> => db.sequelize.transaction((tx) => insertNewLeads(db.sequelize, tx, accountId, 'import', leads));
    expect(await importLeads([lead('anna', 'CTO', 'Germany'), lead('ben', 'Chief Technology Officer', 'Germany'), lead('claire', 'CTO', 'France'), lead('gina', 'Marketing Director', 'Germany')])).to.equal(4);

    // Stored as startCampaign stores an explicit audience; the workflow moves it out of starting.
    const campaign = await seedCampaign(accountId, { status: 'starting', targetUrl: site.origin, audienceFilters: AUDIENCE, audienceSource: 'explicit' });
    const activities = createActivities({
      sequelize: db.sequelize,
      config: testConfig({ SMTP_SINK_PORT: String(sink.port), DEFAULT_FROM_EMAIL: 'outreach@sender.example' }),
      log: createLogger('silent', 'test'),
    });

    /** Every message the pool's addresses received so far, one entry per recipient, sorted. */
    const recipients = (): string[] =>
      sink.messages
        .flatMap((m) => m.to)
        .filter((a) => a.endsWith(`@${domain}`))
        .sort();

    // A Tuesday: S+1 is a weekday too.
    const S = firstDateAfter(await h.now(), (d) => weekday(d) === 2);
    const S1 = plusDays(S, 1);
    await h.realCampaign({ campaignId: campaign.id, accountId, mcp: 'sales_outreach', targetUrl: site.origin, startDate: S }, activities, async (handle) => {
      // Day S: planned at 00:00, nothing goes out before the window opens.
      await h.sleepUntil(at(S, '08:59'));
      expect(recipients(), 'before the window of S').to.deep.equal([]);
      await h.sleepUntil(at(S, '17:00'));
      expect(recipients(), 'day S').to.deep.equal([address('anna'), address('ben')]);

      // Imported after day S's batch: one matching lead, one not.
      expect(await importLeads([lead('dora', 'CTO', 'Germany'), lead('emil', 'Marketing Manager', 'Germany')])).to.equal(2);
      await h.sleepUntil(at(S1, '08:59'));
      expect(recipients(), 'before the window of S+1').to.deep.equal([address('anna'), address('ben')]);
      await h.sleepUntil(at(S1, '17:00'));
      expect(recipients(), 'day S+1').to.deep.equal([address('anna'), address('ben'), address('dora')]);

      const view = await handle.query(statusQuery);
      expect(view.status).to.equal('running');
      expect(view.counters).to.include({ emailsSent: 3, leadsContacted: 3 });
      expect(view.activeLeads).to.equal(3);
    });

    // Every message was a first email (no follow-up is due before S+3), one per lead.
    const mails = await Promise.all(sink.messages.filter((m) => m.to.some((a) => a.endsWith(`@${domain}`))).map((m) => sink.parse(m)));
    expect(mails).to.have.length(3);
    for (const m of mails) {
      expect(m.inReplyTo, `a first email, not a follow-up: ${m.subject ?? ''}`).to.equal(undefined);
      expect(m.subject ?? '').not.to.match(/^Re:/);
    }
    for (const never of ['claire', 'gina', 'emil']) expect(recipients(), `${never} does not match`).not.to.include(address(never));
  });
});

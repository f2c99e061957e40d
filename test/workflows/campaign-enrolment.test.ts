import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { QueryTypes } from 'sequelize';
import { createActivities } from '../../activities';
import { listEnrolments, removeFromCampaign } from '../../src/campaigns/enrolment/enrolment-repository';
import type { LeadInput } from '../../src/leads/fields';
import { insertNewLeads } from '../../src/leads/lead-repository';
import { addLeadsToList, createList } from '../../src/leads/lists/list-repository';
import { createLogger } from '../../src/log/logger';
import { smtpTransports } from '../../src/sending/transports';
import { leadRemovedSignal, statusQuery } from '../../workflows/campaign/contract';
import { createAccount, testConfig } from '../support/api';
import { seedCampaign } from '../support/campaign-seed';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { pages, startFakeSite, type FakeSite } from '../support/fake-site';
import { TestSmtpSink } from '../support/smtp-sink';
import { at, firstDateAfter, plusDays, weekday } from './support/campaign-harness';
import { RealCampaignHarness } from './support/real-campaign-harness';

const HOME = '<html><head><title>Acme Analytics</title></head><body><h1>Acme Analytics</h1></body></html>';

/**
 * Campaigns whose people come from a lead list, run by the real workflow and the real activities on
 * the time-skipping server, against PostgreSQL and a local SMTP sink: who is emailed is read from
 * what the SMTP server received.
 */
describe('campaign enrolment over sending days (time-skipping, real activities, PostgreSQL, SMTP sink)', function () {
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

  /** An account with a list of `locals` at a fresh domain; the list's id and the leads' addresses. */
  async function listOf(locals: string[]) {
    const domain = `enrol-${randomBytes(4).toString('hex')}.example`;
    const address = (local: string): string => `${local}@${domain}`;
    const lead = (local: string): LeadInput => ({ email: address(local), firstName: local, lastName: 'Lead', title: 'CTO', company: `${local} GmbH`, companyDomain: `${local}-co.example`, industry: null, city: null, state: null, country: null, linkedinUrl: null, phone: null });
    const { accountId } = await createAccount(db.sequelize, 'pro');
    await db.sequelize.transaction((tx) => insertNewLeads(db.sequelize, tx, accountId, 'import', locals.map(lead)));
    const ids = await db.sequelize.query<{ id: string; email: string }>('SELECT id, email FROM leads WHERE account_id = $1', { bind: [accountId], type: QueryTypes.SELECT });
    const list = await createList(db.sequelize, accountId, 'Conference leads');
    await addLeadsToList(db.sequelize, null, accountId, list.id, ids.map((r) => r.id));
    const idOf = (local: string): string => ids.find((r) => r.email === address(local))!.id;
    return { accountId, listId: list.id, address, idOf, domain };
  }
  const received = (address: string): number => sink.messages.filter((m) => m.to.includes(address)).length;

  it('the same list in two campaigns emails each person once: the second skips them, naming the first (S .. S+1)', async () => {
    const people = await listOf(['ada', 'ben', 'cy']);
    const first = await seedCampaign(people.accountId, { status: 'starting', name: 'Spring conference', targetUrl: site.origin });
    const second = await seedCampaign(people.accountId, { status: 'starting', name: 'Second wave', targetUrl: site.origin });
    await db.sequelize.query('UPDATE campaigns SET lead_list_ids = $2 WHERE id = ANY($1::text[])', { bind: [[first.id, second.id], [people.listId]] });

    const S = firstDateAfter(await h.now(), (d) => weekday(d) === 2);
    await h.realCampaign({ campaignId: first.id, accountId: people.accountId, mcp: 'sales_outreach', targetUrl: site.origin, startDate: S }, activities(), async () => {
      await h.sleepUntil(at(S, '17:00'));
    });
    for (const p of ['ada', 'ben', 'cy']) expect(received(people.address(p)), `${p} on S`).to.equal(1);

    const S1 = plusDays(S, 1);
    await h.realCampaign({ campaignId: second.id, accountId: people.accountId, mcp: 'sales_outreach', targetUrl: site.origin, startDate: S1 }, activities(), async (handle) => {
      await h.sleepUntil(at(S1, '17:00'));
      const view = await handle.query(statusQuery);
      expect(view.counters.emailsSent).to.equal(0);
      expect(view.activeLeads).to.equal(0);
    });
    for (const p of ['ada', 'ben', 'cy']) expect(received(people.address(p)), `${p} once in all`).to.equal(1);
    const page = await listEnrolments(db.sequelize, second.id, { limit: 10, offset: 0 });
    expect(page.states).to.deep.equal({ skipped: 3 });
    for (const l of page.leads) {
      expect(l.reason).to.equal('in another campaign (Spring conference)');
      expect(l.detail).to.deep.equal({ campaign_id: first.id, campaign_name: 'Spring conference' });
    }
    expect((await listEnrolments(db.sequelize, first.id, { limit: 10, offset: 0 })).states).to.deep.equal({ in_sequence: 3 });
  });

  it('a lead removed mid-sequence gets no further email; the others get their follow-up (S .. S+3)', async () => {
    const people = await listOf(['dee', 'eli']);
    const campaign = await seedCampaign(people.accountId, { status: 'starting', targetUrl: site.origin });
    await db.sequelize.query('UPDATE campaigns SET lead_list_ids = $2 WHERE id = $1', { bind: [campaign.id, [people.listId]] });
    const S = firstDateAfter(await h.now(), (d) => weekday(d) === 1);
    await h.realCampaign({ campaignId: campaign.id, accountId: people.accountId, mcp: 'sales_outreach', targetUrl: site.origin, startDate: S }, activities(), async (handle) => {
      await h.sleepUntil(at(S, '17:00'));
      expect(received(people.address('dee'))).to.equal(1);
      expect(received(people.address('eli'))).to.equal(1);

      const removed = await removeFromCampaign(db.sequelize, people.accountId, campaign.id, people.idOf('dee'));
      expect(removed).to.deep.equal({ removed: true, wasActive: true });
      await handle.signal(leadRemovedSignal, { leadId: people.idOf('dee'), wasActive: true });
      expect((await handle.query(statusQuery)).activeLeads).to.equal(1);

      // The first follow-up of sales_outreach is due three days later.
      await h.sleepUntil(at(plusDays(S, 3), '17:00'));
      expect(received(people.address('dee')), 'removed: nothing more').to.equal(1);
      expect(received(people.address('eli')), 'the follow-up').to.equal(2);
      const view = await handle.query(statusQuery);
      expect(view.counters).to.include({ emailsSent: 3, leadsContacted: 2 });
    });
    const page = await listEnrolments(db.sequelize, campaign.id, { limit: 10, offset: 0 });
    const byEmail = Object.fromEntries(page.leads.map((l) => [l.email, l]));
    expect(byEmail[people.address('dee')]).to.include({ state: 'removed', reason: 'removed by the user', step: 1 });
    expect(byEmail[people.address('eli')]).to.include({ state: 'in_sequence', step: 2 });
  });
});

import { Client, Connection } from '@temporalio/client';
import { expect } from 'chai';
import { QueryTypes } from 'sequelize';
import { createAccount, request, startTestApi, surfaceA, surfaceB, type JsonResponse, type TestApi } from '../support/api';
import { seedCampaign, seedLead } from '../support/campaign-seed';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { startTestDevServer, type TestDevServer } from '../support/temporal-dev';
import { campaignWorkflowId } from '../../workflows/campaign/contract';
import { insertNewLeads } from '../../src/leads/lead-repository';

/**
 * A campaign's sources and leads through the API (issue 27): lead lists and lead-control settings
 * on create and GET, enrolment by hand, removal and the page of leads, on both surfaces. Real
 * PostgreSQL and a real Temporal dev server (a create starts its workflow, a removal signals it),
 * but no worker: no planning runs, so every enrolment here is one a request made.
 */

type Body = Record<string, unknown> & { error?: string };

describe('campaign leads: sources on create, enrol, remove and list (both surfaces)', function () {
  this.timeout(60_000);
  let db: TestDatabase;
  let temporal: TestDevServer;
  let api: TestApi;
  let key: string;
  let accountId: string;
  let otherKey: string;
  let otherAccountId: string;

  before(async function () {
    this.timeout(120_000);
    [db, temporal] = await Promise.all([createTestDatabase(), startTestDevServer()]);
    api = await startTestApi(db.sequelize, { temporalAddress: temporal.address });
    ({ apiKey: key, accountId } = await createAccount(db.sequelize, 'pro', 'Owner'));
    ({ apiKey: otherKey, accountId: otherAccountId } = await createAccount(db.sequelize, 'pro', 'Other'));
  });
  after(async function () {
    this.timeout(60_000);
    await api?.close();
    await temporal?.stop();
    await db?.drop();
  });

  const call = <T = Body>(headers: Record<string, string>, method: string, path: string, body?: unknown): Promise<JsonResponse<T>> =>
    request<T>(`${api.baseUrl}${path}`, {
      method,
      headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
  const a = <T = Body>(method: string, path: string, body?: unknown, k = key) => call<T>(surfaceA(k), method, path, body);
  const b = <T = Body>(method: string, path: string, body?: unknown, k = key) => call<T>(surfaceB(k), method, path, body);

  async function createA(body: Record<string, unknown> = {}): Promise<string> {
    const res = await a('POST', '/campaigns', { mcp: 'sales_outreach', target_url: 'https://acme-analytics.invalid', ...body });
    expect(res.status, res.text).to.equal(201);
    return res.body.id as string;
  }
  async function createB(body: Record<string, unknown> = {}): Promise<Body> {
    const res = await b('POST', '/v1/campaigns', { name: 'Autumn', brandUrl: 'https://acme-analytics.invalid', ...body });
    expect(res.status, res.text).to.equal(201);
    return res.body;
  }
  async function newList(name: string, leadIds: string[], k = key): Promise<string> {
    const created = await b('POST', '/v1/lead-lists', { name }, k);
    expect(created.status, created.text).to.equal(201);
    if (leadIds.length > 0) expect((await b('POST', `/v1/lead-lists/${created.body.id as string}/leads`, { leadIds }, k)).status).to.equal(200);
    return created.body.id as string;
  }
  const campaignCount = async (): Promise<number> =>
    (await db.sequelize.query<{ n: number }>('SELECT count(*)::int AS n FROM campaigns', { type: QueryTypes.SELECT }))[0]!.n;

  const ZERO = { queued: 0, in_sequence: 0, replied: 0, meeting_booked: 0, bounced: 0, unsubscribed: 0, finished: 0, removed: 0, skipped: 0, total: 0 };

  describe('create and GET', () => {
    it('stores the lead lists and settings, counts the audience within the lists, and shows them on both surfaces', async () => {
      const inList = [await seedLead(accountId), await seedLead(accountId)];
      await seedLead(accountId); // not in the list: not a candidate
      const listId = await newList('Fintech CTOs', inList.map((l) => l.id));
      const created = await createB({ leadListIds: [listId, listId], allowDuplicateLeads: true, stopCompanyOnReply: false, maxFirstEmailsPerDomainPerDay: 5, skipRiskyLeads: true });
      expect(created.sources).to.deep.include({ leadListIds: [{ id: listId, name: 'Fintech CTOs' }], matchedLeads: 2 });
      expect(created).to.deep.include({ allowDuplicateLeads: true, stopCompanyOnReply: false, maxFirstEmailsPerDomainPerDay: 5, skipRiskyLeads: true });
      expect(created.leads).to.deep.equal({ queued: 0, inSequence: 0, replied: 0, meetingBooked: 0, bounced: 0, unsubscribed: 0, finished: 0, removed: 0, skipped: 0, total: 0 });

      const onA = await a('GET', `/campaigns/${created.id as string}`);
      expect(onA.status, onA.text).to.equal(200);
      expect(onA.body.sources).to.deep.equal({
        lead_list_ids: [{ id: listId, name: 'Fintech CTOs' }],
        audience: { text: null, filters: null, source: 'all_leads', matched_leads: 2, reason: null },
        matched_leads: 2,
      });
      expect(onA.body).to.deep.include({ allow_duplicate_leads: true, stop_company_on_reply: false, max_first_emails_per_domain_per_day: 5, skip_risky_leads: true, leads: ZERO });
      const [row] = await db.sequelize.query<{ lead_list_ids: string[] }>('SELECT lead_list_ids FROM campaigns WHERE id = $1', { bind: [created.id], type: QueryTypes.SELECT });
      expect(row!.lead_list_ids).to.deep.equal([listId]);
    });

    it('defaults: no lists, one sequence per person, the company stops on a reply, no cap, risky leads taken', async () => {
      const id = await createA();
      const res = await a('GET', `/campaigns/${id}`);
      expect((res.body.sources as Body).lead_list_ids).to.deep.equal([]);
      expect(res.body).to.deep.include({ allow_duplicate_leads: false, stop_company_on_reply: true, max_first_emails_per_domain_per_day: null, skip_risky_leads: false });
    });

    it('refuses unknown and other accounts\' list ids with a 400 naming them: no campaign row, no workflow', async () => {
      const mine = await newList('Mine', []);
      const theirs = await newList('Theirs', [], otherKey);
      const before = await campaignCount();
      const resA = await a('POST', '/campaigns', { mcp: 'sales_outreach', target_url: 'https://acme.example', lead_list_ids: [mine, theirs, 'list_nope'] });
      expect(resA.status, resA.text).to.equal(400);
      expect(resA.body.error).to.equal(`lead_list_ids: no lead list of the account has the ids "${theirs}", "list_nope"`);
      const resB = await b('POST', '/v1/campaigns', { name: 'X', brandUrl: 'https://acme.example', leadListIds: ['list_nope'] });
      expect(resB.status, resB.text).to.equal(400);
      expect(resB.body.error).to.equal('leadListIds: no lead list of the account has the id "list_nope"');
      expect(await campaignCount()).to.equal(before);
    });

    it('bounds the settings: 51 lists and a cap of 0 or 1,001 are 400s naming the field', async () => {
      const many = await b('POST', '/v1/campaigns', { name: 'X', brandUrl: 'https://acme.example', leadListIds: Array.from({ length: 51 }, (_, i) => `list_${i}`) });
      expect(many.status).to.equal(400);
      expect(many.body.error).to.match(/leadListIds/);
      for (const cap of [0, 1001]) {
        const res = await a('POST', '/campaigns', { mcp: 'sales_outreach', target_url: 'https://acme.example', max_first_emails_per_domain_per_day: cap });
        expect(res.status, res.text).to.equal(400);
        expect(res.body.error).to.match(/max_first_emails_per_domain_per_day/);
      }
    });
  });

  describe('enrol, list and remove', () => {
    let spring: string; // Surface A campaign holding one lead first
    let autumn: string; // Surface B campaign the tests enrol into
    const leads: Record<string, string> = {};
    let l2Email: string;
    let otherLead: string;

    before(async () => {
      spring = await createA({ name: 'Spring' });
      autumn = (await createB({ name: 'Autumn' })).id as string;
      for (const n of ['l1', 'l2', 'l3', 'l4', 'l5']) leads[n] = (await seedLead(accountId, { firstName: n.toUpperCase(), lastName: 'Lead', company: 'Acme' })).id;
      l2Email = (await db.sequelize.query<{ email: string }>('SELECT email FROM leads WHERE id = $1', { bind: [leads.l2], type: QueryTypes.SELECT }))[0]!.email;
      const l3Email = (await db.sequelize.query<{ email: string }>('SELECT email FROM leads WHERE id = $1', { bind: [leads.l3], type: QueryTypes.SELECT }))[0]!.email;
      const blocked = await b('POST', '/v1/blocklist', { value: l3Email, reason: 'asked us not to write' });
      expect(blocked.status, blocked.text).to.equal(200);
      otherLead = (await seedLead(otherAccountId)).id;
    });

    it('enrols by id and by address (case ignored), counting the added, the skipped per reason, the known and the unknown', async () => {
      const first = await a('POST', `/campaigns/${spring}/leads`, { lead_ids: [leads.l4!] });
      expect(first.status, first.text).to.equal(200);
      expect(first.body).to.deep.equal({ added: 1, skipped: {}, already_enrolled: 0, not_found: [] });

      const res = await b('POST', `/v1/campaigns/${autumn}/leads`, {
        leadIds: [leads.l1, leads.l3, leads.l4, 'lead_nope', otherLead],
        emails: [l2Email.toUpperCase(), 'Nobody@Example.com'],
      });
      expect(res.status, res.text).to.equal(200);
      expect(res.body).to.deep.equal({
        added: 2,
        skipped: { blocklisted: 1, 'in another campaign (Spring)': 1 },
        alreadyEnrolled: 0,
        notFound: ['lead_nope', otherLead, 'Nobody@Example.com'],
      });

      const again = await b('POST', `/v1/campaigns/${autumn}/leads`, { leadIds: [leads.l1] });
      expect(again.body).to.deep.equal({ added: 0, skipped: {}, alreadyEnrolled: 1, notFound: [] });

      const got = await b('GET', `/v1/campaigns/${autumn}`);
      expect(got.body.leads).to.deep.include({ queued: 2, skipped: 2, total: 4 });
    });

    it('takes a lead in another campaign when the campaign allows duplicate leads', async () => {
      const dup = (await createB({ name: 'Duplicates welcome', allowDuplicateLeads: true })).id as string;
      const res = await b('POST', `/v1/campaigns/${dup}/leads`, { leadIds: [leads.l4] });
      expect(res.body).to.deep.equal({ added: 1, skipped: {}, alreadyEnrolled: 0, notFound: [] });
    });

    it('pages the leads with their states and reasons, filtered by state, on both surfaces', async () => {
      const skipped = await b<{ leads: Body[]; counts: Body; pagination: Body }>('GET', `/v1/campaigns/${autumn}/leads?state=skipped`);
      expect(skipped.status, skipped.text).to.equal(200);
      expect(skipped.body.pagination).to.deep.equal({ total: 2, page: 1, perPage: 50 });
      expect(skipped.body.counts).to.deep.include({ queued: 2, skipped: 2, total: 4 });
      const byId = Object.fromEntries(skipped.body.leads.map((l) => [l.id, l]));
      expect(byId[leads.l3!]).to.deep.include({ state: 'skipped', reason: 'blocklisted', step: null, nextSendDate: null, source: 'manual', name: 'L3 Lead', company: 'Acme' });
      expect(byId[leads.l4!]).to.deep.include({ state: 'skipped', reason: 'in another campaign (Spring)', detail: { campaignId: spring, campaignName: 'Spring' } });

      const pageA = await a<{ leads: Body[]; pagination: Body }>('GET', `/campaigns/${autumn}/leads?state=queued&per_page=1&page=2`);
      expect(pageA.status, pageA.text).to.equal(200);
      expect(pageA.body.pagination).to.deep.equal({ total: 2, page: 2, per_page: 1 });
      expect(pageA.body.leads).to.have.length(1);
      expect(pageA.body.leads[0]).to.include({ state: 'queued', reason: null, step: null, source: 'manual' });
      expect(pageA.body.leads[0]).to.have.property('next_send_date');

      const bad = await a('GET', `/campaigns/${autumn}/leads?state=paused`);
      expect(bad.status).to.equal(400);
      expect(bad.body.error).to.match(/state/);
      const tooMany = await b('GET', `/v1/campaigns/${autumn}/leads?perPage=501`);
      expect(tooMany.status).to.equal(400);
      expect(tooMany.body.error).to.match(/perPage/);
    });

    it('removes a lead: 204, then it shows as removed with its reason; enrolling it again re-queues it', async () => {
      const del = await b('DELETE', `/v1/campaigns/${autumn}/leads/${leads.l1!}`);
      expect(del.status, del.text).to.equal(204);
      const removed = await b<{ leads: Body[]; counts: Body }>('GET', `/v1/campaigns/${autumn}/leads?state=removed`);
      expect(removed.body.leads.map((l) => [l.id, l.state, l.reason])).to.deep.equal([[leads.l1, 'removed', 'removed by the user']]);
      expect(removed.body.counts).to.deep.include({ queued: 1, removed: 1, skipped: 2, total: 4 });

      // The workflow was told (no worker runs it here: the signal waits in its history).
      const client = new Client({ connection: await Connection.connect({ address: temporal.address }) });
      try {
        const history = await client.workflow.getHandle(campaignWorkflowId(autumn)).fetchHistory();
        const signals = (history.events ?? []).flatMap((e) => (e.workflowExecutionSignaledEventAttributes ? [e.workflowExecutionSignaledEventAttributes] : []));
        expect(signals.map((s) => s.signalName)).to.deep.equal(['leadRemoved']);
      } finally {
        await client.connection.close();
      }

      const back = await a('POST', `/campaigns/${autumn}/leads`, { lead_ids: [leads.l1!] });
      expect(back.body).to.deep.equal({ added: 1, skipped: {}, already_enrolled: 0, not_found: [] });
    });

    it('removes a lead even when the campaign has no workflow any more (the row decides)', async () => {
      const orphan = await seedCampaign(accountId, { name: 'No workflow' });
      expect((await a('POST', `/campaigns/${orphan.id}/leads`, { lead_ids: [leads.l5!] })).body).to.deep.include({ added: 1 });
      const del = await a('DELETE', `/campaigns/${orphan.id}/leads/${leads.l5!}`);
      expect(del.status, del.text).to.equal(204);
      const [row] = await db.sequelize.query<{ state: string }>('SELECT state FROM campaign_enrolments WHERE campaign_id = $1 AND lead_id = $2', {
        bind: [orphan.id, leads.l5],
        type: QueryTypes.SELECT,
      });
      expect(row!.state).to.equal('removed');
    });

    it('404s: a lead the campaign does not have, another account\'s lead or campaign', async () => {
      const notIn = await a('DELETE', `/campaigns/${autumn}/leads/${leads.l5!}`);
      expect(notIn.status).to.equal(404);
      expect(notIn.body.error).to.equal('The lead is not in this campaign');
      expect((await b('DELETE', `/v1/campaigns/${autumn}/leads/${otherLead}`)).status).to.equal(404);
      for (const [method, path, body] of [
        ['POST', `/v1/campaigns/${autumn}/leads`, { leadIds: [otherLead] }],
        ['GET', `/v1/campaigns/${autumn}/leads`, undefined],
        ['DELETE', `/v1/campaigns/${autumn}/leads/${leads.l2!}`, undefined],
      ] as const) {
        const res = await b(method, path, body, otherKey);
        expect(res.status, `${method} ${path}: ${res.text}`).to.equal(404);
        expect(res.body.error).to.equal('Campaign not found');
      }
      // Nothing changed for the owner.
      expect((await b<{ counts: Body }>('GET', `/v1/campaigns/${autumn}/leads`)).body.counts).to.deep.include({ queued: 2, total: 4 });
    });

    it('409 for a completed or failed campaign, and nothing is enrolled', async () => {
      for (const status of ['completed', 'failed']) {
        const c = await seedCampaign(accountId, { name: `Ended ${status}`, status: status as 'completed' });
        const res = await b('POST', `/v1/campaigns/${c.id}/leads`, { leadIds: [leads.l2] });
        expect(res.status, res.text).to.equal(409);
        expect(res.body.error).to.equal(`campaign ${c.id} is ${status}: it takes no more leads`);
        const [n] = await db.sequelize.query<{ n: number }>('SELECT count(*)::int AS n FROM campaign_enrolments WHERE campaign_id = $1', { bind: [c.id], type: QueryTypes.SELECT });
        expect(n!.n).to.equal(0);
      }
    });

    it('bad bodies: none named, 1,001 in all, 1,001 ids, 100,000 ids: 4xx naming the field, never a 500', async () => {
      const none = await a('POST', `/campaigns/${autumn}/leads`, {});
      expect(none.status).to.equal(400);
      expect(none.body.error).to.equal('body must name at least one lead in lead_ids or emails');

      const ids = Array.from({ length: 1001 }, (_, i) => `lead_${i}`);
      const tooManyIds = await a('POST', `/campaigns/${autumn}/leads`, { lead_ids: ids });
      expect(tooManyIds.status).to.equal(400);
      expect(tooManyIds.body.error).to.match(/lead_ids/);

      const together = await b('POST', `/v1/campaigns/${autumn}/leads`, { leadIds: ids.slice(0, 600), emails: ids.slice(0, 401).map((i) => `${i}@example.com`) });
      expect(together.status).to.equal(400);
      expect(together.body.error).to.equal('body.leadIds and body.emails name 1001 leads together; at most 1000 per call');

      const started = Date.now();
      const huge = await b('POST', `/v1/campaigns/${autumn}/leads`, { leadIds: Array.from({ length: 100_000 }, (_, i) => `lead_${i}`) });
      expect(huge.status, huge.text.slice(0, 200)).to.be.within(400, 499);
      expect(huge.body.error).to.be.a('string');
      expect(Date.now() - started).to.be.below(5_000);
      expect((await b<{ counts: Body }>('GET', `/v1/campaigns/${autumn}/leads`)).body.counts).to.deep.include({ total: 4 });
    });

    it('shows the zone each lead is written in: their city\'s or country\'s in a lead-zone campaign (the campaign\'s when neither is known), the campaign\'s otherwise', async () => {
      const tag = Date.now().toString(36);
      const place = (name: string, city: string | null, country: string | null) => ({
        email: `${name}.${tag}@zones.example`, firstName: name, lastName: 'Zone', title: 'CTO', company: 'Zones', companyDomain: null, industry: null, city, state: null, country, linkedinUrl: null, phone: null,
      });
      await db.sequelize.transaction((tx) =>
        insertNewLeads(db.sequelize, tx, accountId, 'import', [place('tokyo', 'Tokyo', 'Japan'), place('brazil', null, 'Brazil'), place('nowhere', null, null)]),
      );
      const ids = await db.sequelize.query<{ id: string; email: string }>('SELECT id, email FROM leads WHERE email LIKE $1', { bind: [`%.${tag}@zones.example`], type: QueryTypes.SELECT });
      const nameOf = (email: string): string => email.slice(0, email.indexOf('.'));
      const byLead = await seedCampaign(accountId, { name: 'In their hours', timezone: 'Europe/Lisbon', leadTimezones: true });
      const ours = await seedCampaign(accountId, { name: 'In ours', timezone: 'Europe/Lisbon', leadTimezones: false });
      // The same three leads in both.
      await db.sequelize.query('UPDATE campaigns SET allow_duplicate_leads = true WHERE id = ANY($1::text[])', { bind: [[byLead.id, ours.id]] });
      for (const c of [byLead, ours]) {
        const enrolled = await b('POST', `/v1/campaigns/${c.id}/leads`, { leadIds: ids.map((r) => r.id) });
        expect(enrolled.body, enrolled.text).to.deep.include({ added: 3 });
      }

      const onB = await b<{ leads: Body[] }>('GET', `/v1/campaigns/${byLead.id}/leads`);
      expect(onB.status, onB.text).to.equal(200);
      expect(Object.fromEntries(onB.body.leads.map((l) => [nameOf(l.email as string), [l.timeZone, l.timeZoneSource]]))).to.deep.equal({
        tokyo: ['Asia/Tokyo', 'city'],
        brazil: ['America/Sao_Paulo', 'country'],
        nowhere: ['Europe/Lisbon', 'campaign'],
      });
      const onA = await a<{ leads: Body[] }>('GET', `/campaigns/${byLead.id}/leads`);
      expect(Object.fromEntries(onA.body.leads.map((l) => [nameOf(l.email as string), [l.time_zone, l.time_zone_source]]))).to.deep.include({ tokyo: ['Asia/Tokyo', 'city'] });
      expect(onA.body.leads[0]).to.not.have.property('timeZone');

      const notByLead = await a<{ leads: Body[] }>('GET', `/campaigns/${ours.id}/leads`);
      expect(notByLead.body.leads.map((l) => [l.time_zone, l.time_zone_source])).to.deep.equal([
        ['Europe/Lisbon', 'campaign'],
        ['Europe/Lisbon', 'campaign'],
        ['Europe/Lisbon', 'campaign'],
      ]);
    });

    it('documents every route in /openapi.json', async () => {
      const doc = await request<{ paths: Record<string, Record<string, unknown>> }>(`${api.baseUrl}/openapi.json`);
      expect(Object.keys(doc.body.paths['/campaigns/{id}/leads'] ?? {})).to.have.members(['get', 'post']);
      expect(Object.keys(doc.body.paths['/v1/campaigns/{id}/leads'] ?? {})).to.have.members(['get', 'post']);
      expect(doc.body.paths['/campaigns/{id}/leads/{leadId}']).to.have.property('delete');
      expect(doc.body.paths['/v1/campaigns/{id}/leads/{leadId}']).to.have.property('delete');
    });
  });
});

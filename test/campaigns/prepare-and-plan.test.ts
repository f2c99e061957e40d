import { MockActivityEnvironment } from '@temporalio/testing';
import { DefaultLogger } from '@temporalio/worker';
import { expect } from 'chai';
import { prepareCampaign } from '../../activities/campaigns/prepare-campaign';
import { planLeads } from '../../activities/campaigns/plan-leads';
import type { ActivityDeps } from '../../activities';
import { findLeads } from '../../src/leads/find-leads';
import { insertNewLeads } from '../../src/leads/lead-repository';
import type { LeadInput } from '../../src/leads/fields';
import { createLogger } from '../../src/log/logger';
import { suppressAddress } from '../../src/suppressions/suppression-repository';
import type { PlanLeadsInput } from '../../workflows/campaign/contract';
import { testConfig } from '../support/api';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { samplePeople, startFakeApollo, type FakeApollo } from '../support/fake-apollo';
import { pages, startFakeSite, type FakeSite } from '../support/fake-site';
import { leadEmail, newLeads, newRunningCampaign, rowsOf, runInActivity, failureOf } from './fixtures';

const HOME = `<!doctype html><html><head><title>Northwind Analytics</title>
<meta name="description" content="Northwind Analytics helps retailers forecast demand with machine learning."></head>
<body><h1>Northwind Analytics</h1><p>Contact: hello@northwind.example</p></body></html>`;

describe('prepareCampaign and planLeads activities (real PostgreSQL, local sites)', () => {
  let db: TestDatabase;
  let site: FakeSite;
  let apollo: FakeApollo;
  let deps: ActivityDeps;
  const quiet = new DefaultLogger('ERROR');

  before(async () => {
    db = await createTestDatabase();
    site = await startFakeSite(
      pages({
        '/': [200, { 'content-type': 'text/html; charset=utf-8' }, HOME],
        '/gone': [404, { 'content-type': 'text/html' }, '<h1>Not here</h1>'],
        '/busy': [503, { 'content-type': 'text/html' }, '<h1>Try later</h1>'],
        '/logo.png': [200, { 'content-type': 'image/png' }, 'PNG'],
      }),
    );
    apollo = await startFakeApollo({ people: samplePeople() });
    deps = { sequelize: db.sequelize, config: testConfig({ APOLLO_API_URL: apollo.url, PRICE_ENRICHMENT_USD: '0.02' }), log: createLogger('silent', 'test') };
  });
  after(async () => {
    await site?.close();
    await apollo?.close();
    await db?.drop();
  });

  describe('prepareCampaign', () => {
    it('scrapes the target, stores the company and links it to the campaign', async () => {
      const { accountId, campaignId } = await newRunningCampaign(db.sequelize, { status: 'starting', targetUrl: `${site.origin}/` });
      const prepared = await prepareCampaign(deps)({ campaignId, accountId });
      expect(prepared.scrapeProblem).to.equal(null);
      expect(prepared.companyId).to.match(/^co_/);
      const [company] = await rowsOf<{ name: string; description: string; account_id: string }>(db.sequelize, `SELECT name, description, account_id FROM companies WHERE id = $1`, [prepared.companyId]);
      expect(company).to.deep.include({ name: 'Northwind Analytics', account_id: accountId });
      expect(company!.description).to.match(/forecast demand/);
      const [campaign] = await rowsOf<{ company_id: string }>(db.sequelize, `SELECT company_id FROM campaigns WHERE id = $1`, [campaignId]);
      expect(campaign!.company_id).to.equal(prepared.companyId);
      // A retry (or a second preparation) keeps one company row.
      expect((await prepareCampaign(deps)({ campaignId, accountId })).companyId).to.equal(prepared.companyId);
    });

    it('a target that will never scrape is a result without a company, not a failure', async () => {
      for (const [target, problem] of [
        [`${site.origin}/gone`, /HTTP 404/],
        [`${site.origin}/logo.png`, /not an HTML page/],
        ['http://10.1.2.3/', /private or reserved address/],
        ['not a url at all', /url/i],
      ] as const) {
        const { accountId, campaignId } = await newRunningCampaign(db.sequelize, { status: 'starting', targetUrl: target });
        const prepared = await prepareCampaign(deps)({ campaignId, accountId });
        expect(prepared.companyId, target).to.equal(null);
        expect(prepared.scrapeProblem, target).to.match(problem);
        const [campaign] = await rowsOf<{ company_id: string | null }>(db.sequelize, `SELECT company_id FROM campaigns WHERE id = $1`, [campaignId]);
        expect(campaign!.company_id).to.equal(null);
      }
    });

    it('a temporary failure (5xx, nothing listening) is a retryable TargetUnavailable', async () => {
      const busy = await newRunningCampaign(db.sequelize, { status: 'starting', targetUrl: `${site.origin}/busy` });
      expect(await failureOf(prepareCampaign(deps)(busy))).to.include({ type: 'TargetUnavailable', nonRetryable: false });
      const closed = await newRunningCampaign(db.sequelize, { status: 'starting', targetUrl: 'http://127.0.0.1:1/' });
      expect(await failureOf(prepareCampaign(deps)(closed))).to.include({ type: 'TargetUnavailable', nonRetryable: false });
    });

    it('another account\'s campaign is a non-retryable CampaignNotFound', async () => {
      const { campaignId } = await newRunningCampaign(db.sequelize, { targetUrl: `${site.origin}/` });
      const other = await newRunningCampaign(db.sequelize);
      expect(await failureOf(prepareCampaign(deps)({ campaignId, accountId: other.accountId }))).to.include({ type: 'CampaignNotFound', nonRetryable: true });
    });
  });

  describe('planLeads', () => {
    it('from the store: reachable leads the campaign has not emailed, never the excluded ones', async () => {
      const { accountId, campaignId } = await newRunningCampaign(db.sequelize);
      const ids = await newLeads(db.sequelize, accountId, 6);
      const [a, b, c, d, e, f] = ids as [string, string, string, string, string, string];
      await suppressAddress(db.sequelize, null, accountId, await leadEmail(db.sequelize, b), 'unsubscribe');
      await db.sequelize.query(
        `INSERT INTO emails (id, account_id, campaign_id, lead_id, step, from_email, to_email, subject, message_id, status) VALUES ('em_plan1', $1, $2, $3, 0, 'me@x.example', 'x@x.example', 'Hi', '<em_plan1@x>', 'sent')`,
        { bind: [accountId, campaignId, c] },
      );
      const plan = (input: Partial<PlanLeadsInput>) => planLeads(deps)({ campaignId, accountId, limit: 10, exclude: [], ...input });

      expect(await plan({})).to.deep.equal({ leadIds: [a, d, e, f], costUsd: 0 });
      // The workflow already has a and d (their first emails not sent yet): the limit still fills up.
      expect((await plan({ exclude: [a, d], limit: 2 })).leadIds).to.deep.equal([e, f]);
      expect((await plan({ exclude: [a, c, d, e, f] })).leadIds).to.deep.equal([]);
      expect((await plan({ limit: 0 })).leadIds).to.deep.equal([]);
    });

    it('with an audience: only its matching reachable leads, imported later ones on the next call, nobody when none match', async () => {
      const { accountId, campaignId } = await newRunningCampaign(db.sequelize);
      const lead = (email: string, title: string, country: string): LeadInput => ({
        email, firstName: 'Jo', lastName: 'Doe', title, company: 'Acme', companyDomain: null, industry: 'Software', city: null, state: null, country, linkedinUrl: null, phone: null,
      });
      const store = (leads: LeadInput[]) => db.sequelize.transaction((tx) => insertNewLeads(db.sequelize, tx, accountId, 'import', leads));
      await store([lead('a.cto@de.example', 'CTO', 'Germany'), lead('b.cto@fr.example', 'CTO', 'France'), lead('c.cmo@de.example', 'CMO', 'Germany'), lead('d.cto@de.example', 'CTO', 'Germany')]);
      const idOf = async (email: string) => (await rowsOf<{ id: string }>(db.sequelize, 'SELECT id FROM leads WHERE account_id = $1 AND email = $2', [accountId, email]))[0]!.id;
      await suppressAddress(db.sequelize, null, accountId, 'd.cto@de.example', 'unsubscribe');
      const setAudience = (filters: unknown, source: string) =>
        db.sequelize.query('UPDATE campaigns SET audience_filters = $2, audience_source = $3 WHERE id = $1', { bind: [campaignId, JSON.stringify(filters), source] });
      const stored = async () => (await rowsOf<{ n: number | null; reason: string | null }>(db.sequelize, 'SELECT audience_matched_leads AS n, audience_reason AS reason FROM campaigns WHERE id = $1', [campaignId]))[0];
      const plan = (input: Partial<PlanLeadsInput> = {}) => planLeads(deps)({ campaignId, accountId, limit: 10, exclude: [], ...input });

      await setAudience({ titles: ['CTO'], locations: ['Germany'] }, 'explicit');
      expect((await plan()).leadIds).to.deep.equal([await idOf('a.cto@de.example')]);
      expect(await stored()).to.deep.equal({ n: 1, reason: null });
      // A matching lead imported later is taken by the next planning call; the count follows.
      await store([lead('e.cto@de.example', 'Chief Technology Officer', 'DE')]);
      expect((await plan({ exclude: [await idOf('a.cto@de.example')] })).leadIds).to.deep.equal([await idOf('e.cto@de.example')]);
      expect(await stored()).to.deep.equal({ n: 2, reason: null });
      // Exclusions hold.
      await setAudience({ titles: ['CTO'], locations: ['Germany'], exclude: { emails: ['a.cto@de.example'] } }, 'explicit');
      expect((await plan()).leadIds).to.deep.equal([await idOf('e.cto@de.example')]);

      // Nobody matches: nobody is planned (never every lead), and the reason is stored.
      await setAudience({ titles: ['Nurse'], locations: ['Japan'] }, 'parser');
      expect((await plan()).leadIds).to.deep.equal([]);
      expect(await stored()).to.deep.equal({ n: 0, reason: 'No lead of the account matches: titles Nurse; locations Japan' });

      // all_leads: every reachable lead, as campaigns without an audience always did.
      await setAudience(null, 'all_leads');
      expect((await plan()).leadIds).to.have.length(4);
      expect(await stored()).to.deep.equal({ n: 4, reason: null });
    });

    it('from Apollo: reveals are charged once and reported once, also across a retried activity', async () => {
      const { accountId, campaignId } = await newRunningCampaign(db.sequelize);
      await db.sequelize.query(`INSERT INTO account_integrations (account_id, apollo_api_key) VALUES ($1, 'apollo-test-key')`, { bind: [accountId] });
      const input: PlanLeadsInput = { campaignId, accountId, limit: 10, exclude: [] };
      const attempt = new MockActivityEnvironment({ activityId: '7' }, { logger: quiet });

      const first = await runInActivity(attempt, planLeads(deps), input);
      const emails = await rowsOf<{ id: string; email: string }>(db.sequelize, `SELECT id, email FROM leads WHERE id = ANY($1::text[]) ORDER BY email`, [first.leadIds]);
      expect(emails.map((l) => l.email)).to.deep.equal(['dana.reyes@northwind.example', 'ira@northwind.example', 'lee@contoso.example', 'sam.hidden@fabrikam.example']);
      expect(first.costUsd).to.equal(0.02); // sam.hidden's address was revealed

      // Temporal retrying the same activity (its result was lost): the same cost is reported again.
      const retried = await runInActivity(attempt, planLeads(deps), input);
      expect(retried.costUsd).to.equal(0.02);
      // The workflow's next plan is another activity: nothing new was spent, nothing is reported.
      const next = await runInActivity(new MockActivityEnvironment({ activityId: '8' }, { logger: quiet }), planLeads(deps), { ...input, exclude: first.leadIds });
      expect(next).to.deep.equal({ leadIds: [], costUsd: 0 });
      const costs = await rowsOf<{ n: number }>(db.sequelize, `SELECT count(*)::int AS n FROM costs WHERE campaign_id = $1`, [campaignId]);
      expect(costs[0]!.n).to.equal(1);
    });

    it('reports what an attempt that crashed after charging spent, although its retry charges nothing', async () => {
      const { accountId, campaignId } = await newRunningCampaign(db.sequelize);
      await db.sequelize.query(`INSERT INTO account_integrations (account_id, apollo_api_key) VALUES ($1, 'apollo-test-key')`, { bind: [accountId] });
      // The first attempt's work: the reveal is charged, then the worker dies before answering.
      await findLeads(deps, { accountId, campaignId, filters: {}, limit: 10 });
      const retried = await runInActivity(new MockActivityEnvironment({ activityId: '3', attempt: 2 }, { logger: quiet }), planLeads(deps), { campaignId, accountId, limit: 10, exclude: [] });
      expect(retried.leadIds).to.have.length(4);
      expect(retried.costUsd).to.equal(0.02);
    });

    it('another account\'s campaign is a non-retryable CampaignNotFound; a rejected Apollo key is not retried', async () => {
      const { campaignId } = await newRunningCampaign(db.sequelize);
      const other = await newRunningCampaign(db.sequelize);
      expect(await failureOf(planLeads(deps)({ campaignId, accountId: other.accountId, limit: 5, exclude: [] }))).to.include({ type: 'CampaignNotFound', nonRetryable: true });
      await db.sequelize.query(`INSERT INTO account_integrations (account_id, apollo_api_key) VALUES ($1, 'wrong-key')`, { bind: [other.accountId] });
      expect(await failureOf(planLeads(deps)({ ...other, limit: 5, exclude: [] }))).to.include({ type: 'ProviderKeyRejected', nonRetryable: true });
    });
  });
});

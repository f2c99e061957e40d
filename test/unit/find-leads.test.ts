import { Readable } from 'node:stream';
import { ApplicationFailure } from '@temporalio/common';
import { expect } from 'chai';
import { QueryTypes } from 'sequelize';
import { activityFailure } from '../../activities/failures';
import { newId } from '../../src/accounts/ids';
import { LeadProviderError } from '../../src/leads/apollo/errors';
import { findLeads as findLeadsIn, type FindLeadsInput } from '../../src/leads/find-leads';
import { importLeadsCsv } from '../../src/leads/import/import-csv';
import { suppressAddress } from '../../src/suppressions/suppression-repository';
import { createAccount, testConfig } from '../support/api';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { samplePeople, startFakeApollo, type FakeApollo } from '../support/fake-apollo';

describe('findLeads (the leads a campaign writes to next)', () => {
  let db: TestDatabase;
  let fake: FakeApollo;
  let config: ReturnType<typeof testConfig>;
  const findLeads = (input: FindLeadsInput) => findLeadsIn({ sequelize: db.sequelize, config }, input);

  before(async () => {
    db = await createTestDatabase();
    fake = await startFakeApollo({ people: samplePeople() });
    config = testConfig({ APOLLO_API_URL: fake.url });
  });
  after(async () => {
    await fake?.close();
    await db?.drop();
  });
  beforeEach(() => {
    fake.reset();
    fake.people = samplePeople();
  });

  async function campaignOf(accountId: string): Promise<string> {
    const id = newId('cmp');
    await db.sequelize.query(`INSERT INTO campaigns (id, account_id, created_via, name, mcp, target_url) VALUES ($1, $2, 'b', 'Test', 'default', 'https://x.example')`, {
      bind: [id, accountId],
    });
    return id;
  }

  async function emailed(accountId: string, campaignId: string, email: string): Promise<void> {
    await db.sequelize.query(
      `INSERT INTO emails (id, account_id, campaign_id, lead_id, step, from_email, to_email, subject, message_id, status)
       SELECT $1, $2, $3, id, 0, 'me@x.example', email, 'Hi', $1 || '@x.example', 'sent' FROM leads WHERE account_id = $2 AND email = $4`,
      { bind: [newId('em'), accountId, campaignId, email] },
    );
  }

  const costs = (accountId: string) =>
    db.sequelize.query<{ campaign_id: string; idempotency_key: string }>(`SELECT campaign_id, idempotency_key FROM costs WHERE account_id = $1`, {
      bind: [accountId],
      type: QueryTypes.SELECT,
    });

  it("from the store: matching leads, minus suppressed, bounced, unsubscribed and those this campaign already emailed", async () => {
    const { accountId } = await createAccount(db.sequelize);
    const csv = ['email,title', 'a@s.example,VP Sales', 'b@s.example,VP Sales', 'c@s.example,VP Sales', 'd@s.example,VP Sales', 'e@s.example,VP Sales', 'f@s.example,Engineer'];
    await importLeadsCsv(db.sequelize, accountId, Readable.from([csv.join('\n')]));
    await suppressAddress(db.sequelize, null, accountId, 'b@s.example', 'complaint');
    await db.sequelize.query(`UPDATE leads SET bounced_at = now() WHERE email = 'c@s.example'`);
    await db.sequelize.query(`UPDATE leads SET unsubscribed_at = now() WHERE email = 'd@s.example'`);
    const campaignId = await campaignOf(accountId);
    const other = await campaignOf(accountId);
    await emailed(accountId, campaignId, 'e@s.example');

    const mine = await findLeads({ accountId, campaignId, filters: { personTitles: ['vp sales'] }, limit: 10 });
    expect(mine.source).to.equal('leads_store');
    expect(mine.leads.map((l) => l.email)).to.deep.equal(['a@s.example']);
    expect(mine.leads[0]!.leadId).to.match(/^lead_/);
    // Another campaign has not emailed e@ yet.
    const theirs = await findLeads({ accountId, campaignId: other, filters: { personTitles: ['vp sales'] }, limit: 10 });
    expect(theirs.leads.map((l) => l.email)).to.deep.equal(['a@s.example', 'e@s.example']);
    const limited = await findLeads({ accountId, campaignId: other, filters: {}, limit: 1 });
    expect(limited.leads).to.have.length(1);
    expect(fake.requests).to.deep.equal([]);
  });

  it('from Apollo: stores the people found, reveals hidden addresses charged to the campaign once, skips suppressed ones', async () => {
    const { accountId } = await createAccount(db.sequelize);
    await db.sequelize.query(`INSERT INTO account_integrations (account_id, apollo_api_key) VALUES ($1, 'apollo-test-key')`, { bind: [accountId] });
    await suppressAddress(db.sequelize, null, accountId, 'lee@contoso.example', 'unsubscribe');
    const campaignId = await campaignOf(accountId);
    const input = { accountId, campaignId, filters: { personTitles: ['sales'] }, limit: 10 };

    const first = await findLeads(input);
    expect(first.source).to.equal('apollo');
    expect(first.leads.map((l) => l.email)).to.deep.equal(['dana.reyes@northwind.example', 'sam.hidden@fabrikam.example']);
    expect(fake.requests.map((r) => [r.path, r.body.id ?? null])).to.deep.equal([
      ['/api/v1/mixed_people/search', null],
      ['/api/v1/people/match', 'ap_3'],
    ]);
    expect(await costs(accountId)).to.deep.equal([{ campaign_id: campaignId, idempotency_key: `campaign:${campaignId}:apollo_match:ap_3` }]);

    // A retried or repeated call finds the same people and is not charged a second time.
    const again = await findLeads(input);
    expect(again.leads).to.deep.equal(first.leads);
    expect(await costs(accountId)).to.have.length(1);

    // Once the campaign has written to Dana, she is no longer offered.
    await emailed(accountId, campaignId, 'dana.reyes@northwind.example');
    const next = await findLeads({ ...input, limit: 1 });
    expect(next.leads.map((l) => l.email)).to.deep.equal(['sam.hidden@fabrikam.example']);
  });

  it('throws provider failures as LeadProviderErrors, which the activity boundary turns into ApplicationFailures the retry policy understands', async () => {
    const rejected = await createAccount(db.sequelize);
    await db.sequelize.query(`INSERT INTO account_integrations (account_id, apollo_api_key) VALUES ($1, 'wrong-key')`, { bind: [rejected.accountId] });
    const campaignId = await campaignOf(rejected.accountId);
    const failure = async (input: FindLeadsInput): Promise<ApplicationFailure> => {
      try {
        await findLeads(input);
      } catch (err) {
        expect(err).to.be.instanceOf(LeadProviderError);
        const f = activityFailure(err);
        expect(f).to.be.instanceOf(ApplicationFailure);
        return f as ApplicationFailure;
      }
      throw new Error('expected a failure');
    };
    const keyFailure = await failure({ accountId: rejected.accountId, campaignId, filters: {}, limit: 5 });
    expect(keyFailure).to.include({ type: 'ProviderKeyRejected', nonRetryable: true });

    const ok = await createAccount(db.sequelize);
    await db.sequelize.query(`INSERT INTO account_integrations (account_id, apollo_api_key) VALUES ($1, 'apollo-test-key')`, { bind: [ok.accountId] });
    const okCampaign = await campaignOf(ok.accountId);
    fake.respondNext({ status: 429, headers: { 'retry-after': '90' } });
    const limited = await failure({ accountId: ok.accountId, campaignId: okCampaign, filters: {}, limit: 5 });
    expect(limited).to.include({ type: 'ProviderRateLimited', nonRetryable: false });
    expect(limited.nextRetryDelay).to.equal('90s');
    fake.respondNext({ status: 503 });
    expect(await failure({ accountId: ok.accountId, campaignId: okCampaign, filters: {}, limit: 5 })).to.include({ type: 'ProviderUnavailable', nonRetryable: false });
  });
});

import { expect } from 'chai';
import { planLeads } from '../../activities/campaigns/plan-leads';
import type { ActivityDeps } from '../../activities';
import { parseAudienceText } from '../../src/campaigns/audience/parse-text';
import { createLogger } from '../../src/log/logger';
import { testConfig } from '../support/api';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { startFakeApollo, type FakeApollo, type FakePerson } from '../support/fake-apollo';
import { newRunningCampaign, rowsOf } from '../campaigns/fixtures';

const SEARCH = '/api/v1/mixed_people/search';

function person(id: string, title: string, city: string, country: string, org: FakePerson['organization'], extra: Partial<FakePerson> = {}): FakePerson {
  return {
    id,
    firstName: id,
    lastName: 'Doe',
    title,
    email: `${id}@${org.domain}`,
    revealed: true,
    city,
    state: city,
    country,
    linkedinUrl: `http://www.linkedin.com/in/${id}`,
    organization: org,
    ...extra,
  };
}

const finco = { name: 'Finco', domain: 'finco.example', industry: 'Fintech', employees: 120 };
const paybox = { name: 'Paybox Payments', domain: 'paybox.example', industry: 'Fintech', employees: 80 };
const bigpay = { name: 'Bigpay Payments', domain: 'bigpay.example', industry: 'Fintech', employees: 5000 };
const softco = { name: 'Softco', domain: 'softco.example', industry: 'Computer Software', employees: 120 };
const adco = { name: 'Adco', domain: 'adco.example', industry: 'Marketing and Advertising', employees: 60 };

function people(): FakePerson[] {
  return [
    person('cto_de', 'CTO', 'Berlin', 'Germany', finco, { seniority: 'c_suite' }),
    // Found by the search without an address: revealed (and charged), then checked like the others.
    person('vpe_de', 'VP of Engineering', 'Munich', 'Germany', finco, { seniority: 'vp', revealed: false }),
    // The provider's loose title match ("Director" contains "cto") returns her; the local matcher does not take her.
    person('mkt_de', 'Marketing Director', 'Hamburg', 'Germany', finco, { seniority: 'director' }),
    person('cto_fr', 'CTO', 'Paris', 'France', finco, { seniority: 'c_suite' }),
    person('cto_sw', 'CTO', 'Cologne', 'Germany', softco, { seniority: 'c_suite' }),
    person('cto_pay', 'CTO', 'Frankfurt', 'Germany', paybox, { seniority: 'c_suite' }),
    person('cto_big', 'CTO', 'Frankfurt', 'Germany', bigpay, { seniority: 'c_suite' }),
    person('mkt_at', 'Marketing Director', 'Vienna', 'Austria', adco, { seniority: 'director' }),
  ];
}

describe("a campaign's audience as the provider's people search (fake Apollo on 127.0.0.1)", () => {
  let db: TestDatabase;
  let fake: FakeApollo;
  let deps: ActivityDeps;

  before(async () => {
    db = await createTestDatabase();
    fake = await startFakeApollo({ people: people() });
    deps = { sequelize: db.sequelize, config: testConfig({ APOLLO_API_URL: fake.url, PRICE_ENRICHMENT_USD: '0.02' }), log: createLogger('silent', 'test') };
  });
  after(async () => {
    await fake?.close();
    await db?.drop();
  });
  beforeEach(() => {
    fake.reset();
    fake.people = people();
  });

  /** A running campaign of an account with an Apollo key, with this audience stored. */
  async function campaignWith(filters: unknown, source: string) {
    const c = await newRunningCampaign(db.sequelize);
    await db.sequelize.query(`INSERT INTO account_integrations (account_id, apollo_api_key) VALUES ($1, 'apollo-test-key')`, { bind: [c.accountId] });
    await db.sequelize.query('UPDATE campaigns SET audience_filters = $2, audience_source = $3 WHERE id = $1', { bind: [c.campaignId, filters === null ? null : JSON.stringify(filters), source] });
    return c;
  }
  const plan = async (c: { accountId: string; campaignId: string }) => {
    const result = await planLeads(deps)({ ...c, limit: 10, exclude: [] });
    const rows = await rowsOf<{ email: string }>(db.sequelize, 'SELECT email FROM leads WHERE id = ANY($1::text[]) ORDER BY email', [result.leadIds]);
    return { emails: rows.map((r) => r.email), costUsd: result.costUsd };
  };
  const searches = () => fake.requests.filter((r) => r.path === SEARCH).map((r) => r.body);

  it('"CTOs and VPs of Engineering at fintech companies in Germany": the filters are searched, only matching people are taken', async () => {
    const c = await campaignWith(parseAudienceText('CTOs and VPs of Engineering at fintech companies in Germany').filters, 'parser');
    const planned = await plan(c);
    expect(searches()).to.deep.equal([
      {
        page: 1,
        per_page: 100,
        person_titles: ['CTO', 'Chief Technology Officer', 'VP of Engineering', 'Vice President of Engineering'],
        person_locations: ['Germany'],
        q_organization_keyword_tags: ['fintech'],
      },
    ]);
    // Not the marketing director the provider also returned; the VP's address was revealed for the campaign.
    expect(planned.emails).to.deep.equal(['cto_big@bigpay.example', 'cto_de@finco.example', 'cto_pay@paybox.example', 'vpe_de@finco.example']);
    expect(planned.costUsd).to.equal(0.02);
    expect(fake.requests.filter((r) => r.path === '/api/v1/people/match').map((r) => r.body.id)).to.deep.equal(['vpe_de']);
  });

  it('explicit filters with seniorities, company sizes and a keyword', async () => {
    const c = await campaignWith({ titles: ['CTO'], seniorities: ['c_level'], companySizes: [{ min: 51, max: 200 }], keywords: ['payments'], locations: ['Germany'] }, 'explicit');
    const planned = await plan(c);
    expect(searches()).to.deep.equal([
      {
        page: 1,
        per_page: 100,
        person_titles: ['CTO', 'Chief Technology Officer'],
        person_seniorities: ['owner', 'founder', 'c_suite', 'partner'],
        person_locations: ['Germany'],
        organization_num_employees_ranges: ['51,200'],
        q_keywords: 'payments',
      },
    ]);
    expect(planned).to.deep.equal({ emails: ['cto_pay@paybox.example'], costUsd: 0 });
  });

  it('a region (DACH) is searched as its countries', async () => {
    const c = await campaignWith({ titles: ['marketing directors'], locations: ['DACH'] }, 'explicit');
    const planned = await plan(c);
    expect(searches()).to.deep.equal([
      { page: 1, per_page: 100, person_titles: ['Director of Marketing', 'Marketing Director'], person_locations: ['Germany', 'Austria', 'Switzerland'] },
    ]);
    expect(planned.emails).to.deep.equal(['mkt_at@adco.example', 'mkt_de@finco.example']);
  });

  it('an all-leads campaign sends the unfiltered search it always did', async () => {
    const c = await campaignWith(null, 'all_leads');
    const planned = await plan(c);
    expect(searches()).to.deep.equal([{ page: 1, per_page: 100 }]);
    expect(planned.emails).to.have.length(people().length);
  });

  it('an audience that names nobody does not ask the provider', async () => {
    const c = await campaignWith({}, 'explicit');
    expect(await plan(c)).to.deep.equal({ emails: [], costUsd: 0 });
    expect(fake.requests).to.deep.equal([]);
  });
});

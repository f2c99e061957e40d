import { Readable } from 'node:stream';
import { expect } from 'chai';
import { QueryTypes } from 'sequelize';
import { importLeadsCsv } from '../../src/leads/import/import-csv';
import { createAccount, request, surfaceB, testConfig, useTestApi } from '../support/api';
import { samplePeople, startFakeApollo, type FakeApollo } from '../support/fake-apollo';

interface LeadBody {
  id: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  title: string | null;
  company: string | null;
  companyDomain: string | null;
  industry: string | null;
  city: string | null;
  state: string | null;
  country: string | null;
  linkedinUrl: string | null;
  phone: string | null;
  source: string;
}
interface SearchBody {
  leads: LeadBody[];
  pagination: { page: number; perPage: number; total: number };
  source: string;
}

describe('leads through an Apollo-compatible provider (fake Apollo on 127.0.0.1)', () => {
  let fake: FakeApollo;
  const env: Record<string, string> = {};
  // Registered before useTestApi's hook, so the app starts with APOLLO_API_URL pointing at the fake.
  before(async () => {
    fake = await startFakeApollo({ people: samplePeople() });
    env.APOLLO_API_URL = fake.url;
  });
  after(async () => {
    await fake?.close();
  });
  const t = useTestApi({ env });
  const price = testConfig().prices.enrichmentUsd;

  beforeEach(() => {
    fake.reset();
    fake.people = samplePeople();
  });

  async function accountWithKey(key = 'apollo-test-key') {
    const account = await createAccount(t.db.sequelize);
    await t.db.sequelize.query(`INSERT INTO account_integrations (account_id, apollo_api_key) VALUES ($1, $2)`, { bind: [account.accountId, key] });
    return account;
  }

  const post = <T = Record<string, unknown>>(key: string, path: string, body: unknown) =>
    request<T & { error?: string }>(`${t.api.baseUrl}${path}`, {
      method: 'POST',
      headers: { ...surfaceB(key), 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  const costs = (accountId: string) =>
    t.db.sequelize.query<{ category: string; cost_name: string; feature_slug: string; amount_usd: string; idempotency_key: string; campaign_id: string | null }>(
      `SELECT category, cost_name, feature_slug, amount_usd, idempotency_key, campaign_id FROM costs WHERE account_id = $1 ORDER BY id`,
      { bind: [accountId], type: QueryTypes.SELECT },
    );

  describe('search', () => {
    it("sends the filters in Apollo's names with the account's key and maps and stores the people found", async () => {
      const { accountId, apiKey } = await accountWithKey();
      const res = await post<SearchBody>(apiKey, '/v1/leads/search', {
        person_titles: ['VP Sales'],
        organization_locations: ['Texas', 'Germany'],
        organization_industries: ['software'],
        per_page: 10,
      });
      expect(res.status, res.text).to.equal(200);
      expect(fake.requests).to.have.length(1);
      expect(fake.requests[0]).to.deep.include({
        path: '/api/v1/mixed_people/search',
        apiKey: 'apollo-test-key',
        body: { person_titles: ['VP Sales'], organization_locations: ['Texas', 'Germany'], q_organization_keyword_tags: ['software'], page: 1, per_page: 10 },
      });
      expect(res.body.source).to.equal('apollo');
      // Apollo found Dana and Sam; Sam's address is not revealed, so only Dana can be a lead.
      expect(res.body.pagination).to.deep.equal({ page: 1, perPage: 10, total: 2 });
      expect(res.body.leads).to.have.length(1);
      expect(res.body.leads[0]).to.deep.include({
        email: 'dana.reyes@northwind.example',
        firstName: 'Dana',
        lastName: 'Reyes',
        title: 'VP Sales',
        company: 'Northwind',
        companyDomain: 'northwind.example',
        industry: 'Computer Software',
        city: 'Austin',
        state: 'Texas',
        country: 'United States',
        linkedinUrl: 'http://www.linkedin.com/in/dana-reyes',
        phone: '+15125550101',
        source: 'provider',
      });
      const stored = await t.db.sequelize.query<{ id: string; external_id: string; source: string }>(
        `SELECT id, external_id, source FROM leads WHERE account_id = $1`,
        { bind: [accountId], type: QueryTypes.SELECT },
      );
      expect(stored).to.deep.equal([{ id: res.body.leads[0]!.id, external_id: 'ap_1', source: 'provider' }]);
      // Searching again finds the same stored lead, not a second one; search is never charged.
      const again = await post<SearchBody>(apiKey, '/v1/leads/search', { person_titles: ['VP Sales'] });
      expect(again.body.leads.map((l) => l.id)).to.deep.equal([res.body.leads[0]!.id]);
      expect(await costs(accountId)).to.deep.equal([]);
    });

    it("updates a lead the account already had with Apollo's values, keeping its id and source", async () => {
      const { accountId, apiKey } = await accountWithKey();
      await importLeadsCsv(t.db.sequelize, accountId, Readable.from(['email,title,phone\ndana.reyes@northwind.example,Old Title,+44 20 7946 0000\n']));
      const res = await post<SearchBody>(apiKey, '/v1/leads/search', { person_titles: ['vp sales'], organization_locations: ['texas'] });
      expect(res.body.leads).to.have.length(1);
      expect(res.body.leads[0]).to.include({ title: 'VP Sales', source: 'import', phone: '+15125550101' });
      const [row] = await t.db.sequelize.query<{ external_id: string }>(`SELECT external_id FROM leads WHERE account_id = $1`, { bind: [accountId], type: QueryTypes.SELECT });
      expect(row?.external_id).to.equal('ap_1');
    });

    it('a rejected key is a 400 that says so', async () => {
      const { apiKey } = await accountWithKey('revoked-key');
      const res = await post(apiKey, '/v1/leads/search', { person_titles: ['VP Sales'] });
      expect(res.status).to.equal(400);
      expect(res.body.error).to.match(/^The Apollo key was rejected/);
    });

    it("a 422 is a 400 carrying Apollo's message", async () => {
      const { apiKey } = await accountWithKey();
      fake.respondNext({ status: 422, body: { error: 'Value too long for person_titles' } });
      const res = await post(apiKey, '/v1/leads/search', { person_titles: ['VP Sales'] });
      expect(res.status).to.equal(400);
      expect(res.body).to.deep.equal({ error: 'Apollo refused the request: Value too long for person_titles' });
    });

    it('a 429 is retried after Retry-After, then succeeds', async () => {
      const { apiKey } = await accountWithKey();
      fake.respondNext({ status: 429, headers: { 'retry-after': '1' }, body: { error: 'rate limited' } });
      const res = await post<SearchBody>(apiKey, '/v1/leads/search', { person_titles: ['VP Sales'] });
      expect(res.status, res.text).to.equal(200);
      expect(res.body.leads.map((l) => l.email)).to.deep.equal(['dana.reyes@northwind.example']);
      expect(fake.requests).to.have.length(2);
      // It waited (at least about) the second Apollo asked for before asking again.
      expect(fake.requests[1]!.at - fake.requests[0]!.at).to.be.at.least(900);
    });

    it('a 429 that persists is a 503 with Retry-After after a bounded number of tries', async () => {
      const { apiKey } = await accountWithKey();
      fake.respondNext(...Array.from({ length: 5 }, () => ({ status: 429, headers: { 'retry-after': '0' } })));
      const res = await post(apiKey, '/v1/leads/search', { person_titles: ['VP Sales'] });
      expect(res.status).to.equal(503);
      expect(res.headers.get('retry-after')).to.equal('1');
      expect(res.body.error).to.match(/Apollo is rate limiting this account's key/);
      expect(fake.requests).to.have.length(3); // the first try and two retries
    });

    it('a 429 asking for a long wait is not waited for: 503 at once with that Retry-After', async () => {
      const { apiKey } = await accountWithKey();
      fake.respondNext({ status: 429, headers: { 'retry-after': '60' } });
      const res = await post(apiKey, '/v1/leads/search', { person_titles: ['VP Sales'] });
      expect(res.status).to.equal(503);
      expect(res.headers.get('retry-after')).to.equal('60');
      expect(fake.requests).to.have.length(1);
    });

    it('a 5xx is a 503', async () => {
      const { apiKey } = await accountWithKey();
      fake.respondNext({ status: 500, body: { error: 'boom' } });
      const res = await post(apiKey, '/v1/leads/search', { person_titles: ['VP Sales'] });
      expect(res.status).to.equal(503);
      expect(res.body).to.deep.equal({ error: 'The lead provider is unavailable: Apollo answered HTTP 500' });
    });
  });

  describe('enrichment', () => {
    it('by email: the revealed person, stored, charged once at the configured price', async () => {
      const { accountId, apiKey } = await accountWithKey();
      const res = await post<LeadBody>(apiKey, '/v1/leads/enrich', { email: 'Sam.Hidden@Fabrikam.example' });
      expect(res.status, res.text).to.equal(200);
      expect(res.body).to.include({ email: 'sam.hidden@fabrikam.example', firstName: 'Sam', title: 'VP Sales EMEA', companyDomain: 'fabrikam.example', source: 'provider' });
      expect(fake.requests.map((r) => [r.path, r.body])).to.deep.equal([
        ['/api/v1/people/match', { email: 'sam.hidden@fabrikam.example', reveal_personal_emails: false, reveal_phone_number: false }],
      ]);
      const charged = await costs(accountId);
      expect(charged).to.have.length(1);
      expect(charged[0]).to.include({ category: 'lead_enrichment', cost_name: 'apollo:people_match', feature_slug: 'lead-enrichment', campaign_id: null });
      expect(Number(charged[0]!.amount_usd)).to.equal(price);
      const [event] = await t.db.sequelize.query<{ data: { amount_usd: number } }>(`SELECT data FROM outbox WHERE account_id = $1 AND event = 'cost.recorded'`, {
        bind: [accountId],
        type: QueryTypes.SELECT,
      });
      expect(event?.data.amount_usd).to.equal(price);
      const got = await request<LeadBody>(`${t.api.baseUrl}/v1/leads/${res.body.id}`, { headers: surfaceB(apiKey) });
      expect(got.body.email).to.equal('sam.hidden@fabrikam.example');
    });

    it('by name and company domain, and by LinkedIn profile; every call is charged once', async () => {
      const { accountId, apiKey } = await accountWithKey();
      const byName = await post<LeadBody>(apiKey, '/v1/leads/enrich', { firstName: 'lee', lastName: 'OKAFOR', domain: 'https://www.contoso.example/' });
      expect(byName.status, byName.text).to.equal(200);
      expect(byName.body).to.include({ email: 'lee@contoso.example', company: 'Contoso', city: 'Dublin' });
      expect(fake.requests[0]!.body).to.deep.equal({ first_name: 'lee', last_name: 'OKAFOR', domain: 'contoso.example', reveal_personal_emails: false, reveal_phone_number: false });

      const byLinkedin = await post<LeadBody>(apiKey, '/v1/leads/enrich', { linkedinUrl: 'http://www.linkedin.com/in/ira-engel' });
      expect(byLinkedin.status).to.equal(200);
      expect(byLinkedin.body).to.include({ email: 'ira@northwind.example', title: 'Staff Engineer' });
      expect(fake.requests[1]!.body).to.include({ linkedin_url: 'http://www.linkedin.com/in/ira-engel' });

      const twice = await post<LeadBody>(apiKey, '/v1/leads/enrich', { linkedinUrl: 'http://www.linkedin.com/in/ira-engel' });
      expect(twice.body.id).to.equal(byLinkedin.body.id);
      const charged = await costs(accountId);
      expect(charged).to.have.length(3);
      expect(new Set(charged.map((c) => c.idempotency_key)).size).to.equal(3);
    });

    it('no match is a 404 and is not charged; a match without an address is a 404 but charged', async () => {
      const { accountId, apiKey } = await accountWithKey();
      const miss = await post(apiKey, '/v1/leads/enrich', { email: 'nobody@nowhere.example' });
      expect(miss.status).to.equal(404);
      expect(miss.body).to.deep.equal({ error: 'No match' });
      expect(await costs(accountId)).to.deep.equal([]);

      fake.people = [...samplePeople(), { ...samplePeople()[0]!, id: 'ap_x', email: null, linkedinUrl: 'http://www.linkedin.com/in/no-mail' }];
      const noMail = await post(apiKey, '/v1/leads/enrich', { linkedinUrl: 'http://www.linkedin.com/in/no-mail' });
      expect(noMail.status).to.equal(404);
      expect(noMail.body.error).to.equal('Apollo matched the person but has no email address for them');
      expect(await costs(accountId)).to.have.length(1);
    });

    it('provider failures: rejected key 400, 422 400, persistent 429 503, 5xx 503, and none of them charged', async () => {
      const bad = await accountWithKey('wrong-key');
      const rejected = await post(bad.apiKey, '/v1/leads/enrich', { email: 'lee@contoso.example' });
      expect(rejected.status).to.equal(400);
      expect(rejected.body.error).to.match(/^The Apollo key was rejected/);

      const { accountId, apiKey } = await accountWithKey();
      fake.respondNext({ status: 422, body: { message: 'Missing required identifiers' } });
      const refused = await post(apiKey, '/v1/leads/enrich', { email: 'lee@contoso.example' });
      expect(refused.body).to.deep.equal({ error: 'Apollo refused the request: Missing required identifiers' });
      fake.respondNext({ status: 429, headers: { 'retry-after': '120' } });
      const limited = await post(apiKey, '/v1/leads/enrich', { email: 'lee@contoso.example' });
      expect([limited.status, limited.headers.get('retry-after')]).to.deep.equal([503, '120']);
      fake.respondNext({ status: 502 });
      expect((await post(apiKey, '/v1/leads/enrich', { email: 'lee@contoso.example' })).status).to.equal(503);
      expect(await costs(accountId)).to.deep.equal([]);
      expect(await costs(bad.accountId)).to.deep.equal([]);
    });

    it('explains a body that does not name one person one way', async () => {
      const { apiKey } = await accountWithKey();
      const cases: Array<[unknown, string | RegExp]> = [
        [{}, /^Nothing to enrich: send exactly one of: \{email\}, \{firstName, lastName, domain\} or \{linkedinUrl\}/],
        [{ email: 'a@b.co', linkedinUrl: 'https://linkedin.com/in/a' }, /not several \(email and linkedinUrl\)/],
        [{ firstName: 'Ada' }, 'Enriching by name needs firstName, lastName and domain; missing lastName, domain'],
        [{ linkedinUrl: 'https://example.com/ada' }, /^linkedinUrl is not a LinkedIn profile address/],
        [{ phone: '123' }, 'body has unknown field "phone"'],
      ];
      for (const [body, message] of cases) {
        const res = await post(apiKey, '/v1/leads/enrich', body);
        expect(res.status, JSON.stringify(body)).to.equal(400);
        expect(res.body.error).to.match(typeof message === 'string' ? new RegExp(`^${message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) : message);
      }
      expect(fake.requests).to.deep.equal([]);
    });
  });

  describe('an account without an Apollo key', () => {
    it('searches and enriches from its stored leads, never calling the provider and never charging', async () => {
      const { accountId, apiKey } = await createAccount(t.db.sequelize);
      await importLeadsCsv(
        t.db.sequelize,
        accountId,
        Readable.from(['email,first_name,last_name,title,website,linkedin_url\nmia@store.example,Mia,Stored,VP Sales,store.example,https://www.linkedin.com/in/mia/\n']),
      );
      const found = await post<SearchBody>(apiKey, '/v1/leads/search', { person_titles: ['vp sales'] });
      expect(found.body.source).to.equal('leads_store');
      expect(found.body.leads.map((l) => l.email)).to.deep.equal(['mia@store.example']);
      for (const body of [{ email: 'MIA@store.example' }, { firstName: 'mia', lastName: 'stored', domain: 'www.store.example' }, { linkedinUrl: 'http://linkedin.com/in/mia' }]) {
        const res = await post<LeadBody>(apiKey, '/v1/leads/enrich', body);
        expect(res.status, JSON.stringify(body)).to.equal(200);
        expect(res.body).to.include({ email: 'mia@store.example', source: 'import' });
      }
      expect((await post(apiKey, '/v1/leads/enrich', { email: 'dana.reyes@northwind.example' })).status).to.equal(404);
      expect(fake.requests).to.deep.equal([]);
      expect(await costs(accountId)).to.deep.equal([]);
    });
  });
});

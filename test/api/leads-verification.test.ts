import { expect } from 'chai';
import { QueryTypes } from 'sequelize';
import { reverifyIfStale } from '../../src/leads/verification/verify-leads';
import { createAccount, request, surfaceB, testConfig, useTestApi } from '../support/api';
import { startLocalDns, type LocalDns } from '../support/local-dns';

interface Check {
  result: string;
  detail: string;
}
interface Verification {
  status: string | null;
  checkedAt: string | null;
  checks: { syntax: Check; role: Check; disposable: Check; mailDomain: Check } | null;
}
interface LeadBody {
  id: string;
  email: string;
  verification: Verification;
}
interface ImportBody {
  total: number;
  imported: number;
  duplicates: number;
  verification: { valid: number; risky: number; invalid: number; unknown: number };
  addedToList?: number;
  error?: string;
}

describe('address verification through the API (import, lead views, POST /v1/leads/:id/verify)', () => {
  let dns: LocalDns;
  // Filled before the API starts (hooks run in order), read by testConfig when it does.
  const env: Record<string, string> = {};
  before(async () => {
    // Names the test does not set have an MX; each test domain below answers as its name says.
    dns = await startLocalDns((name) => ({ mx: [`mx.${name}`] }));
    dns.set('no-mail.com', 'nodata');
    dns.set('gone.com', 'nxdomain');
    dns.set('a-only.com', { a: ['192.0.2.7'] });
    dns.set('slow.com', 'timeout');
    dns.set('mailinator.com', { mx: ['mail.mailinator.com'] });
    env.EMAIL_DNS_SERVERS = dns.server;
    env.EMAIL_DNS_TIMEOUT_MS = '250';
  });
  after(() => dns.close());
  const t = useTestApi({ env });

  const upload = (key: string, csv: string, query = '') =>
    request<ImportBody>(`${t.api.baseUrl}/v1/leads/import${query}`, { method: 'POST', headers: { ...surfaceB(key), 'content-type': 'text/csv' }, body: csv });
  const leadsOf = async (key: string): Promise<LeadBody[]> =>
    (await request<{ leads: LeadBody[] }>(`${t.api.baseUrl}/v1/leads?perPage=100`, { headers: surfaceB(key) })).body.leads;
  const byEmail = (leads: LeadBody[], email: string): LeadBody => leads.find((l) => l.email === email)!;

  it('verifies the leads of an import, counts them by verdict, and shows each check on the lead', async () => {
    const { apiKey } = await createAccount(t.db.sequelize);
    const csv = [
      'email,first_name',
      'ann@acme.com,Ann',
      'bob@acme.com,Bob',
      'info@acme.com,Info',
      'temp@mailinator.com,Temp',
      'joe@no-mail.com,Joe',
      'zed@gone.com,Zed',
      'amy@a-only.com,Amy',
      'sam@slow.com,Sam',
    ].join('\n');
    const started = Date.now();
    const res = await upload(apiKey, csv);
    expect(res.status, res.text).to.equal(200);
    // The timeout (250 ms) bounds the slow domain; the answer does not wait for more.
    expect(Date.now() - started).to.be.below(3000);
    expect(res.body).to.include({ total: 8, imported: 8 });
    expect(res.body.verification).to.deep.equal({ valid: 3, risky: 2, invalid: 2, unknown: 1 });
    expect(res.body).to.not.have.property('addedToList');

    const leads = await leadsOf(apiKey);
    const ann = byEmail(leads, 'ann@acme.com').verification;
    expect(ann.status).to.equal('valid');
    expect(ann.checkedAt).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(ann.checks).to.deep.equal({
      syntax: { result: 'pass', detail: 'RFC 5322 address' },
      role: { result: 'pass', detail: 'a personal address' },
      disposable: { result: 'pass', detail: 'not a disposable domain' },
      mailDomain: { result: 'pass', detail: 'MX mx.acme.com' },
    });
    const info = byEmail(leads, 'info@acme.com').verification;
    expect(info.status).to.equal('risky');
    expect(info.checks!.role).to.deep.equal({ result: 'warn', detail: 'role address (info)' });
    const temp = byEmail(leads, 'temp@mailinator.com').verification;
    expect(temp.status).to.equal('risky');
    expect(temp.checks!.disposable).to.deep.equal({ result: 'warn', detail: 'disposable domain (mailinator.com)' });
    expect(byEmail(leads, 'joe@no-mail.com').verification).to.deep.include({ status: 'invalid' });
    expect(byEmail(leads, 'joe@no-mail.com').verification.checks!.mailDomain).to.deep.equal({ result: 'fail', detail: 'no MX or A record' });
    expect(byEmail(leads, 'zed@gone.com').verification.status).to.equal('invalid');
    expect(byEmail(leads, 'amy@a-only.com').verification.checks!.mailDomain).to.deep.equal({ result: 'pass', detail: 'no MX; A record (implicit MX)' });
    const sam = byEmail(leads, 'sam@slow.com').verification;
    expect(sam.status).to.equal('unknown');
    expect(sam.checks!.mailDomain).to.deep.equal({ result: 'unknown', detail: 'DNS did not answer in time' });

    // The same view in GET /v1/leads/:id and in the export.
    const one = await request<LeadBody>(`${t.api.baseUrl}/v1/leads/${byEmail(leads, 'info@acme.com').id}`, { headers: surfaceB(apiKey) });
    expect(one.body.verification).to.deep.equal(info);
    const exported = await request<Array<Record<string, string | null>>>(`${t.api.baseUrl}/v1/leads/export?format=json`, { headers: surfaceB(apiKey) });
    expect(exported.body.find((r) => r.email === 'joe@no-mail.com')).to.include({
      verification: 'invalid',
      verificationMailDomain: 'fail: no MX or A record',
      verificationSyntax: 'pass: RFC 5322 address',
    });
  });

  it('looks each domain up once per import, and not again for the next import of the same companies', async () => {
    const { apiKey } = await createAccount(t.db.sequelize);
    const rows = Array.from({ length: 30 }, (_, i) => `person${i}@once${i % 3}.com`);
    const res = await upload(apiKey, ['email', ...rows].join('\n'));
    expect(res.body.verification).to.deep.equal({ valid: 30, risky: 0, invalid: 0, unknown: 0 });
    // MX answered: one question per domain.
    for (const d of ['once0.com', 'once1.com', 'once2.com']) expect(dns.queriesFor(d), d).to.equal(1);
    const again = await upload(apiKey, ['email', ...rows.map((r) => `new.${r}`)].join('\n'));
    expect(again.body.verification.valid).to.equal(30);
    for (const d of ['once0.com', 'once1.com', 'once2.com']) expect(dns.queriesFor(d), d).to.equal(1);
  });

  it('leaves duplicates as they were: only the new leads are verified and counted', async () => {
    const { apiKey } = await createAccount(t.db.sequelize);
    await upload(apiKey, 'email\nkeep@acme.com\n');
    const before = byEmail(await leadsOf(apiKey), 'keep@acme.com').verification;
    const res = await upload(apiKey, 'email\nkeep@acme.com\nfresh@acme.com\n');
    expect(res.body).to.include({ imported: 1, duplicates: 1 });
    expect(res.body.verification).to.deep.equal({ valid: 1, risky: 0, invalid: 0, unknown: 0 });
    expect(byEmail(await leadsOf(apiKey), 'keep@acme.com').verification).to.deep.equal(before);
  });

  it('POST /v1/leads/:id/verify checks again now (DNS asked, not the cache) and answers the lead; 404 for another account\'s lead', async () => {
    const { apiKey } = await createAccount(t.db.sequelize);
    dns.set('moving.com', 'nodata');
    await upload(apiKey, 'email\nkim@moving.com\n');
    const kim = byEmail(await leadsOf(apiKey), 'kim@moving.com');
    expect(kim.verification.status).to.equal('invalid');
    // The company sets up its mail; the lead is checked again on request.
    dns.set('moving.com', { mx: ['mx.moving.com'] });
    const res = await request<LeadBody>(`${t.api.baseUrl}/v1/leads/${kim.id}/verify`, { method: 'POST', headers: surfaceB(apiKey) });
    expect(res.status, res.text).to.equal(200);
    expect(res.body.id).to.equal(kim.id);
    expect(res.body.verification.status).to.equal('valid');
    expect(res.body.verification.checks!.mailDomain).to.deep.equal({ result: 'pass', detail: 'MX mx.moving.com' });
    expect(Date.parse(res.body.verification.checkedAt!)).to.be.at.least(Date.parse(kim.verification.checkedAt!));

    const stranger = await createAccount(t.db.sequelize);
    const other = await request(`${t.api.baseUrl}/v1/leads/${kim.id}/verify`, { method: 'POST', headers: surfaceB(stranger.apiKey) });
    expect(other.status).to.equal(404);
    expect(other.body).to.deep.equal({ error: 'Lead not found' });
    const missing = await request(`${t.api.baseUrl}/v1/leads/lead_nope/verify`, { method: 'POST', headers: surfaceB(apiKey) });
    expect(missing.status).to.equal(404);
  });

  it('shows a lead never checked with a null verification', async () => {
    const { accountId, apiKey } = await createAccount(t.db.sequelize);
    await upload(apiKey, 'email\nold@acme.com\n');
    // As a lead stored before verification existed.
    await t.db.sequelize.query('UPDATE leads SET verification = NULL, verification_checks = NULL, verified_at = NULL WHERE account_id = $1', { bind: [accountId] });
    expect(byEmail(await leadsOf(apiKey), 'old@acme.com').verification).to.deep.equal({ status: null, checkedAt: null, checks: null });
  });

  it('reverifyIfStale checks again only the leads never checked or checked more than a week ago', async () => {
    const { accountId, apiKey } = await createAccount(t.db.sequelize);
    await upload(apiKey, 'email\nnever@acme.com\nrecent@acme.com\nold@stale.com\n');
    const ids = Object.fromEntries((await leadsOf(apiKey)).map((l) => [l.email, l.id]));
    await t.db.sequelize.query(`UPDATE leads SET verification = NULL, verified_at = NULL WHERE id = $1`, { bind: [ids['never@acme.com']] });
    await t.db.sequelize.query(`UPDATE leads SET verified_at = now() - interval '8 days' WHERE id = $1`, { bind: [ids['old@stale.com']] });
    // The stale lead's domain lost its mail since; the recent lead's stored verdict is kept even though its domain would now fail.
    dns.set('stale.com', 'nxdomain');
    await t.db.sequelize.query(`UPDATE leads SET verification = 'risky' WHERE id = $1`, { bind: [ids['recent@acme.com']] });
    const verdicts = await reverifyIfStale({ sequelize: t.db.sequelize, config: testConfig(env) }, accountId, Object.values(ids) as string[]);
    expect(Object.fromEntries([...verdicts].map(([id, v]) => [Object.keys(ids).find((e) => ids[e] === id), v]))).to.deep.equal({
      'never@acme.com': 'valid',
      'recent@acme.com': 'risky',
      'old@stale.com': 'invalid',
    });
    const rows = await t.db.sequelize.query<{ email: string; fresh: boolean }>(
      `SELECT email, verified_at > now() - interval '1 minute' AS fresh FROM leads WHERE account_id = $1 ORDER BY email`,
      { bind: [accountId], type: QueryTypes.SELECT },
    );
    expect(rows.map((r) => [r.email, r.fresh])).to.deep.equal([
      ['never@acme.com', true],
      ['old@stale.com', true],
      ['recent@acme.com', true],
    ]);
  });

  describe('import into a list (?list_id=)', () => {
    const createList = async (key: string, name: string): Promise<string> => {
      const res = await request<{ id: string }>(`${t.api.baseUrl}/v1/lead-lists`, { method: 'POST', headers: { ...surfaceB(key), 'content-type': 'application/json' }, body: JSON.stringify({ name }) });
      expect(res.status, res.text).to.equal(201);
      return res.body.id;
    };
    const members = (listId: string) =>
      t.db.sequelize.query<{ email: string }>(`SELECT l.email FROM lead_list_members m JOIN leads l ON l.id = m.lead_id WHERE m.list_id = $1 ORDER BY l.email`, {
        bind: [listId],
        type: QueryTypes.SELECT,
      });

    it('adds new and duplicate leads of the file to the list and says how many were added', async () => {
      const { apiKey } = await createAccount(t.db.sequelize);
      await upload(apiKey, 'email\nalready@acme.com\n');
      const listId = await createList(apiKey, 'Q3');
      const res = await upload(apiKey, 'email\nalready@acme.com\nnew1@acme.com\nnew2@acme.com\nnew1@acme.com\nbad-row\n', `?list_id=${listId}`);
      expect(res.status, res.text).to.equal(200);
      expect(res.body).to.include({ imported: 2, duplicates: 2, addedToList: 3 });
      expect((await members(listId)).map((m) => m.email)).to.deep.equal(['already@acme.com', 'new1@acme.com', 'new2@acme.com']);
      // Again: all already in the list.
      const again = await upload(apiKey, 'email\nnew2@acme.com\n', `?listId=${listId}`);
      expect(again.body).to.include({ imported: 0, duplicates: 1, addedToList: 0 });
    });

    it("answers 404 for an unknown list or another account's list, and stores nothing", async () => {
      const owner = await createAccount(t.db.sequelize);
      const listId = await createList(owner.apiKey, 'Theirs');
      const { accountId, apiKey } = await createAccount(t.db.sequelize);
      for (const id of [listId, 'list_nope']) {
        const res = await upload(apiKey, 'email\nx@acme.com\n', `?list_id=${id}`);
        expect(res.status, id).to.equal(404);
        expect(res.body).to.deep.equal({ error: 'Lead list not found' });
      }
      const stored = await t.db.sequelize.query('SELECT 1 FROM leads WHERE account_id = $1', { bind: [accountId], type: QueryTypes.SELECT });
      expect(stored).to.deep.equal([]);
      const empty = await upload(apiKey, 'email\nx@acme.com\n', '?list_id=');
      expect(empty.status).to.equal(400);
      expect(empty.body.error).to.match(/list_id/);
    });
  });

  it('imports 10,000 rows over 2,000 domains, each domain looked up once, in a few seconds', async function () {
    this.timeout(120_000);
    const { apiKey } = await createAccount(t.db.sequelize);
    const rows = Array.from({ length: 10_000 }, (_, i) => `p${i}@bulk${i % 2000}.com,Person ${i}`);
    const queriesBefore = dns.totalQueries;
    const started = Date.now();
    const res = await upload(apiKey, ['email,first_name', ...rows].join('\n'));
    const ms = Date.now() - started;
    expect(res.status, res.text).to.equal(200);
    expect(res.body).to.include({ imported: 10_000 });
    expect(res.body.verification).to.deep.equal({ valid: 10_000, risky: 0, invalid: 0, unknown: 0 });
    expect(dns.totalQueries - queriesBefore).to.equal(2000);
    console.log(`      import of 10,000 rows over 2,000 domains, verified: ${ms} ms`);
    expect(ms).to.be.below(30_000);
  });
});

import { expect } from 'chai';
import { AccountService } from '../../src/accounts/account-service';
import { ApiKey } from '../../src/db/models';
import { createAccount, request, surfaceA, surfaceB, useTestApi } from '../support/api';

describe('API keys on both surfaces', () => {
  const t = useTestApi();

  it('GET /v1/me returns the account and its organization in camelCase', async () => {
    const { accountId, apiKey, keyId } = await createAccount(t.db.sequelize, 'pro', 'Acme Ltd');
    const res = await request(`${t.api.baseUrl}/v1/me`, { headers: surfaceB(apiKey) });
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.include({ account: { id: accountId, name: 'Acme Ltd', createdAt: (res.body.account as { createdAt: string }).createdAt } });
    expect(res.body.organization).to.deep.equal({
      id: accountId,
      name: 'Acme Ltd',
      plan: 'pro',
      emailLimit: 50000,
      createdAt: (res.body.account as { createdAt: string }).createdAt,
    });
    expect(res.body.apiKey).to.deep.equal({ id: keyId, prefix: apiKey.split('_')[1] });
    expect(Date.parse((res.body.account as { createdAt: string }).createdAt)).to.be.closeTo(Date.now(), 60_000);
  });

  it('a Free account reports the Free email limit', async () => {
    const { apiKey } = await createAccount(t.db.sequelize, 'free');
    const res = await request<{ organization: { plan: string; emailLimit: number } }>(`${t.api.baseUrl}/v1/me`, { headers: surfaceB(apiKey) });
    expect(res.body.organization).to.include({ plan: 'free', emailLimit: 1000 });
  });

  it('one key works on Surface A with Authorization: Bearer', async () => {
    const { apiKey } = await createAccount(t.db.sequelize);
    const res = await request(`${t.api.baseUrl}/campaigns`, { headers: surfaceA(apiKey) });
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({ campaigns: [], pagination: { total: 0, page: 1, per_page: 20 } });
  });

  const cases: Array<[string, Record<string, string>, Record<string, string>]> = [
    ['a missing key', {}, {}],
    ['a malformed key', { Authorization: 'Bearer not-a-key' }, { 'X-API-Key': 'not-a-key' }],
    ['a key of the wrong scheme', { Authorization: 'Basic dXNlcjpwYXNz' }, { 'X-API-Key': 'Bearer x' }],
    [
      'a well-formed but unknown key',
      { Authorization: 'Bearer ok_AAAAAAAAAAAA_BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB' },
      { 'X-API-Key': 'ok_AAAAAAAAAAAA_BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB' },
    ],
  ];
  for (const [what, a, b] of cases) {
    it(`${what} is 401 with {"error"} on both surfaces`, async () => {
      for (const [url, headers] of [[`${t.api.baseUrl}/campaigns`, a], [`${t.api.baseUrl}/v1/me`, b]] as const) {
        const res = await request(url, { headers });
        expect(res.status, url).to.equal(401);
        expect(res.headers.get('content-type')).to.match(/^application\/json/);
        expect(Object.keys(res.body)).to.deep.equal(['error']);
        expect(res.body.error).to.be.a('string').and.not.equal('');
      }
    });
  }

  it('a real key with its secret altered is 401 (the prefix alone does not authenticate)', async () => {
    const { apiKey } = await createAccount(t.db.sequelize);
    const altered = apiKey.slice(0, -1) + (apiKey.endsWith('A') ? 'B' : 'A');
    expect((await request(`${t.api.baseUrl}/v1/me`, { headers: surfaceB(altered) })).status).to.equal(401);
    expect((await request(`${t.api.baseUrl}/campaigns`, { headers: surfaceA(altered) })).status).to.equal(401);
  });

  it('each surface reads only its own header', async () => {
    const { apiKey } = await createAccount(t.db.sequelize);
    expect((await request(`${t.api.baseUrl}/campaigns`, { headers: surfaceB(apiKey) })).status).to.equal(401);
    expect((await request(`${t.api.baseUrl}/v1/me`, { headers: surfaceA(apiKey) })).status).to.equal(401);
  });

  it('a revoked key is refused at once on both surfaces, other keys keep working', async () => {
    const { accountId, apiKey, keyId } = await createAccount(t.db.sequelize);
    const other = await new AccountService(t.db.sequelize).issueKey(accountId);
    expect((await request(`${t.api.baseUrl}/v1/me`, { headers: surfaceB(apiKey) })).status).to.equal(200);
    await new AccountService(t.db.sequelize).revokeKey(keyId);
    for (const res of [
      await request(`${t.api.baseUrl}/v1/me`, { headers: surfaceB(apiKey) }),
      await request(`${t.api.baseUrl}/campaigns`, { headers: surfaceA(apiKey) }),
    ]) {
      expect(res.status).to.equal(401);
      expect(res.body).to.deep.equal({ error: 'API key has been revoked' });
    }
    expect((await request(`${t.api.baseUrl}/v1/me`, { headers: surfaceB(other.apiKey) })).status).to.equal(200);
  });

  it('records the last use of a key and stores only its hash', async () => {
    const { apiKey, keyId } = await createAccount(t.db.sequelize);
    expect((await ApiKey.findByPk(keyId))?.lastUsedAt).to.equal(null);
    await request(`${t.api.baseUrl}/v1/me`, { headers: surfaceB(apiKey) });
    let row = await ApiKey.findByPk(keyId);
    for (let i = 0; i < 50 && row?.lastUsedAt === null; i++) {
      await new Promise((r) => setTimeout(r, 20)); // the write is off the request path
      row = await ApiKey.findByPk(keyId);
    }
    expect(row?.lastUsedAt).to.be.instanceOf(Date);
    const [rows] = await t.db.sequelize.query('SELECT * FROM api_keys WHERE id = $1', { bind: [keyId] });
    expect(JSON.stringify(rows)).not.to.include(apiKey.split('_')[2]);
  });

  it('the dashboard key endpoints issue, list and revoke keys of the caller\'s account only', async () => {
    const me = await createAccount(t.db.sequelize);
    const stranger = await createAccount(t.db.sequelize);
    const created = await request<{ id: string; apiKey: string; prefix: string }>(`${t.api.baseUrl}/v1/api-keys`, {
      method: 'POST',
      headers: { ...surfaceB(me.apiKey), 'Content-Type': 'application/json' },
      body: JSON.stringify({ label: 'ci' }),
    });
    expect(created.status).to.equal(201);
    expect((await request(`${t.api.baseUrl}/v1/me`, { headers: surfaceB(created.body.apiKey) })).status).to.equal(200);
    const list = await request<{ keys: Array<{ id: string; label: string | null; revokedAt: string | null }> }>(`${t.api.baseUrl}/v1/api-keys`, { headers: surfaceB(me.apiKey) });
    expect(list.body.keys.map((k) => k.id)).to.deep.equal([me.keyId, created.body.id]);
    expect(JSON.stringify(list.body)).not.to.include(created.body.apiKey);
    const foreign = await request(`${t.api.baseUrl}/v1/api-keys/${stranger.keyId}/revoke`, { method: 'POST', headers: surfaceB(me.apiKey) });
    expect(foreign.status).to.equal(404);
    expect((await request(`${t.api.baseUrl}/v1/me`, { headers: surfaceB(stranger.apiKey) })).status).to.equal(200);
    const revoked = await request<{ revokedAt: string }>(`${t.api.baseUrl}/v1/api-keys/${created.body.id}/revoke`, { method: 'POST', headers: surfaceB(me.apiKey) });
    expect(revoked.status).to.equal(200);
    expect(revoked.body.revokedAt).to.be.a('string');
    expect((await request(`${t.api.baseUrl}/v1/me`, { headers: surfaceB(created.body.apiKey) })).status).to.equal(401);
  });
});

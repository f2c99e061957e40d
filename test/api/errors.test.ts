import { expect } from 'chai';
import { ApiKey } from '../../src/db/models';
import { createAccount, request, surfaceA, surfaceB, type JsonResponse, useTestApi } from '../support/api';

/** Every error is JSON `{"error": "..."}`: no HTML page, no stack trace, no library message. */
function expectErrorBody(res: JsonResponse, status: number): void {
  expect(res.status, res.text).to.equal(status);
  expect(res.headers.get('content-type')).to.match(/^application\/json/);
  expect(Object.keys(res.body)).to.deep.equal(['error']);
  expect(res.text).not.to.match(/<html|at .*\.ts:\d+|node_modules/i);
}

describe('errors and request validation', () => {
  const t = useTestApi();
  let key: string;
  before(async () => {
    key = (await createAccount(t.db.sequelize)).apiKey;
  });

  const post = (path: string, body: string | Buffer, contentType = 'application/json') =>
    request(`${t.api.baseUrl}${path}`, { method: 'POST', headers: { ...surfaceB(key), 'Content-Type': contentType }, body });

  it('malformed JSON is a 400 and creates nothing', async () => {
    const count = async (): Promise<number> => (await ApiKey.count());
    const before = await count();
    const res = await post('/v1/api-keys', '{"label": ');
    expectErrorBody(res, 400);
    expect(res.body.error).to.equal('Malformed JSON in request body');
    expect(await count()).to.equal(before);
  });

  it('a body over 1 MB is a 413', async () => {
    const res = await post('/v1/api-keys', JSON.stringify({ label: 'x'.repeat(1_100_000) }));
    expectErrorBody(res, 413);
  });

  it('a body that is not JSON is a 415', async () => {
    expectErrorBody(await post('/v1/api-keys', 'label=x', 'application/x-www-form-urlencoded'), 415);
  });

  it('an empty POST (Content-Length: 0, as fetch sends one) is judged by the schema, not refused as 415', async () => {
    const empty = (path: string) => request(`${t.api.baseUrl}${path}`, { method: 'POST', headers: { ...surfaceB(key), 'Content-Length': '0' } });
    // The body is optional here: an empty request issues a key.
    const optional = await empty('/v1/api-keys');
    expect(optional.status, optional.text).to.equal(201);
    // Required here: a 400 that says what is missing.
    expectErrorBody(await empty('/v1/qualify'), 400);
  });

  it('wrong types, unknown fields and out-of-range values are 400s that name the field', async () => {
    const wrongType = await post('/v1/api-keys', JSON.stringify({ label: 42 }));
    expectErrorBody(wrongType, 400);
    expect(wrongType.body.error).to.equal('body.label must be string');
    const unknown = await post('/v1/api-keys', JSON.stringify({ label: 'x', admin: true }));
    expectErrorBody(unknown, 400);
    expect(unknown.body.error).to.equal('body has unknown field "admin"');
    const notObject = await post('/v1/api-keys', JSON.stringify(['x']));
    expectErrorBody(notObject, 400);
  });

  it('page and per_page are bounded; a status filter takes only the six statuses', async () => {
    for (const q of ['per_page=101', 'per_page=0', 'page=0', 'page=abc', 'status=archived', 'per_page=1e9']) {
      const res = await request(`${t.api.baseUrl}/campaigns?${q}`, { headers: surfaceA(key) });
      expectErrorBody(res, 400);
      expect(res.body.error, q).to.match(/^query\./);
    }
    const ok = await request(`${t.api.baseUrl}/campaigns?per_page=100&page=3&status=running`, { headers: surfaceA(key) });
    expect(ok.status).to.equal(200);
    expect(ok.body.pagination).to.deep.equal({ total: 0, page: 3, per_page: 100 });
  });

  it('an unknown path is a JSON 404 and a known path with the wrong method a 405 with Allow', async () => {
    expectErrorBody(await request(`${t.api.baseUrl}/nowhere`), 404);
    const res = await request(`${t.api.baseUrl}/v1/me`, { method: 'DELETE', headers: surfaceB(key) });
    expectErrorBody(res, 405);
    expect(res.headers.get('allow')).to.equal('GET');
  });

  it('an id the account does not have is a 404 with one message per resource, the same on both surfaces', async () => {
    const call = (path: string, headers: Record<string, string>, method: string) => request(`${t.api.baseUrl}${path}`, { method, headers });
    const cases: Array<[string, string, Record<string, string>, string]> = [
      ['GET', '/campaigns/cmp_none', surfaceA(key), 'Campaign not found'],
      ['POST', '/campaigns/cmp_none/pause', surfaceA(key), 'Campaign not found'],
      ['GET', '/campaigns/cmp_none/stats', surfaceA(key), 'Campaign not found'],
      ['GET', '/v1/campaigns/cmp_none', surfaceB(key), 'Campaign not found'],
      ['POST', '/v1/campaigns/cmp_none/stop', surfaceB(key), 'Campaign not found'],
      ['GET', '/v1/leads/lead_none', surfaceB(key), 'Lead not found'],
      ['GET', '/v1/company/cmpny_none', surfaceB(key), 'Company not found'],
      ['DELETE', '/v1/mailboxes/mbx_none', surfaceB(key), 'Mailbox not found'],
      ['GET', '/v1/webhook-deliveries/whd_none', surfaceB(key), 'Webhook delivery not found'],
      ['POST', '/v1/webhook-deliveries/whd_none/resend', surfaceB(key), 'Webhook delivery not found'],
      ['POST', '/v1/api-keys/key_none/revoke', surfaceB(key), 'API key not found'],
    ];
    for (const [method, path, headers, message] of cases) {
      const res = await call(path, headers, method);
      expectErrorBody(res, 404);
      expect(res.body, `${method} ${path}`).to.deep.equal({ error: message });
    }
  });

  it('authentication comes before validation: a bad key with a bad body is 401', async () => {
    const res = await request(`${t.api.baseUrl}/v1/api-keys`, { method: 'POST', headers: { 'X-API-Key': 'nope', 'Content-Type': 'application/json' }, body: '{"label": 1}' });
    expectErrorBody(res, 401);
  });

  it('every response carries a request id, echoing a sane one from the caller', async () => {
    const mine = await request(`${t.api.baseUrl}/healthz`, { headers: { 'X-Request-Id': 'trace-123' } });
    expect(mine.headers.get('x-request-id')).to.equal('trace-123');
    const hostile = await request(`${t.api.baseUrl}/healthz`, { headers: { 'X-Request-Id': 'a b\tc' } });
    expect(hostile.headers.get('x-request-id')).to.match(/^[0-9a-f-]{36}$/);
  });
});

import { expect } from 'chai';
import { createAccount, request, surfaceB, useTestApi } from '../support/api';

interface Settings {
  url: string | null;
  secret: string;
  previousSecret: string | null;
  previousSecretExpiresAt: string | null;
  secretRotatedAt: string | null;
  updatedAt: string;
  error?: string;
}

const DAY_MS = 24 * 60 * 60 * 1000;
// 32 bytes of base64: a secret a client may choose.
const OWN_SECRET = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;

describe('webhook settings: /v1/webhook-settings', () => {
  const t = useTestApi();
  const url = (suffix = '') => `${t.api.baseUrl}/v1/webhook-settings${suffix}`;
  const get = (key: string) => request<Settings>(url(), { headers: surfaceB(key) });
  const send = (key: string, method: string, suffix: string, body?: unknown) =>
    request<Settings>(url(suffix), {
      method,
      headers: { ...surfaceB(key), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const patch = (key: string, body: unknown) => send(key, 'PATCH', '', body);
  const rotate = (key: string, body: unknown = {}) => send(key, 'POST', '/rotate-secret', body);

  it('GET creates a whsec_ secret once: the second GET shows the same one', async () => {
    const { apiKey } = await createAccount(t.db.sequelize);
    const first = await get(apiKey);
    expect(first.status).to.equal(200);
    expect(first.body.secret).to.match(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(first.body.secret.slice('whsec_'.length), 'base64')).to.have.length(32);
    expect(first.body).to.deep.include({ url: null, previousSecret: null, previousSecretExpiresAt: null, secretRotatedAt: null });
    const second = await get(apiKey);
    expect(second.body).to.deep.equal(first.body);
  });

  it('PATCH sets an https URL (stored normalised), refuses http to a public host and credentials, and null clears', async () => {
    const { apiKey } = await createAccount(t.db.sequelize);
    const { secret } = (await get(apiKey)).body;

    const set = await patch(apiKey, { url: 'HTTPS://Hooks.Example.COM/receive?x=1' });
    expect(set.status, set.text).to.equal(200);
    expect(set.body.url).to.equal('https://hooks.example.com/receive?x=1');
    expect(set.body.secret).to.equal(secret);
    expect((await get(apiKey)).body.url).to.equal('https://hooks.example.com/receive?x=1');

    const plain = await patch(apiKey, { url: 'http://hooks.example.com/receive' });
    expect(plain.status).to.equal(400);
    expect(plain.body).to.deep.equal({ error: 'url must be an https URL' });

    const credentials = await patch(apiKey, { url: 'https://user:pw@hooks.example.com/receive' });
    expect(credentials.status).to.equal(400);
    expect(credentials.body).to.deep.equal({ error: 'url must not carry credentials' });

    const relative = await patch(apiKey, { url: '/receive' });
    expect(relative.status).to.equal(400);
    expect(relative.body.error).to.equal('url must be an absolute https URL');

    // Refused changes changed nothing.
    expect((await get(apiKey)).body.url).to.equal('https://hooks.example.com/receive?x=1');

    // The test API runs with ALLOW_LOOPBACK_EGRESS: plain http to loopback is accepted there.
    const loopback = await patch(apiKey, { url: 'http://127.0.0.1:9/hooks' });
    expect(loopback.status).to.equal(200);
    expect(loopback.body.url).to.equal('http://127.0.0.1:9/hooks');

    const cleared = await patch(apiKey, { url: null });
    expect(cleared.status).to.equal(200);
    expect(cleared.body.url).to.equal(null);
    expect((await get(apiKey)).body.url).to.equal(null);
  });

  it('PATCH without url, with an unknown field or the wrong type is a 400', async () => {
    const { apiKey } = await createAccount(t.db.sequelize);
    expect((await patch(apiKey, {})).body).to.deep.equal({ error: 'body is missing required field "url"' });
    expect((await patch(apiKey, { url: null, secret: OWN_SECRET })).body).to.deep.equal({ error: 'body has unknown field "secret"' });
    const wrongType = await patch(apiKey, { url: 42 });
    expect(wrongType.status).to.equal(400);
  });

  it('rotate generates a new secret and keeps the previous one signing for 24 hours', async () => {
    const { apiKey } = await createAccount(t.db.sequelize);
    const before = (await get(apiKey)).body;
    const started = Date.now();
    const rotated = await rotate(apiKey);
    expect(rotated.status, rotated.text).to.equal(200);
    expect(rotated.body.secret).to.match(/^whsec_/).and.not.equal(before.secret);
    expect(rotated.body.previousSecret).to.equal(before.secret);
    expect(Date.parse(rotated.body.previousSecretExpiresAt!)).to.be.closeTo(started + DAY_MS, 10_000);
    expect(Date.parse(rotated.body.secretRotatedAt!)).to.be.closeTo(started, 10_000);
    expect((await get(apiKey)).body).to.deep.equal(rotated.body);

    // A second rotation: the one it replaces signs beside it; the oldest is gone (two at most).
    const again = await rotate(apiKey, { secret: OWN_SECRET });
    expect(again.status).to.equal(200);
    expect(again.body.secret).to.equal(OWN_SECRET);
    expect(again.body.previousSecret).to.equal(rotated.body.secret);
    expect(again.text).not.to.include(before.secret);
  });

  it('rotate with a secret that is not whsec_ base64 of 24 to 64 bytes is a 400 and changes nothing', async () => {
    const { apiKey } = await createAccount(t.db.sequelize);
    const before = (await get(apiKey)).body;
    const cases: Array<[string, string]> = [
      ['plain-text-secret', 'secret must start with whsec_'],
      ['whsec_not base64!', 'secret must be whsec_ followed by standard base64'],
      [`whsec_${Buffer.alloc(8).toString('base64')}`, 'secret must encode 24 to 64 random bytes (this one encodes 8)'],
    ];
    for (const [secret, error] of cases) {
      const res = await rotate(apiKey, { secret });
      expect(res.status, secret).to.equal(400);
      expect(res.body).to.deep.equal({ error });
    }
    expect((await get(apiKey)).body).to.deep.equal(before);
  });

  it("an account sees and changes only its own settings", async () => {
    const a = await createAccount(t.db.sequelize, 'free', 'A Co');
    const b = await createAccount(t.db.sequelize, 'free', 'B Co');
    await patch(a.apiKey, { url: 'https://a.example.com/hooks' });
    const aSettings = (await rotate(a.apiKey)).body;
    const bSettings = (await get(b.apiKey)).body;
    expect(bSettings.url).to.equal(null);
    expect(bSettings.secret).not.to.equal(aSettings.secret);
    expect(bSettings.previousSecret).to.equal(null);
    await patch(b.apiKey, { url: 'https://b.example.com/hooks' });
    expect((await get(a.apiKey)).body).to.deep.equal(aSettings);
  });

  it('needs an API key', async () => {
    const res = await request(url());
    expect(res.status).to.equal(401);
    const wrongSurface = await request(url(), { headers: { Authorization: 'Bearer nope' } });
    expect(wrongSurface.status).to.equal(401);
  });

  it('openapi lists every webhook endpoint with its summary and responses', () => {
    const paths = t.api.openapi.paths as Record<string, Record<string, { operationId: string; summary: string; responses: Record<string, unknown> }>>;
    const expected: Array<[string, string, string, string[]]> = [
      ['/v1/webhook-settings', 'get', 'getWebhookSettings', ['200', '401', '429']],
      ['/v1/webhook-settings', 'patch', 'updateWebhookSettings', ['200', '400']],
      ['/v1/webhook-settings/rotate-secret', 'post', 'rotateWebhookSecret', ['200', '400']],
      ['/v1/webhook-deliveries', 'get', 'listWebhookDeliveries', ['200', '400']],
      ['/v1/webhook-deliveries/{id}', 'get', 'getWebhookDelivery', ['200', '404']],
      ['/v1/webhook-deliveries/{id}/resend', 'post', 'resendWebhookDelivery', ['202', '404', '409']],
      ['/v1/webhooks/test', 'post', 'sendWebhookTestEvent', ['200', '400']],
    ];
    for (const [path, method, operationId, statuses] of expected) {
      const op = paths[path]?.[method];
      expect(op, `${method} ${path}`).to.not.equal(undefined);
      expect(op!.operationId).to.equal(operationId);
      expect(op!.summary.length, operationId).to.be.greaterThan(20);
      expect(Object.keys(op!.responses)).to.include.members(statuses);
    }
  });
});

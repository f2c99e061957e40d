import { expect } from 'chai';
import { createAccount, request, startTestApi, surfaceA, surfaceB, type JsonResponse, type TestApi } from '../support/api';
import { createTestDatabase, type TestDatabase } from '../support/database';

/**
 * Webhook URLs are refused when saved if their host is an address the egress policy refuses
 * (private, loopback, link-local, reserved, cloud metadata), in every spelling the URL parser
 * accepts, or a localhost name: the campaign's reporting.webhook_url (Surface A create), the global
 * URL (PATCH /v1/webhook-settings) and a test event's url. Loopback follows ALLOW_LOOPBACK_EGRESS as
 * delivery does: two APIs on one database, one with it off (as in production), one with it on (as
 * the test suite runs).
 */
describe('webhook URLs on private, loopback, link-local, reserved or metadata addresses are refused when saved', function () {
  this.timeout(30_000);
  let db: TestDatabase;
  /** ALLOW_LOOPBACK_EGRESS=false, as in production. */
  let strict: TestApi;
  /** ALLOW_LOOPBACK_EGRESS=true, as the test suite and dev runs have it. */
  let loopbackAllowed: TestApi;

  before(async () => {
    db = await createTestDatabase();
    strict = await startTestApi(db.sequelize, { env: { ALLOW_LOOPBACK_EGRESS: 'false' } });
    loopbackAllowed = await startTestApi(db.sequelize);
  });
  after(async () => {
    await strict?.close();
    await loopbackAllowed?.close();
    await db?.drop();
  });

  const json = (method: string, headers: Record<string, string>, body: unknown): RequestInit => ({
    method,
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const patchGlobalUrl = (api: TestApi, key: string, url: string): Promise<JsonResponse<{ url?: string | null; error?: string }>> =>
    request(`${api.baseUrl}/v1/webhook-settings`, json('PATCH', surfaceB(key), { url }));
  const globalUrl = async (api: TestApi, key: string): Promise<string | null | undefined> =>
    (await request<{ url: string | null }>(`${api.baseUrl}/v1/webhook-settings`, { headers: surfaceB(key) })).body.url;
  const createCampaign = (api: TestApi, key: string, webhookUrl: string): Promise<JsonResponse<{ error?: string }>> =>
    request(`${api.baseUrl}/campaigns`, json('POST', surfaceA(key), { mcp: 'sales_outreach', target_url: 'https://acme.example', reporting: { webhook_url: webhookUrl } }));
  const testEvent = (api: TestApi, key: string, url: string): Promise<JsonResponse<{ error?: string }>> =>
    request(`${api.baseUrl}/v1/webhooks/test`, json('POST', surfaceB(key), { url }));

  /** A 400 whose body is exactly {"error"} with `reason` in it. */
  const expectRefused = (res: JsonResponse<{ error?: string }>, what: string, reason: string): void => {
    expect(res.status, `${what}: ${res.text}`).to.equal(400);
    expect(Object.keys(res.body), what).to.deep.equal(['error']);
    expect(res.body.error, what).to.equal(reason);
  };

  /** A URL, and why it is refused (the host as the URL parser normalised it, and its range). */
  const LOOPBACK: ReadonlyArray<readonly [string, string]> = [
    ['https://127.0.0.1/hooks', '127.0.0.1 is a loopback address'],
    ['http://2130706433/hooks', '127.0.0.1 is a loopback address'], // decimal
    ['https://0177.0.0.1/hooks', '127.0.0.1 is a loopback address'], // octal
    ['https://0x7f.1/hooks', '127.0.0.1 is a loopback address'], // hex and short form
    ['https://0x7f000001/hooks', '127.0.0.1 is a loopback address'], // hex, whole
    ['https://127.1/hooks', '127.0.0.1 is a loopback address'], // short form
    ['https://127.0.0.1./hooks', '127.0.0.1 is a loopback address'], // trailing dot
    ['https://127.8.9.10:8443/hooks', '127.8.9.10 is a loopback address'],
    ['https://[::ffff:127.0.0.1]/hooks', '::ffff:7f00:1 is 127.0.0.1, a loopback address'], // IPv4-mapped IPv6, dotted
    ['https://[::ffff:7f00:1]/hooks', '::ffff:7f00:1 is 127.0.0.1, a loopback address'], // IPv4-mapped IPv6, hex
    ['https://[::1]/hooks', '::1 is a loopback address'],
    ['https://localhost/hooks', 'localhost is a loopback name (it always means this machine)'],
    ['https://LOCALHOST./hooks', 'localhost. is a loopback name (it always means this machine)'],
    ['https://hooks.localhost/in', 'hooks.localhost is a loopback name (it always means this machine)'],
  ];
  /** Refused whatever ALLOW_LOOPBACK_EGRESS says. */
  const NEVER: ReadonlyArray<readonly [string, string]> = [
    ['https://10.0.0.1/hooks', '10.0.0.1 is a private address (RFC 1918)'],
    ['https://172.16.5.4/hooks', '172.16.5.4 is a private address (RFC 1918)'],
    ['https://0300.0250.1.1/hooks', '192.168.1.1 is a private address (RFC 1918)'], // octal
    ['https://3232235777/hooks', '192.168.1.1 is a private address (RFC 1918)'], // decimal
    ['https://169.254.169.254/latest/meta-data/', '169.254.169.254 is a cloud metadata address (link-local)'],
    ['https://0xa9fea9fe/latest/meta-data/', '169.254.169.254 is a cloud metadata address (link-local)'], // hex
    ['https://[::ffff:169.254.169.254]/latest/meta-data/', '::ffff:a9fe:a9fe is 169.254.169.254, a cloud metadata address (link-local)'],
    ['https://[fd00:ec2::254]/latest/meta-data/', 'fd00:ec2::254 is a cloud metadata address (unique local)'],
    ['https://169.254.1.1/hooks', '169.254.1.1 is a link-local address'],
    ['https://[fe80::1]/hooks', 'fe80::1 is a link-local address'],
    ['https://[fc00::5]/hooks', 'fc00::5 is a unique local address (fc00::/7)'],
    ['https://100.64.0.1/hooks', '100.64.0.1 is a carrier-grade NAT address (100.64.0.0/10)'],
    ['https://0.0.0.0/hooks', '0.0.0.0 is an unspecified address'],
    ['https://0/hooks', '0.0.0.0 is an unspecified address'],
    ['https://[::]/hooks', ':: is an unspecified address'],
    ['https://192.0.2.10/hooks', '192.0.2.10 is a reserved address'],
    ['https://240.0.0.1/hooks', '240.0.0.1 is a reserved address'],
    ['https://255.255.255.255/hooks', '255.255.255.255 is the broadcast address'],
    ['https://224.0.0.1/hooks', '224.0.0.1 is a multicast address'],
    ['https://[::127.0.0.1]/hooks', '::7f00:1 is not a global unicast IPv6 address'], // IPv4-compatible
    ['https://[64:ff9b::a00:1]/hooks', '64:ff9b::a00:1 is a NAT64 address'],
  ];

  describe('with loopback egress off (production)', () => {
    it('PATCH /v1/webhook-settings refuses each spelling with a 400 naming the address and its range, and keeps the URL it had', async () => {
      const { apiKey } = await createAccount(db.sequelize);
      const kept = await patchGlobalUrl(strict, apiKey, 'https://hooks.example.com/in');
      expect(kept.status, kept.text).to.equal(200);
      for (const [url, reason] of [...LOOPBACK, ...NEVER]) {
        expectRefused(await patchGlobalUrl(strict, apiKey, url), url, `url must point to a public address: ${reason}`);
      }
      expect(await globalUrl(strict, apiKey)).to.equal('https://hooks.example.com/in');
    });

    it('POST /campaigns refuses reporting.webhook_url on such an address with a 400 naming it (before anything is stored)', async () => {
      const { apiKey } = await createAccount(db.sequelize);
      for (const [url, reason] of [...LOOPBACK, ...NEVER]) {
        expectRefused(await createCampaign(strict, apiKey, url), url, `reporting.webhook_url must point to a public address: ${reason}`);
      }
      const list = await request<{ campaigns: unknown[] }>(`${strict.baseUrl}/campaigns`, { headers: surfaceA(apiKey) });
      expect(list.status, list.text).to.equal(200);
      expect(list.body.campaigns).to.deep.equal([]);
    });

    it('a test event is refused the same way, and nothing is posted or logged', async () => {
      const { apiKey } = await createAccount(db.sequelize);
      for (const [url, reason] of [['http://0177.0.0.1:9/hooks', '127.0.0.1 is a loopback address'], ...NEVER.slice(4, 8)] as const) {
        expectRefused(await testEvent(strict, apiKey, url), url, `url must point to a public address: ${reason}`);
      }
      const log = await request<{ total: number }>(`${strict.baseUrl}/v1/webhook-deliveries`, { headers: surfaceB(apiKey) });
      expect(log.body.total).to.equal(0);
    });

    it('names and public addresses pass: a name is judged by its addresses when an attempt connects', async () => {
      const { apiKey } = await createAccount(db.sequelize);
      for (const url of ['https://hooks.example.com/in', 'https://127.0.0.1.nip.io/in', 'https://93.184.216.34:8443/in', 'https://[2606:4700:4700::1111]/in', 'https://localhost.example.com/in']) {
        const res = await patchGlobalUrl(strict, apiKey, url);
        expect(res.status, `${url}: ${res.text}`).to.equal(200);
        expect(res.body.url).to.equal(new URL(url).href);
      }
      // Past the URL check a campaign create goes on to Temporal, which this API cannot reach: a 503, not a 400.
      const created = await createCampaign(strict, apiKey, 'https://hooks.example.com/in');
      expect(created.status, created.text).to.equal(503);
    });
  });

  describe('with loopback egress on (dev and tests): loopback is accepted exactly as delivery accepts it', () => {
    it('every spelling of a loopback address and the localhost names are accepted, plain http included, stored normalised', async () => {
      const { apiKey } = await createAccount(db.sequelize);
      const stored: Array<[string, string]> = [
        ['http://127.0.0.1:9/hooks', 'http://127.0.0.1:9/hooks'],
        ['http://2130706433:9/hooks', 'http://127.0.0.1:9/hooks'],
        ['http://0x7f.1:9/hooks', 'http://127.0.0.1:9/hooks'],
        ['http://[::ffff:127.0.0.1]:9/hooks', 'http://[::ffff:7f00:1]:9/hooks'],
        ['http://[::1]:9/hooks', 'http://[::1]:9/hooks'],
        ['http://localhost:9/hooks', 'http://localhost:9/hooks'],
        ['https://localhost/hooks', 'https://localhost/hooks'],
      ];
      for (const [url, normalised] of stored) {
        const res = await patchGlobalUrl(loopbackAllowed, apiKey, url);
        expect(res.status, `${url}: ${res.text}`).to.equal(200);
        expect(res.body.url).to.equal(normalised);
      }
    });

    it('private, link-local, metadata and reserved addresses stay refused', async () => {
      const { apiKey } = await createAccount(db.sequelize);
      for (const [url, reason] of NEVER) {
        expectRefused(await patchGlobalUrl(loopbackAllowed, apiKey, url), url, `url must point to a public address: ${reason}`);
        expectRefused(await createCampaign(loopbackAllowed, apiKey, url), url, `reporting.webhook_url must point to a public address: ${reason}`);
      }
      // Plain http is for loopback only.
      expectRefused(await patchGlobalUrl(loopbackAllowed, apiKey, 'http://hooks.example.com/in'), 'http to a name', 'url must be an https URL');
    });
  });
});

import { expect } from 'chai';
import { freePort } from '../../src/net/ports';
import { createAccount, request, surfaceA, surfaceB, type JsonResponse } from '../support/api';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { startRole, stopRole, until, type RoleProcess } from '../support/role-process';

interface ApiProcess {
  readonly baseUrl: string;
}

/**
 * `start:api` as its own process on the shared database, with the limits of a real deployment (the
 * defaults). The process is recorded in `started` before it is waited for, so a start that times
 * out is still stopped by the suite.
 */
async function startApiProcess(db: TestDatabase, started: RoleProcess[]): Promise<ApiProcess> {
  const port = await freePort();
  const role = startRole('api', {
    ...process.env,
    DATABASE_URL: db.url,
    TEMPORAL_ADDRESS: '127.0.0.1:1', // never used by the routes of this test
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_FREE_PER_MINUTE: '',
    RATE_LIMIT_PRO_PER_MINUTE: '',
    RATE_LIMIT_B_PER_MINUTE: '',
  });
  started.push(role);
  const baseUrl = `http://127.0.0.1:${port}`;
  // /readyz would wait for Temporal, which these routes never use.
  await until('api listening', async () => ((await request(`${baseUrl}/healthz`)).status === 200 ? true : undefined), 90_000);
  return { baseUrl };
}

const header = (r: JsonResponse, name: string): number => Number(r.headers.get(name));

/**
 * Sends `count` requests, `concurrency` at a time, each to the process `pick(i)` chooses: the
 * limiter must keep one exact count per account however the requests are spread and batched.
 */
async function burst(count: number, concurrency: number, send: (i: number) => Promise<JsonResponse>): Promise<JsonResponse[]> {
  const out: JsonResponse[] = [];
  for (let start = 0; start < count; start += concurrency) {
    const n = Math.min(concurrency, count - start);
    out.push(...(await Promise.all(Array.from({ length: n }, (_, k) => send(start + k)))));
  }
  return out;
}

describe('rate limits per account, counted in PostgreSQL across API processes', function () {
  this.timeout(180_000);
  let db: TestDatabase;
  let one: ApiProcess;
  let two: ApiProcess;
  const started: RoleProcess[] = [];
  const processes = (): ApiProcess[] => [one, two];

  before(async () => {
    db = await createTestDatabase();
    [one, two] = await Promise.all([startApiProcess(db, started), startApiProcess(db, started)]);
  });
  after(async () => {
    await Promise.all(started.map((role) => stopRole(role.child)));
    await db?.drop();
  });

  it('Free on Surface B: 100 requests a minute pass across both processes, each told its exact place; the 101st is a 429 on either', async () => {
    const { apiKey } = await createAccount(db.sequelize, 'free');
    const get = (i: number) => request(`${processes()[i % 2]!.baseUrl}/v1/me`, { headers: surfaceB(apiKey) });
    const passed = await burst(100, 10, get);
    for (const r of passed) {
      expect(r.status, r.text).to.equal(200);
      expect(header(r, 'RateLimit-Limit')).to.equal(100);
      expect(header(r, 'RateLimit-Reset')).to.be.within(1, 60);
    }
    // One shared count: the remaining figures are exactly 99..0, each once, whichever process answered.
    const remaining = passed.map((r) => header(r, 'RateLimit-Remaining')).sort((a, b) => a - b);
    expect(remaining).to.deep.equal(Array.from({ length: 100 }, (_, i) => i));

    for (const p of processes()) {
      const refused = await request(`${p.baseUrl}/v1/me`, { headers: surfaceB(apiKey) });
      expect(refused.status).to.equal(429);
      expect(refused.body).to.deep.equal({ error: 'Rate limit exceeded' });
      expect(refused.headers.get('content-type')).to.match(/^application\/json/);
      expect(header(refused, 'Retry-After')).to.be.within(1, 60);
      expect(header(refused, 'RateLimit-Limit')).to.equal(100);
      expect(header(refused, 'RateLimit-Remaining')).to.equal(0);
      expect(header(refused, 'RateLimit-Reset')).to.equal(header(refused, 'Retry-After'));
    }
  });

  it('a burst far past the limit lets exactly 100 through, concurrently on both processes', async () => {
    const { apiKey } = await createAccount(db.sequelize, 'free');
    const results = await burst(160, 40, (i) => request(`${processes()[i % 2]!.baseUrl}/v1/me`, { headers: surfaceB(apiKey) }));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).to.have.length(100);
    expect(statuses.filter((s) => s === 429)).to.have.length(60);
    for (const r of results.filter((x) => x.status === 429)) expect(header(r, 'Retry-After')).to.be.within(1, 60);
  });

  it('Surface A counts apart from Surface B: Free gets its own 100 on A', async () => {
    const { apiKey } = await createAccount(db.sequelize, 'free');
    await burst(100, 10, (i) => request(`${processes()[i % 2]!.baseUrl}/v1/me`, { headers: surfaceB(apiKey) }));
    expect((await request(`${one.baseUrl}/v1/me`, { headers: surfaceB(apiKey) })).status).to.equal(429);
    const onA = await burst(100, 10, (i) => request(`${processes()[i % 2]!.baseUrl}/campaigns`, { headers: surfaceA(apiKey) }));
    expect(onA.map((r) => r.status)).to.deep.equal(Array(100).fill(200));
    expect(onA.map((r) => header(r, 'RateLimit-Limit'))).to.deep.equal(Array(100).fill(100));
    const refused = await request(`${two.baseUrl}/campaigns`, { headers: surfaceA(apiKey) });
    expect(refused.status).to.equal(429);
    expect(refused.body).to.deep.equal({ error: 'Rate limit exceeded' });
  });

  it('Pro gets 1000 a minute on Surface A (the 1001st is a 429) and 100 on Surface B', async () => {
    const { apiKey } = await createAccount(db.sequelize, 'pro');
    const results = await burst(1000, 25, (i) => request(`${processes()[i % 2]!.baseUrl}/campaigns?per_page=1`, { headers: surfaceA(apiKey) }));
    expect(results.filter((r) => r.status === 200)).to.have.length(1000);
    expect(results.map((r) => header(r, 'RateLimit-Remaining')).sort((a, b) => a - b)).to.deep.equal(Array.from({ length: 1000 }, (_, i) => i));
    expect(header(results[0]!, 'RateLimit-Limit')).to.equal(1000);
    const refused = await request(`${one.baseUrl}/campaigns`, { headers: surfaceA(apiKey) });
    expect(refused.status).to.equal(429);
    expect(header(refused, 'Retry-After')).to.be.within(1, 60);

    const b = await request(`${two.baseUrl}/v1/me`, { headers: surfaceB(apiKey) });
    expect(b.status).to.equal(200);
    expect(header(b, 'RateLimit-Limit')).to.equal(100);
    expect(header(b, 'RateLimit-Remaining')).to.equal(99);
  });

  it('every counted response carries the headers, errors included; one account at its limit does not hold back another', async () => {
    const tired = await createAccount(db.sequelize, 'free');
    const fresh = await createAccount(db.sequelize, 'free');
    const notFound = await request(`${one.baseUrl}/campaigns/cmp_doesnotexist0000`, { headers: surfaceA(fresh.apiKey) });
    expect(notFound.status).to.equal(404);
    expect(header(notFound, 'RateLimit-Remaining')).to.equal(99);
    const invalid = await request(`${two.baseUrl}/campaigns?per_page=100000`, { headers: surfaceA(fresh.apiKey) });
    expect(invalid.status).to.equal(400);
    expect(header(invalid, 'RateLimit-Remaining')).to.equal(98);

    await burst(101, 20, (i) => request(`${processes()[i % 2]!.baseUrl}/v1/me`, { headers: surfaceB(tired.apiKey) }));
    const other = await request(`${one.baseUrl}/v1/me`, { headers: surfaceB(fresh.apiKey) });
    expect(other.status).to.equal(200);
    expect(header(other, 'RateLimit-Remaining')).to.equal(99);
  });

  it('health, tracking and inbound endpoints are not counted and carry no rate-limit headers', async () => {
    const { apiKey } = await createAccount(db.sequelize, 'free');
    await burst(101, 20, (i) => request(`${processes()[i % 2]!.baseUrl}/v1/me`, { headers: surfaceB(apiKey) }));
    await burst(101, 20, (i) => request(`${processes()[i % 2]!.baseUrl}/campaigns`, { headers: surfaceA(apiKey) }));
    for (const path of ['/healthz', '/readyz', '/t/o/not-a-token.gif', '/inbound/mime']) {
      const init: RequestInit = path === '/inbound/mime' ? { method: 'POST', headers: { 'content-type': 'message/rfc822' }, body: 'x' } : {};
      const r = await fetch(`${one.baseUrl}${path}`, init);
      await r.arrayBuffer();
      expect(r.status, path).to.not.equal(429);
      expect(r.headers.get('RateLimit-Limit'), path).to.equal(null);
    }
    // An unauthenticated request is refused for its key, not counted against anyone.
    const anonymous = await request(`${two.baseUrl}/v1/me`);
    expect(anonymous.status).to.equal(401);
    expect(anonymous.headers.get('RateLimit-Limit')).to.equal(null);
  });

  it('/openapi.json documents the headers on counted routes, Retry-After on their 429, and nothing on public ones', async () => {
    type Op = { responses: Record<string, { headers?: Record<string, { required?: boolean }> }> };
    const doc = (await request<{ paths: Record<string, Record<string, Op>> }>(`${one.baseUrl}/openapi.json`)).body;
    const names = (op: Op, status: string) => Object.keys(op.responses[status]?.headers ?? {}).sort();
    const getCampaign = doc.paths['/campaigns/{id}']!.get!;
    expect(names(getCampaign, '200')).to.deep.equal(['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset']);
    expect(names(getCampaign, '404')).to.deep.equal(['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset']);
    expect(names(getCampaign, '429')).to.deep.equal(['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'Retry-After']);
    expect(names(getCampaign, '401')).to.deep.equal([]);
    expect(names(doc.paths['/v1/me']!.get!, '200')).to.include('RateLimit-Remaining');
    expect(names(doc.paths['/healthz']!.get!, '200')).to.deep.equal([]);
  });
});

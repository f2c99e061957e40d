import net from 'node:net';
import { Client, Connection } from '@temporalio/client';
import { expect } from 'chai';
import pg from 'pg';
import { QueryTypes, type Sequelize } from 'sequelize';
import { beatKey, claimKey, completeKey, releaseKey } from '../../src/api/http/idempotency-repository';
import { createSequelize } from '../../src/db/sequelize';
import { campaignWorkflowId } from '../../workflows/campaign/contract';
import { createAccount, request, startTestApi, surfaceA, surfaceB, type JsonResponse, type TestApi } from '../support/api';
import { useCampaignStack } from '../support/campaign-stack';

/**
 * `Idempotency-Key` on the create routes (docs/decisions.md, "Idempotent creates"), on the real
 * stack: PostgreSQL, a Temporal dev server and worker, and a second API app on the same database
 * where two processes race. Campaigns name a brand that does not resolve, so they stay starting.
 */

type Body = Record<string, unknown> & { error?: string };
type Headers = Record<string, string>;

const KEY = 'Idempotency-Key';
const REPLAYED = 'idempotent-replayed';

describe('Idempotency-Key on creates, imports, lists and enrolment (PostgreSQL, Temporal dev server)', function () {
  this.timeout(60_000);
  const t = useCampaignStack();
  let client: Client;
  /** A second API process on the same database (its own Koa app, HTTP server and connection pool). */
  let second: { api: TestApi; sequelize: Sequelize };

  before(async () => {
    client = new Client({ connection: await Connection.connect({ address: t.temporal.address }) });
    const sequelize = createSequelize({ url: t.db.url, poolMax: 5 });
    const api = await startTestApi(sequelize, { temporalAddress: t.temporal.address, env: { ...t.env, TEMPORAL_TASK_QUEUE: `idempotency-unused-queue` } });
    second = { api, sequelize };
  });
  after(async () => {
    await second?.api.close();
    await second?.sequelize.close();
    await client?.connection.close();
  });

  const post = (baseUrl: string, headers: Headers, path: string, body?: unknown): Promise<JsonResponse<Body>> =>
    request<Body>(`${baseUrl}${path}`, {
      method: 'POST',
      headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const withKey = (headers: Headers, key: string): Headers => ({ ...headers, [KEY]: key });
  const campaignA = (name: string) => ({ mcp: 'sales_outreach', target_url: 'https://acme-analytics.invalid', name });
  const campaignB = (name: string) => ({ name, brandUrl: 'https://acme-analytics.invalid' });

  async function count(sql: string, ...bind: unknown[]): Promise<number> {
    const [row] = await t.db.sequelize.query<{ n: number }>(sql, { bind, type: QueryTypes.SELECT });
    return row!.n;
  }
  const campaigns = (accountId: string) => count('SELECT count(*)::int AS n FROM campaigns WHERE account_id = $1', accountId);
  const keyRows = (accountId: string) => count('SELECT count(*)::int AS n FROM idempotency_keys WHERE account_id = $1', accountId);

  /** Polls until the key's claim is stored in flight (the request holding it has started its work). */
  async function claimed(accountId: string, key: string): Promise<void> {
    const deadline = Date.now() + 10_000;
    while ((await count(`SELECT count(*)::int AS n FROM idempotency_keys WHERE account_id = $1 AND key = $2 AND state = 'in_flight'`, accountId, key)) === 0) {
      if (Date.now() > deadline) throw new Error('the claim never appeared');
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  /** Holds an EXCLUSIVE lock on campaigns from the test's own connection: a create blocks at its INSERT until `release`. */
  async function lockCampaigns(): Promise<{ release: () => Promise<void> }> {
    const conn = new pg.Client({ connectionString: t.db.url });
    await conn.connect();
    await conn.query('BEGIN');
    await conn.query('LOCK TABLE campaigns IN EXCLUSIVE MODE');
    return {
      release: async () => {
        await conn.query('ROLLBACK');
        await conn.end();
      },
    };
  }

  it('POST /campaigns twice with one key: 201 both times with the same campaign, the second replayed; one row, one workflow', async () => {
    const { apiKey, accountId } = await createAccount(t.db.sequelize);
    const headers = withKey(surfaceA(apiKey), 'create-1');
    const first = await post(t.api.baseUrl, headers, '/campaigns', campaignA('Spring'));
    expect(first.status, first.text).to.equal(201);
    expect(first.headers.get(REPLAYED)).to.equal(null);
    const again = await post(t.api.baseUrl, headers, '/campaigns', campaignA('Spring'));
    expect(again.status, again.text).to.equal(201);
    expect(again.headers.get(REPLAYED)).to.equal('true');
    expect(again.text).to.equal(first.text);
    expect(again.headers.get('location')).to.equal(`/campaigns/${first.body.id as string}`);
    expect(again.headers.get('content-type')).to.match(/^application\/json/);

    expect(await campaigns(accountId)).to.equal(1);
    const list = await request<{ campaigns: Array<{ id: string }> }>(`${t.api.baseUrl}/campaigns`, { headers: surfaceA(apiKey) });
    expect(list.body.campaigns.map((c) => c.id)).to.deep.equal([first.body.id]);
    const description = await client.workflow.getHandle(campaignWorkflowId(first.body.id as string)).describe();
    expect(description.status.name).to.equal('RUNNING');
    // Without the key, the same body is a new campaign.
    expect((await post(t.api.baseUrl, surfaceA(apiKey), '/campaigns', campaignA('Spring'))).status).to.equal(201);
    expect(await campaigns(accountId)).to.equal(2);
  });

  it('POST /v1/campaigns: the same on Surface B; the same key with another body is a 422 naming the header, and nothing more is created', async () => {
    const { apiKey, accountId } = await createAccount(t.db.sequelize);
    const headers = withKey(surfaceB(apiKey), 'b-create');
    const first = await post(t.api.baseUrl, headers, '/v1/campaigns', campaignB('Autumn'));
    expect(first.status, first.text).to.equal(201);
    const again = await post(t.api.baseUrl, headers, '/v1/campaigns', campaignB('Autumn'));
    expect(again.status).to.equal(201);
    expect(again.headers.get(REPLAYED)).to.equal('true');
    expect(again.body.id).to.equal(first.body.id);
    expect(again.headers.get('location')).to.equal(`/v1/campaigns/${first.body.id as string}`);

    const other = await post(t.api.baseUrl, headers, '/v1/campaigns', campaignB('Winter'));
    expect(other.status).to.equal(422);
    expect(other.body.error).to.equal(
      'Idempotency-Key "b-create" was used with a different request (method, path, query or body) in the last 24 hours; use a new key for a new request',
    );
    // Another path with the key is another request too.
    const elsewhere = await post(t.api.baseUrl, headers, '/v1/lead-lists', { name: 'Autumn' });
    expect(elsewhere.status).to.equal(422);
    expect(await campaigns(accountId)).to.equal(1);
    expect(await count('SELECT count(*)::int AS n FROM lead_lists WHERE account_id = $1', accountId)).to.equal(0);
  });

  it('a request whose key is still in flight is a 409; once the first has answered, the key replays it', async () => {
    const { apiKey, accountId } = await createAccount(t.db.sequelize);
    const headers = withKey(surfaceA(apiKey), 'held');
    const lock = await lockCampaigns();
    let first: Promise<JsonResponse<Body>>;
    try {
      first = post(t.api.baseUrl, headers, '/campaigns', campaignA('Held'));
      await claimed(accountId, 'held');
      const during = await post(t.api.baseUrl, headers, '/campaigns', campaignA('Held'));
      expect(during.status).to.equal(409);
      expect(during.body.error).to.equal('A request with this Idempotency-Key is still in progress; retry once it has answered');
      expect(during.headers.get('retry-after')).to.equal('1');
      // Still the first request's key: another body is refused as such.
      expect((await post(t.api.baseUrl, headers, '/campaigns', campaignA('Other'))).status).to.equal(422);
    } finally {
      await lock.release();
    }
    const answered = await first;
    expect(answered.status, answered.text).to.equal(201);
    const after = await post(t.api.baseUrl, headers, '/campaigns', campaignA('Held'));
    expect(after.status).to.equal(201);
    expect(after.headers.get(REPLAYED)).to.equal('true');
    expect(after.body.id).to.equal(answered.body.id);
    expect(await campaigns(accountId)).to.equal(1);
  });

  it('two API processes racing with one key start exactly one campaign', async () => {
    const { apiKey, accountId } = await createAccount(t.db.sequelize);
    const apps = [t.api.baseUrl, second.api.baseUrl];

    // Both arrive while neither can finish: one holds the key, the other is told it is in flight.
    const headers = withKey(surfaceA(apiKey), 'race-held');
    const lock = await lockCampaigns();
    let racing: Array<Promise<JsonResponse<Body>>>;
    let refused: JsonResponse<Body>;
    try {
      racing = apps.map((app) => post(app, headers, '/campaigns', campaignA('Race')));
      await claimed(accountId, 'race-held');
      refused = await Promise.race(racing);
    } finally {
      await lock.release();
    }
    const held = await Promise.all(racing);
    expect(refused.status).to.equal(409);
    expect(held.map((r) => r.status).sort()).to.deep.equal([201, 409]);
    expect(await campaigns(accountId)).to.equal(1);

    // A burst of eight on both apps at once, unheld: one creates, the rest replay it or find it in flight.
    const burstHeaders = withKey(surfaceA(apiKey), 'race-burst');
    const burst = await Promise.all(Array.from({ length: 8 }, (_, i) => post(apps[i % 2]!, burstHeaders, '/campaigns', campaignA('Burst'))));
    const created = burst.filter((r) => r.status === 201);
    expect(burst.every((r) => r.status === 201 || r.status === 409), burst.map((r) => r.status).join(',')).to.equal(true);
    expect(created.filter((r) => r.headers.get(REPLAYED) === null)).to.have.length(1);
    expect(new Set(created.map((r) => r.body.id)).size).to.equal(1);
    const settled = await post(second.api.baseUrl, burstHeaders, '/campaigns', campaignA('Burst'));
    expect(settled.status).to.equal(201);
    expect(settled.body.id).to.equal(created[0]!.body.id);
    expect(await campaigns(accountId)).to.equal(2);
  });

  it('keys are per account: another account with the same key and body gets its own campaign', async () => {
    const one = await createAccount(t.db.sequelize);
    const two = await createAccount(t.db.sequelize);
    const a = await post(t.api.baseUrl, withKey(surfaceA(one.apiKey), 'shared-key'), '/campaigns', campaignA('Shared'));
    const b = await post(t.api.baseUrl, withKey(surfaceA(two.apiKey), 'shared-key'), '/campaigns', campaignA('Shared'));
    expect([a.status, b.status]).to.deep.equal([201, 201]);
    expect(b.headers.get(REPLAYED)).to.equal(null);
    expect(b.body.id).to.not.equal(a.body.id);
    expect([await campaigns(one.accountId), await campaigns(two.accountId)]).to.deep.equal([1, 1]);
  });

  it('a malformed key is a 400 naming Idempotency-Key, and nothing is created or claimed', async () => {
    const { apiKey, accountId } = await createAccount(t.db.sequelize);
    const message = 'Idempotency-Key must be 1 to 255 printable ASCII characters (space to ~), once';
    for (const key of ['k'.repeat(10_000), 'k'.repeat(256), '', 'tab\there']) {
      const res = await post(t.api.baseUrl, withKey(surfaceA(apiKey), key), '/campaigns', campaignA('Bad key'));
      expect(res.status, `${key.length} characters`).to.equal(400);
      expect(res.body).to.deep.equal({ error: message });
    }
    // Bytes fetch will not send, on a raw request: a non-ASCII byte reaches the app; control
    // characters and DEL are refused by Node's HTTP parser before it (a 400 without a body).
    const raw = (key: string) =>
      rawPost(`${t.api.baseUrl}/v1/lead-lists`, { 'x-api-key': apiKey, 'idempotency-key': key });
    const latin = await raw('caf\xe9');
    expect(latin.status).to.equal(400);
    expect(JSON.parse(latin.body)).to.deep.equal({ error: message });
    for (const key of ['a\x01b', 'del\x7f']) expect((await raw(key)).status, JSON.stringify(key)).to.equal(400);
    // 255 characters, every printable one among them, is a key.
    const longest = Array.from({ length: 255 }, (_, i) => String.fromCharCode(0x20 + (i % 95))).join('');
    expect((await post(t.api.baseUrl, withKey(surfaceB(apiKey), longest), '/v1/lead-lists', { name: 'Longest key' })).status).to.equal(201);
    expect(await campaigns(accountId)).to.equal(0);
    expect(await keyRows(accountId)).to.equal(1);
  });

  it('a 5xx keeps nothing: after a 503 (Temporal unreachable) the same key creates the campaign', async () => {
    const { apiKey, accountId } = await createAccount(t.db.sequelize);
    const down = await startTestApi(t.db.sequelize); // its Temporal address is a closed port
    try {
      const headers = withKey(surfaceB(apiKey), 'after-503');
      const failed = await post(down.baseUrl, headers, '/v1/campaigns', campaignB('Retry me'));
      expect(failed.status).to.equal(503);
      expect(await keyRows(accountId)).to.equal(0);
      const retried = await post(t.api.baseUrl, headers, '/v1/campaigns', campaignB('Retry me'));
      expect(retried.status, retried.text).to.equal(201);
      expect(retried.headers.get(REPLAYED)).to.equal(null);
      expect(await campaigns(accountId)).to.equal(1);
    } finally {
      await down.close();
    }
  });

  it('a 4xx is kept and replayed; a claim left by a dead process is taken over after 5 minutes', async () => {
    const { apiKey, accountId } = await createAccount(t.db.sequelize);
    const badHeaders = withKey(surfaceA(apiKey), 'bad-mcp');
    const bad = await post(t.api.baseUrl, badHeaders, '/campaigns', { mcp: 'cold_calling', target_url: 'https://acme-analytics.invalid' });
    expect(bad.status).to.equal(400);
    const badAgain = await post(t.api.baseUrl, badHeaders, '/campaigns', { mcp: 'cold_calling', target_url: 'https://acme-analytics.invalid' });
    expect(badAgain.status).to.equal(400);
    expect(badAgain.headers.get(REPLAYED)).to.equal('true');
    expect(badAgain.body).to.deep.equal(bad.body);

    // A process that died after its claim: the row stays in flight and its heartbeat stops.
    const insertClaim = (key: string, minutesAgo: number) =>
      t.db.sequelize.query(
        `INSERT INTO idempotency_keys (account_id, key, request_hash, method, path, state, claim_token, heartbeat_at, created_at)
         VALUES ($1, $2, 'dead', 'POST', '/campaigns', 'in_flight', 'dead-process', now() - make_interval(mins => $3), now() - make_interval(mins => $3))`,
        { bind: [accountId, key, minutesAgo] },
      );
    await insertClaim('orphan-recent', 2);
    // Hash aside: still someone's key for a while.
    expect((await post(t.api.baseUrl, withKey(surfaceA(apiKey), 'orphan-recent'), '/campaigns', campaignA('Orphan'))).status).to.equal(422);
    await insertClaim('orphan-old', 6);
    const takenOver = await post(t.api.baseUrl, withKey(surfaceA(apiKey), 'orphan-old'), '/campaigns', campaignA('Orphan'));
    expect(takenOver.status, takenOver.text).to.equal(201);
    expect(takenOver.headers.get(REPLAYED)).to.equal(null);
    expect(await campaigns(accountId)).to.equal(1);
  });

  it('a claim whose owner keeps beating is not taken over, however long its work runs', async () => {
    const { accountId } = await createAccount(t.db.sequelize);
    const req = { accountId, key: 'long-import', requestHash: 'h', method: 'POST', path: '/v1/leads/import' };
    const first = await claimKey(t.db.sequelize, req);
    expect(first.kind).to.equal('claimed');
    const token = (first as { token: string }).token;
    // Ten minutes of work: created long ago, but the owner's last beat was a minute ago.
    await t.db.sequelize.query(`UPDATE idempotency_keys SET created_at = now() - interval '10 minutes', heartbeat_at = now() - interval '6 minutes' WHERE account_id = $1`, { bind: [accountId] });
    await beatKey(t.db.sequelize, accountId, 'long-import', token);
    expect((await claimKey(t.db.sequelize, req)).kind).to.equal('in_flight');
    // Once the beats stop for 5 minutes, the claim is another request's.
    await t.db.sequelize.query(`UPDATE idempotency_keys SET heartbeat_at = now() - interval '6 minutes' WHERE account_id = $1`, { bind: [accountId] });
    const taken = await claimKey(t.db.sequelize, req);
    expect(taken.kind).to.equal('claimed');
    // The first owner, back from the dead, can neither complete nor release the new claim.
    await completeKey(t.db.sequelize, accountId, 'long-import', token, { status: 200, bodyText: '{}', headers: {} });
    await releaseKey(t.db.sequelize, accountId, 'long-import', token);
    expect((await claimKey(t.db.sequelize, req)).kind).to.equal('in_flight');
  });

  it('a key expires 24 hours after its first request: then the same request runs anew', async () => {
    const { apiKey, accountId } = await createAccount(t.db.sequelize);
    const headers = withKey(surfaceA(apiKey), 'daily');
    const first = await post(t.api.baseUrl, headers, '/campaigns', campaignA('Daily'));
    expect(first.status).to.equal(201);
    await t.db.sequelize.query(`UPDATE idempotency_keys SET created_at = now() - interval '23 hours 59 minutes' WHERE account_id = $1`, { bind: [accountId] });
    expect((await post(t.api.baseUrl, headers, '/campaigns', campaignA('Daily'))).headers.get(REPLAYED)).to.equal('true');
    await t.db.sequelize.query(`UPDATE idempotency_keys SET created_at = now() - interval '25 hours' WHERE account_id = $1`, { bind: [accountId] });
    const next = await post(t.api.baseUrl, headers, '/campaigns', campaignA('Daily'));
    expect(next.status).to.equal(201);
    expect(next.headers.get(REPLAYED)).to.equal(null);
    expect(next.body.id).to.not.equal(first.body.id);
    expect(await campaigns(accountId)).to.equal(2);
    // And the new answer is the one kept now.
    expect((await post(t.api.baseUrl, headers, '/campaigns', campaignA('Daily'))).body.id).to.equal(next.body.id);

    // Another account's expired key goes with the next claim of anyone's; its live one stays.
    const other = await createAccount(t.db.sequelize);
    for (const [key, hours] of [['old', 25], ['young', 1]] as const) {
      await t.db.sequelize.query(
        `INSERT INTO idempotency_keys (account_id, key, request_hash, method, path, state, claim_token, response_status, response_body, response_headers, created_at, completed_at)
         VALUES ($1, $2, 'h', 'POST', '/lead-lists', 'done', 't', 201, '{}', '{}', now() - make_interval(hours => $3), now() - make_interval(hours => $3))`,
        { bind: [other.accountId, key, hours] },
      );
    }
    expect((await post(t.api.baseUrl, withKey(surfaceA(apiKey), 'purge'), '/lead-lists', { name: 'Purge' })).status).to.equal(201);
    const left = await t.db.sequelize.query<{ key: string }>('SELECT key FROM idempotency_keys WHERE account_id = $1', { bind: [other.accountId], type: QueryTypes.SELECT });
    expect(left.map((r) => r.key)).to.deep.equal(['young']);
  });

  it('lead import: the same CSV with one key imports once and answers the first answer; another CSV with it is a 422 importing nothing', async () => {
    const { apiKey, accountId } = await createAccount(t.db.sequelize);
    const upload = (key: string, csv: string, query = '') =>
      request<Body>(`${t.api.baseUrl}/v1/leads/import${query}`, { method: 'POST', headers: { ...surfaceB(apiKey), 'content-type': 'text/csv', [KEY]: key }, body: csv });
    const csv = 'email,first_name\nada@acme-leads.invalid,Ada\nbob@acme-leads.invalid,Bob\n';
    const first = await upload('import-1', csv);
    expect(first.status, first.text).to.equal(200);
    expect(first.body).to.include({ imported: 2, duplicates: 0 });
    const again = await upload('import-1', csv);
    expect(again.status).to.equal(200);
    expect(again.headers.get(REPLAYED)).to.equal('true');
    // Run a second time it would say 0 imported, 2 duplicates.
    expect(again.text).to.equal(first.text);
    expect(await count('SELECT count(*)::int AS n FROM leads WHERE account_id = $1', accountId)).to.equal(2);

    const other = await upload('import-1', `${csv}cy@acme-leads.invalid,Cy\n`);
    expect(other.status).to.equal(422);
    expect(other.body.error).to.match(/^Idempotency-Key "import-1" was used with a different request/);
    // The query is part of the request.
    expect((await upload('import-1', csv, '?list_id=list_nope')).status).to.equal(422);
    expect(await count('SELECT count(*)::int AS n FROM leads WHERE account_id = $1', accountId)).to.equal(2);
  });

  it('lead lists on both surfaces: one list per key; the 409 of a name already taken is replayed as it was', async () => {
    const { apiKey, accountId } = await createAccount(t.db.sequelize);
    const a = withKey(surfaceA(apiKey), 'list-a');
    const first = await post(t.api.baseUrl, a, '/lead-lists', { name: 'Fintech CTOs' });
    expect(first.status, first.text).to.equal(201);
    const again = await post(second.api.baseUrl, a, '/lead-lists', { name: 'Fintech CTOs' });
    expect(again.status).to.equal(201);
    expect(again.headers.get(REPLAYED)).to.equal('true');
    expect(again.body).to.deep.equal(first.body);

    const b = withKey(surfaceB(apiKey), 'list-b');
    const taken = await post(t.api.baseUrl, b, '/v1/lead-lists', { name: 'Fintech CTOs' });
    expect(taken.status).to.equal(409);
    const takenAgain = await post(t.api.baseUrl, b, '/v1/lead-lists', { name: 'Fintech CTOs' });
    expect(takenAgain.status).to.equal(409);
    expect(takenAgain.headers.get(REPLAYED)).to.equal('true');
    expect(takenAgain.body).to.deep.equal(taken.body);
    expect(await count('SELECT count(*)::int AS n FROM lead_lists WHERE account_id = $1', accountId)).to.equal(1);
  });

  it('enrolment on both surfaces: the same call with one key enrols once and answers what the first call did', async () => {
    const { apiKey, accountId } = await createAccount(t.db.sequelize);
    const imported = await request(`${t.api.baseUrl}/v1/leads/import`, {
      method: 'POST',
      headers: { ...surfaceB(apiKey), 'content-type': 'text/csv' },
      body: 'email\nann@acme-enrol.invalid\nben@acme-enrol.invalid\n',
    });
    expect(imported.status, imported.text).to.equal(200);
    const created = await post(t.api.baseUrl, surfaceA(apiKey), '/campaigns', campaignA('Enrol'));
    const id = created.body.id as string;

    const a = withKey(surfaceA(apiKey), 'enrol-a');
    const first = await post(t.api.baseUrl, a, `/campaigns/${id}/leads`, { emails: ['ann@acme-enrol.invalid'] });
    expect(first.status, first.text).to.equal(200);
    expect(first.body).to.include({ added: 1, already_enrolled: 0 });
    const again = await post(t.api.baseUrl, a, `/campaigns/${id}/leads`, { emails: ['ann@acme-enrol.invalid'] });
    expect(again.headers.get(REPLAYED)).to.equal('true');
    expect(again.body).to.deep.equal(first.body);

    const b = withKey(surfaceB(apiKey), 'enrol-b');
    const firstB = await post(t.api.baseUrl, b, `/v1/campaigns/${id}/leads`, { emails: ['ann@acme-enrol.invalid', 'ben@acme-enrol.invalid'] });
    expect(firstB.body).to.include({ added: 1, alreadyEnrolled: 1 });
    const againB = await post(second.api.baseUrl, b, `/v1/campaigns/${id}/leads`, { emails: ['ann@acme-enrol.invalid', 'ben@acme-enrol.invalid'] });
    expect(againB.headers.get(REPLAYED)).to.equal('true');
    expect(againB.body).to.deep.equal(firstB.body);
    expect(await count('SELECT count(*)::int AS n FROM campaign_enrolments WHERE campaign_id = $1', id)).to.equal(2);
    expect(await keyRows(accountId)).to.equal(2);
  });

  it('the API document shows the header on the idempotent operations (and not on the others), with its 409 and 422', async () => {
    const doc = t.api.openapi as { paths: Record<string, Record<string, { operationId: string; parameters: Array<{ name: string; in: string }>; responses: Record<string, unknown> }>> };
    const withHeader = Object.values(doc.paths)
      .flatMap((ops) => Object.values(ops))
      .filter((op) => op.parameters.some((p) => p.name === KEY && p.in === 'header'));
    expect(withHeader.map((op) => op.operationId)).to.include.members([
      'createCampaign',
      'v1CreateCampaign',
      'importLeads',
      'createLeadList',
      'v1CreateLeadList',
      'enrolCampaignLeads',
      'v1EnrolCampaignLeads',
    ]);
    expect(withHeader.map((op) => op.operationId)).to.not.include.members(['getCampaign', 'pauseCampaign', 'listLeadLists']);
    for (const op of withHeader) expect(Object.keys(op.responses)).to.include.members(['400', '409', '422']);
  });
});

/** A POST written byte by byte on a socket (header bytes fetch and node:http refuse to send), read until the server closes it. */
function rawPost(url: string, headers: Record<string, string>, body = ''): Promise<{ status: number; body: string }> {
  const u = new URL(url);
  const head = [`POST ${u.pathname} HTTP/1.1`, `Host: ${u.host}`, 'Connection: close', `Content-Length: ${Buffer.byteLength(body)}`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(u.port), u.hostname, () => socket.write(Buffer.concat([Buffer.from(`${head.join('\r\n')}\r\n\r\n`, 'latin1'), Buffer.from(body)])));
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0), body: text.slice(text.indexOf('\r\n\r\n') + 4) });
    });
  });
}

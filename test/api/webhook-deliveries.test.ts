import { Client, Connection } from '@temporalio/client';
import { WorkflowNotFoundError } from '@temporalio/common';
import { expect } from 'chai';
import pg from 'pg';
import { QueryTypes, type Sequelize } from 'sequelize';
import { Webhook } from 'standardwebhooks';
import { retryWorkflowId } from '../../workflows/webhooks/contract';
import { newId } from '../../src/accounts/ids';
import { emitEvent } from '../../src/webhooks/outbox-repository';
import { markDeliveryFailed } from '../../src/webhooks/record-attempts';
import { serviceSignature } from '../../src/webhooks/signing';
import { createAccount, request, surfaceB, useTestApi, type JsonResponse } from '../support/api';
import { useCampaignStack } from '../support/campaign-stack';
import { seedCampaign } from '../support/campaign-seed';
import { WebhookReceiver, type Answer } from '../support/webhook-receiver';

interface Delivery {
  id: string;
  eventId: string;
  event: string;
  campaignId: string | null;
  url: string;
  status: string;
  cycle: number;
  attemptCount: number;
  nextAttemptAt: string | null;
  lastAttemptAt: string | null;
  lastStatusCode: number | null;
  lastError: string | null;
  deliveredAt: string | null;
  failedAt: string | null;
  createdAt: string;
  updatedAt: string;
}
interface Attempt {
  number: number;
  cycle: number;
  attemptedAt: string;
  durationMs: number;
  statusCode: number | null;
  error: string | null;
  succeeded: boolean;
}
interface Detail extends Delivery {
  attempts: Attempt[];
  payload: { id: string; event: string; created_at: string; campaign_id: string | null; data: Record<string, unknown> };
}
interface Page {
  deliveries: Delivery[];
  page: number;
  perPage: number;
  total: number;
}
interface TestResult {
  deliveryId: string;
  eventId: string;
  url: string;
  delivered: boolean;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
}
type Reply<T> = JsonResponse<T & { error?: string }>;

function client(baseUrl: () => string) {
  const call = <T>(key: string, method: string, path: string, body?: unknown): Promise<Reply<T>> =>
    request<T & { error?: string }>(`${baseUrl()}${path}`, {
      method,
      headers: { ...surfaceB(key), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  return {
    list: (key: string, query = '') => call<Page>(key, 'GET', `/v1/webhook-deliveries${query}`),
    detail: (key: string, id: string) => call<Detail>(key, 'GET', `/v1/webhook-deliveries/${encodeURIComponent(id)}`),
    resend: (key: string, id: string) => call<Delivery>(key, 'POST', `/v1/webhook-deliveries/${encodeURIComponent(id)}/resend`),
    test: (key: string, body: unknown = {}) => call<TestResult>(key, 'POST', '/v1/webhooks/test', body),
    setUrl: (key: string, url: string | null) => call<{ url: string | null; secret: string }>(key, 'PATCH', '/v1/webhook-settings', { url }),
    settings: (key: string) => call<{ url: string | null; secret: string }>(key, 'GET', '/v1/webhook-settings'),
    rotate: (key: string) => call<{ secret: string; previousSecret: string }>(key, 'POST', '/v1/webhook-settings/rotate-secret', {}),
  };
}

// --- seeding, as the dispatcher and the retry workflow leave their rows ---

interface SeedAttempt {
  readonly statusCode: number | null;
  readonly error: string | null;
  readonly cycle?: number;
}

interface SeedDelivery {
  readonly accountId: string;
  readonly campaignId: string | null;
  readonly event: string;
  readonly url: string;
  readonly status: 'pending' | 'retrying' | 'delivered' | 'failed';
  readonly createdAt: Date;
  readonly attempts: readonly SeedAttempt[];
  readonly data?: Record<string, unknown>;
}

/** An outbox event (already dispatched) and its delivery with attempts; returns the ids. */
async function seedDelivery(sequelize: Sequelize, s: SeedDelivery): Promise<{ id: string; eventId: string }> {
  const eventId = newId('evt');
  await sequelize.query(`INSERT INTO outbox (id, account_id, campaign_id, event, data, created_at, dispatched_at) VALUES ($1, $2, $3, $4, $5::jsonb, $6, $6)`, {
    bind: [eventId, s.accountId, s.campaignId, s.event, JSON.stringify(s.data ?? { seeded: true }), s.createdAt.toISOString()],
  });
  const id = `whd_${newId('evt').slice(4)}`;
  const last = s.attempts.at(-1);
  const at = (n: number) => new Date(s.createdAt.getTime() + n * 60_000).toISOString();
  await sequelize.query(
    `INSERT INTO webhook_deliveries (id, account_id, event_id, event, campaign_id, url, status, cycle, attempt_count, lease_until, retry_workflow_id,
                                     next_attempt_at, last_attempt_at, last_status_code, last_error, delivered_at, failed_at, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, 1, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $17)`,
    {
      bind: [
        id,
        s.accountId,
        eventId,
        s.event,
        s.campaignId,
        s.url,
        s.status,
        s.attempts.length,
        // pending: leased far ahead, so nothing takes it over during the test
        s.status === 'pending' ? new Date(Date.now() + 3_600_000).toISOString() : null,
        s.status === 'retrying' ? `webhook-delivery-${id}-1` : null,
        s.status === 'retrying' ? at(s.attempts.length + 60) : null,
        last === undefined ? null : at(s.attempts.length),
        last?.statusCode ?? null,
        last?.error ?? null,
        s.status === 'delivered' ? at(s.attempts.length) : null,
        s.status === 'failed' ? at(s.attempts.length) : null,
        s.createdAt.toISOString(),
      ],
    },
  );
  for (const [i, a] of s.attempts.entries()) {
    await sequelize.query(
      `INSERT INTO webhook_attempts (delivery_id, number, cycle, attempted_at, duration_ms, status_code, error, succeeded) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      { bind: [id, i + 1, a.cycle ?? 1, at(i + 1), 10 + i, a.statusCode, a.error, a.error === null] },
    );
  }
  return { id, eventId };
}

const FAIL: SeedAttempt = { statusCode: 500, error: 'HTTP 500' };
const OK: SeedAttempt = { statusCode: 200, error: null };

describe('webhook delivery log: /v1/webhook-deliveries (seeded rows)', () => {
  const t = useTestApi();
  const api = client(() => t.api.baseUrl);
  let key: string;
  let otherKey: string;
  let campaignA: string;
  let campaignB: string;
  /** Seeded ids, oldest first. */
  const ids: string[] = [];
  const byName: Record<string, { id: string; eventId: string }> = {};

  before(async () => {
    const account = await createAccount(t.db.sequelize, 'free', 'Log Co');
    const other = await createAccount(t.db.sequelize, 'free', 'Other Co');
    key = account.apiKey;
    otherKey = other.apiKey;
    campaignA = (await seedCampaign(account.accountId)).id;
    campaignB = (await seedCampaign(account.accountId)).id;
    const t0 = Date.parse('2026-11-01T10:00:00Z');
    const rows: Array<[string, Omit<SeedDelivery, 'accountId' | 'createdAt'>]> = [
      ['startedA', { campaignId: campaignA, event: 'campaign.started', url: 'https://a.example/hooks', status: 'delivered', attempts: [OK] }],
      ['replyA', { campaignId: campaignA, event: 'reply.received', url: 'https://a.example/hooks', status: 'failed', attempts: [FAIL, FAIL, FAIL, FAIL, FAIL, FAIL] }],
      ['replyB', { campaignId: campaignB, event: 'reply.received', url: 'https://b.example/hooks', status: 'retrying', attempts: [FAIL, { statusCode: null, error: 'timeout: No complete answer from b.example within 10000 ms' }] }],
      ['meetingB', { campaignId: campaignB, event: 'meeting.booked', url: 'https://b.example/hooks', status: 'delivered', attempts: [FAIL, OK] }],
      ['pausedB', { campaignId: campaignB, event: 'campaign.paused', url: 'https://global.example/all', status: 'pending', attempts: [] }],
      ['budgetA', { campaignId: campaignA, event: 'budget.warning', url: 'https://global.example/all', status: 'failed', attempts: [FAIL, FAIL, FAIL, FAIL, FAIL, FAIL], data: { budget_type: 'daily', spent_usd: 8, limit_usd: 10, percentage: 80 } }],
    ];
    for (const [i, [name, row]] of rows.entries()) {
      const seeded = await seedDelivery(t.db.sequelize, { ...row, accountId: account.accountId, createdAt: new Date(t0 + i * 3_600_000) });
      ids.push(seeded.id);
      byName[name] = seeded;
    }
    // The other account's delivery: never in this account's log.
    byName.foreign = await seedDelivery(t.db.sequelize, {
      accountId: other.accountId,
      campaignId: null,
      event: 'campaign.started',
      url: 'https://other.example/hooks',
      status: 'failed',
      createdAt: new Date(t0 + 10 * 3_600_000),
      attempts: [FAIL],
    });
  });

  it('lists the account\'s deliveries newest first, with the total', async () => {
    const res = await api.list(key);
    expect(res.status, res.text).to.equal(200);
    expect(res.body.total).to.equal(6);
    expect(res.body.page).to.equal(1);
    expect(res.body.perPage).to.equal(20);
    expect(res.body.deliveries.map((d) => d.id)).to.deep.equal([...ids].reverse());
    const replyB = res.body.deliveries.find((d) => d.id === byName.replyB!.id)!;
    expect(replyB).to.deep.include({
      event: 'reply.received',
      campaignId: campaignB,
      url: 'https://b.example/hooks',
      status: 'retrying',
      cycle: 1,
      attemptCount: 2,
      lastStatusCode: null,
      lastError: 'timeout: No complete answer from b.example within 10000 ms',
      deliveredAt: null,
      failedAt: null,
    });
    expect(replyB.nextAttemptAt).to.be.a('string');
    expect(res.text).not.to.include('other.example');
  });

  it('filters by event, campaign and status, alone and together', async () => {
    const idsOf = async (q: string) => {
      const res = await api.list(key, q);
      expect(res.status, res.text).to.equal(200);
      expect(res.body.total).to.equal(res.body.deliveries.length);
      return res.body.deliveries.map((d) => d.id);
    };
    expect(await idsOf('?event=reply.received')).to.deep.equal([byName.replyB!.id, byName.replyA!.id]);
    expect(await idsOf(`?campaignId=${campaignA}`)).to.deep.equal([byName.budgetA!.id, byName.replyA!.id, byName.startedA!.id]);
    expect(await idsOf('?status=failed')).to.deep.equal([byName.budgetA!.id, byName.replyA!.id]);
    expect(await idsOf('?status=pending')).to.deep.equal([byName.pausedB!.id]);
    expect(await idsOf(`?event=reply.received&campaignId=${campaignB}`)).to.deep.equal([byName.replyB!.id]);
    expect(await idsOf(`?status=delivered&campaignId=${campaignB}`)).to.deep.equal([byName.meetingB!.id]);
    expect(await idsOf('?event=webhook.test')).to.deep.equal([]);
    expect(await idsOf('?campaignId=cmp_unknown')).to.deep.equal([]);
  });

  it('pages: perPage items from page n, the same total on every page, an empty page past the end', async () => {
    const newestFirst = [...ids].reverse();
    const pages: string[][] = [];
    for (const page of [1, 2, 3, 4]) {
      const res = await api.list(key, `?perPage=2&page=${page}`);
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.include({ page, perPage: 2, total: 6 });
      pages.push(res.body.deliveries.map((d) => d.id));
    }
    expect(pages).to.deep.equal([newestFirst.slice(0, 2), newestFirst.slice(2, 4), newestFirst.slice(4, 6), []]);
    const last = await api.list(key, '?perPage=4&page=2&status=failed');
    expect(last.body).to.deep.include({ total: 2, deliveries: [] });
  });

  it('answers 400 for an unknown event or status, page below 1, perPage above 100 and unknown parameters', async () => {
    const cases: Array<[string, RegExp]> = [
      ['?event=campaign.exploded', /query\.event must be one of "campaign\.started", .*"webhook\.test"/],
      ['?status=lost', /query\.status must be one of "pending", "retrying", "delivered", "failed"/],
      ['?page=0', /query\.page must be >= 1/],
      ['?perPage=101', /query\.perPage must be <= 100/],
      ['?perPage=0', /query\.perPage must be >= 1/],
      ['?perPage=ten', /query\.perPage must be integer/],
      ['?per_page=10', /unknown field "per_page"/],
    ];
    for (const [q, error] of cases) {
      const res = await api.list(key, q);
      expect(res.status, q).to.equal(400);
      expect(res.body.error, q).to.match(error);
      expect(Object.keys(res.body)).to.deep.equal(['error']);
    }
  });

  it('shows one delivery with its attempts in order and the payload it posts', async () => {
    const res = await api.detail(key, byName.meetingB!.id);
    expect(res.status, res.text).to.equal(200);
    expect(res.body).to.deep.include({ id: byName.meetingB!.id, eventId: byName.meetingB!.eventId, status: 'delivered', attemptCount: 2, lastStatusCode: 200 });
    expect(res.body.attempts.map(({ attemptedAt: _at, ...a }) => a)).to.deep.equal([
      { number: 1, cycle: 1, durationMs: 10, statusCode: 500, error: 'HTTP 500', succeeded: false },
      { number: 2, cycle: 1, durationMs: 11, statusCode: 200, error: null, succeeded: true },
    ]);
    expect(Date.parse(res.body.attempts[1]!.attemptedAt)).to.be.greaterThan(Date.parse(res.body.attempts[0]!.attemptedAt));

    const budget = await api.detail(key, byName.budgetA!.id);
    expect(budget.body.payload).to.deep.equal({
      id: byName.budgetA!.eventId,
      event: 'budget.warning',
      created_at: '2026-11-01T15:00:00.000Z',
      campaign_id: campaignA,
      data: { budget_type: 'daily', spent_usd: 8, limit_usd: 10, percentage: 80 },
    });
    expect(budget.body.attempts).to.have.length(6);
    expect(budget.body.failedAt).to.be.a('string');
  });

  it("another account's delivery, or an unknown one, is not found", async () => {
    for (const [k, id] of [
      [key, byName.foreign!.id],
      [otherKey, byName.replyA!.id],
      [key, 'whd_0000000000000000'],
    ] as const) {
      const detail = await api.detail(k, id);
      expect(detail.status).to.equal(404);
      expect(detail.body).to.deep.equal({ error: 'Webhook delivery not found' });
      const resend = await api.resend(k, id);
      expect(resend.status).to.equal(404);
      expect(resend.body).to.deep.equal({ error: 'Webhook delivery not found' });
    }
    const otherList = await api.list(otherKey);
    expect(otherList.body.deliveries.map((d) => d.id)).to.deep.equal([byName.foreign!.id]);
  });

  it('refuses to resend a delivery that is pending or retrying (409) and leaves it as it was', async () => {
    for (const name of ['replyB', 'pausedB']) {
      const id = byName[name]!.id;
      const before = (await api.detail(key, id)).body;
      const res = await api.resend(key, id);
      expect(res.status, name).to.equal(409);
      expect(res.body.error).to.equal(`Webhook delivery ${id} is already being delivered (status ${before.status}); resend it once it is delivered or failed`);
      expect((await api.detail(key, id)).body).to.deep.equal(before);
    }
  });

  it('resending a failed delivery starts cycle 2 at once (lease expired, no retry owner, not failed), keeps the attempts, and wakes the dispatcher', async () => {
    const id = byName.replyA!.id;
    const listener = new pg.Client({ connectionString: t.db.url });
    await listener.connect();
    try {
      const notified = new Promise<void>((resolve) => listener.on('notification', (n) => n.channel === 'outbox' && resolve()));
      await listener.query('LISTEN outbox');
      const res = await api.resend(key, id);
      expect(res.status, res.text).to.equal(202);
      expect(res.body).to.deep.include({ id, status: 'pending', cycle: 2, attemptCount: 6, failedAt: null, lastStatusCode: 500 });
      expect(Date.parse(res.body.nextAttemptAt!)).to.be.closeTo(Date.now(), 10_000);
      await Promise.race([notified, new Promise((_, reject) => setTimeout(() => reject(new Error('no NOTIFY outbox after the resend')), 5_000))]);
    } finally {
      await listener.end();
    }
    const [row] = await t.db.sequelize.query<{ lease_expired: boolean; retry_workflow_id: string | null }>(
      `SELECT lease_until <= now() AS lease_expired, retry_workflow_id FROM webhook_deliveries WHERE id = $1`,
      { bind: [id], type: QueryTypes.SELECT },
    );
    expect(row).to.deep.equal({ lease_expired: true, retry_workflow_id: null });
    const detail = await api.detail(key, id);
    expect(detail.body.attempts.map((a) => a.number)).to.deep.equal([1, 2, 3, 4, 5, 6]);
    // Now pending: a second resend is refused until this cycle settles.
    expect((await api.resend(key, id)).status).to.equal(409);
  });

  it('resends a delivered delivery too (the receiver lost it)', async () => {
    const res = await api.resend(key, byName.startedA!.id);
    expect(res.status).to.equal(202);
    expect(res.body).to.deep.include({ status: 'pending', cycle: 2 });
  });
});

describe('webhook resend and test event on the real stack', function () {
  this.timeout(120_000);
  const s = useCampaignStack();
  const api = client(() => s.api.baseUrl);
  let temporal: Client;
  const receivers: WebhookReceiver[] = [];

  before(async () => {
    temporal = new Client({ connection: await Connection.connect({ address: s.temporal.address }) });
  });
  after(async () => {
    for (const r of receivers) await r.close();
    await temporal?.connection.close();
  });

  async function receiver(answer?: Answer) {
    const r = await WebhookReceiver.start(answer);
    receivers.push(r);
    return r;
  }

  /** Polls the delivery until `done` holds (bounded). */
  async function waitForDelivery(key: string, id: string, done: (d: Detail) => boolean, what: string): Promise<Detail> {
    for (let i = 0; i < 150; i++) {
      const res = await api.detail(key, id);
      if (res.status === 200 && done(res.body)) return res.body;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`delivery ${id} never became ${what}`);
  }

  async function retryWorkflowExists(deliveryId: string, cycle: number): Promise<boolean> {
    try {
      await temporal.workflow.getHandle(retryWorkflowId(deliveryId, cycle)).describe();
      return true;
    } catch (err) {
      if (err instanceof WorkflowNotFoundError) return false;
      throw err;
    }
  }

  it('a failed delivery, resent, reaches the receiver again with the same event id and body: delivered in cycle 2, attempts numbered on', async () => {
    // 500 to the dispatcher's first attempt, 200 afterwards.
    const hooks = await receiver((n) => (n === 0 ? 500 : 200));
    const { apiKey, accountId } = await createAccount(s.db.sequelize, 'free', 'Resend Co');
    expect((await api.setUrl(apiKey, hooks.url())).status).to.equal(200);
    const { secret } = (await api.settings(apiKey)).body;
    const campaign = await seedCampaign(accountId);
    await s.db.sequelize.transaction((tx) =>
      emitEvent(s.db.sequelize, tx, { accountId, campaignId: campaign.id, event: 'meeting.booked', data: { email: 'ada@prospect.example', name: 'Ada' } }),
    );

    // The real dispatcher makes the first attempt; it fails, and a retry workflow owns cycle 1.
    await hooks.waitFor(1);
    const list = await api.list(apiKey);
    expect(list.body.total).to.equal(1);
    const id = list.body.deliveries[0]!.id;
    const retrying = await waitForDelivery(apiKey, id, (d) => d.status === 'retrying' && d.attempts.length === 1, 'retrying');
    expect(retrying.attempts[0]).to.deep.include({ number: 1, cycle: 1, statusCode: 500, succeeded: false });
    for (let i = 0; i < 100 && !(await retryWorkflowExists(id, 1)); i++) await new Promise((r) => setTimeout(r, 100));
    expect(await retryWorkflowExists(id, 1)).to.equal(true);

    // While its retries run it is being delivered: 409.
    const inFlight = await api.resend(apiKey, id);
    expect(inFlight.status).to.equal(409);
    expect(inFlight.body.error).to.match(/already being delivered \(status retrying\)/);

    // The dev server cannot skip the ladder's 26 hours: end cycle 1 as its fifth failed retry does
    // (the workflow's own markWebhookDeliveryFailed step), with the workflow gone.
    await temporal.workflow.getHandle(retryWorkflowId(id, 1)).terminate('test: the ladder is over');
    await markDeliveryFailed(s.db.sequelize, id, 1);
    expect((await api.detail(apiKey, id)).body.status).to.equal('failed');

    const resent = await api.resend(apiKey, id);
    expect(resent.status, resent.text).to.equal(202);
    expect(resent.body).to.deep.include({ status: 'pending', cycle: 2 });

    await hooks.waitFor(2);
    const delivered = await waitForDelivery(apiKey, id, (d) => d.status === 'delivered', 'delivered');
    expect(delivered).to.deep.include({ cycle: 2, attemptCount: 2, lastStatusCode: 200, lastError: null, failedAt: null });
    expect(delivered.attempts.map((a) => [a.number, a.cycle, a.statusCode, a.succeeded])).to.deep.equal([
      [1, 1, 500, false],
      [2, 2, 200, true],
    ]);
    const [first, second] = hooks.received;
    expect(second!.rawBody.equals(first!.rawBody), 'same body bytes').to.equal(true);
    expect(second!.headers['webhook-id']).to.equal(first!.headers['webhook-id']);
    expect(hooks.events()[1]!.id).to.equal(delivered.eventId);
    expect(second!.headers['x-service-signature']).to.equal(serviceSignature(second!.rawBody, secret));
    expect(JSON.parse(second!.rawBody.toString('utf8'))).to.deep.equal(delivered.payload);
    // Delivered at once: cycle 2 needed no retry workflow.
    expect(await retryWorkflowExists(id, 2)).to.equal(false);
    await new Promise((r) => setTimeout(r, 1_500));
    expect(hooks.received).to.have.length(2);
  });

  it('a test event reaches the endpoint signed with the account secrets, as a webhook.test envelope, and shows in the log', async () => {
    const hooks = await receiver();
    const { apiKey } = await createAccount(s.db.sequelize, 'free', 'Test Co');
    const before = (await api.settings(apiKey)).body.secret;
    const rotated = (await api.rotate(apiKey)).body;
    expect(rotated.previousSecret).to.equal(before);

    const res = await api.test(apiKey, { url: hooks.url('/check') });
    expect(res.status, res.text).to.equal(200);
    expect(res.body).to.deep.include({ url: hooks.url('/check'), delivered: true, statusCode: 200, error: null });
    expect(res.body.deliveryId).to.match(/^whd_[0-9a-f]{16}$/);
    expect(hooks.received).to.have.length(1);
    const got = hooks.received[0]!;
    expect(got.path).to.equal('/check');
    expect(got.headers['content-type']).to.equal('application/json');
    expect(got.headers['x-service-signature']).to.equal(serviceSignature(got.rawBody, rotated.secret));
    expect(got.headers['x-service-signature-previous']).to.equal(serviceSignature(got.rawBody, before));
    const standard = { 'webhook-id': String(got.headers['webhook-id']), 'webhook-timestamp': String(got.headers['webhook-timestamp']), 'webhook-signature': String(got.headers['webhook-signature']) };
    expect(() => new Webhook(rotated.secret).verify(got.rawBody.toString('utf8'), standard)).not.to.throw();
    expect(() => new Webhook(before).verify(got.rawBody.toString('utf8'), standard)).not.to.throw();

    const body = hooks.events()[0]!;
    expect(Object.keys(body)).to.deep.equal(['id', 'event', 'created_at', 'campaign_id', 'data']);
    expect(body).to.deep.include({ id: res.body.eventId, event: 'webhook.test', campaign_id: null });
    expect(body.data.message).to.be.a('string');
    expect(Date.parse(String(body.data.requested_at))).to.be.closeTo(Date.now(), 60_000);

    const log = await api.list(apiKey, '?event=webhook.test');
    expect(log.body.deliveries.map((d) => [d.id, d.status, d.attemptCount])).to.deep.equal([[res.body.deliveryId, 'delivered', 1]]);
    const detail = (await api.detail(apiKey, res.body.deliveryId)).body;
    expect(detail.payload).to.deep.equal(body);
    expect(detail.attempts).to.have.length(1);
    expect(detail.attempts[0]).to.deep.include({ number: 1, cycle: 1, statusCode: 200, succeeded: true, durationMs: res.body.durationMs });

    // Without a url it goes to the global URL.
    await api.setUrl(apiKey, hooks.url('/global'));
    const toGlobal = await api.test(apiKey);
    expect(toGlobal.body).to.deep.include({ url: hooks.url('/global'), delivered: true });
    expect(hooks.received.map((r) => r.path)).to.deep.equal(['/check', '/global']);
  });

  it('a test event to an endpoint answering 500 is a 200 with delivered false, recorded failed, and never retried', async () => {
    const hooks = await receiver(() => 500);
    const { apiKey } = await createAccount(s.db.sequelize, 'free', 'Broken Endpoint Co');
    const res = await api.test(apiKey, { url: hooks.url() });
    expect(res.status, res.text).to.equal(200);
    expect(res.body).to.deep.include({ delivered: false, statusCode: 500, error: 'HTTP 500' });
    const detail = (await api.detail(apiKey, res.body.deliveryId)).body;
    expect(detail).to.deep.include({ status: 'failed', cycle: 1, attemptCount: 1, lastStatusCode: 500, lastError: 'HTTP 500', nextAttemptAt: null });
    expect(detail.failedAt).to.be.a('string');
    // Neither the dispatcher (it polls at least every second) nor a retry workflow posts it again.
    await new Promise((r) => setTimeout(r, 2_000));
    expect(hooks.received).to.have.length(1);
    expect(await retryWorkflowExists(res.body.deliveryId, 1)).to.equal(false);
    expect((await api.detail(apiKey, res.body.deliveryId)).body.attempts).to.have.length(1);
    // Nor is it resent: a new test event is the way to try again.
    const resend = await api.resend(apiKey, res.body.deliveryId);
    expect(resend.status).to.equal(409);
    expect(resend.body.error).to.match(/test event/);
  });

  it('a test event with no URL at all, or a URL webhooks may not go to, is a 400 and sends nothing', async () => {
    const { apiKey } = await createAccount(s.db.sequelize, 'free', 'No URL Co');
    const none = await api.test(apiKey);
    expect(none.status).to.equal(400);
    expect(none.body.error).to.match(/^No webhook URL/);
    const plain = await api.test(apiKey, { url: 'http://hooks.example.com/x' });
    expect(plain.status).to.equal(400);
    expect(plain.body).to.deep.equal({ error: 'url must be an https URL' });
    const creds = await api.test(apiKey, { url: 'https://u:p@hooks.example.com/x' });
    expect(creds.body).to.deep.equal({ error: 'url must not carry credentials' });
    expect((await api.list(apiKey)).body.total).to.equal(0);
  });

  it('a test event to an endpoint that does not answer reports the connection error', async () => {
    const hooks = await receiver();
    const url = hooks.url();
    await hooks.close();
    receivers.splice(receivers.indexOf(hooks), 1);
    const { apiKey } = await createAccount(s.db.sequelize, 'free', 'Gone Co');
    const res = await api.test(apiKey, { url });
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.include({ delivered: false, statusCode: null });
    expect(res.body.error).to.be.a('string').and.not.equal('');
  });
});

import type { Worker } from '@temporalio/worker';
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { QueryTypes, type Sequelize } from 'sequelize';
import { createActivities } from '../../activities';
import { createEgress, type Egress } from '../../src/egress';
import { createLogger } from '../../src/log/logger';
import { DEFAULT_DISPATCHER_OPTIONS, runDispatcher } from '../../src/webhooks/dispatch/dispatcher';
import { emitEvent, type DomainEvent } from '../../src/webhooks/outbox-repository';
import type { RetryStarter } from '../../src/webhooks/retry/retry-starter';
import { serviceSignature } from '../../src/webhooks/signing';
import { webhookSettings } from '../../src/webhooks/webhook-settings-repository';
import { RETRY_LADDER_MS, retryWorkflowId } from '../../workflows/webhooks/contract';
import { webhookDeliveryWorkflow } from '../../workflows/webhooks/delivery-workflow';
import { createAccount, request, startTestApi, surfaceB, testConfig, type JsonResponse, type TestApi } from '../support/api';
import { seedCampaign } from '../support/campaign-seed';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { WebhookReceiver, type ReceivedWebhook } from '../support/webhook-receiver';
import { createTestWorker } from '../support/workflow-worker';
import { MINUTE, RetryHarness } from './support/retry-harness';

interface Delivery {
  id: string;
  eventId: string;
  event: string;
  url: string;
  status: string;
  cycle: number;
  attemptCount: number;
  failedAt: string | null;
  resendsOnRecovery: boolean;
}
interface Detail extends Delivery {
  attempts: Array<{ number: number; cycle: number; statusCode: number | null; succeeded: boolean }>;
}
interface Page {
  deliveries: Delivery[];
  total: number;
}

const LADDER_TOTAL = RETRY_LADDER_MS.reduce((a, b) => a + b, 0);

/**
 * Receivers that come back, on the real parts: PostgreSQL, the API, the webhook dispatcher posting
 * to receivers on loopback in real time, and the retry ladder (1 min .. 24 h) run by the real retry
 * workflow and activities on the time-skipping Temporal server, so a receiver can be down for the
 * ladder's 26 hours in seconds. The dispatcher hands its failed first attempts to that server, as
 * the worker's dispatcher hands them to the deployment's.
 *
 * What a user sees: the receiver's requests in the order they arrived, and the delivery log.
 */
describe('webhook receivers that come back get what they missed, oldest first', function () {
  this.timeout(180_000);
  const h = new RetryHarness();
  const taskQueue = `catch-up-${randomUUID()}`;
  const log = createLogger('silent', 'test');
  let db: TestDatabase;
  let api: TestApi;
  let worker: Worker;
  let workerRun: Promise<void>;
  let egress: Egress;
  const stopDispatchers = new AbortController();
  let dispatchers: Array<Promise<unknown>> = [];
  const receivers: WebhookReceiver[] = [];

  before(async function () {
    this.timeout(120_000);
    await h.start();
    db = await createTestDatabase();
    api = await startTestApi(db.sequelize);
    const all = createActivities({ sequelize: db.sequelize, config: testConfig({ TEMPORAL_TASK_QUEUE: taskQueue }), log });
    worker = await createTestWorker(h.env, taskQueue, { attemptWebhookDelivery: all.attemptWebhookDelivery, markWebhookDeliveryFailed: all.markWebhookDeliveryFailed });
    workerRun = worker.run();
    // A failed first attempt's ladder counts from the failure on the server's clock.
    const retries: RetryStarter = {
      start: async (failed) => {
        const workflowId = retryWorkflowId(failed.deliveryId, failed.cycle);
        await h.env.client.workflow.start(webhookDeliveryWorkflow, { taskQueue, workflowId, args: [{ deliveryId: failed.deliveryId, cycle: failed.cycle, firstFailureAt: await h.now() }] });
        return workflowId;
      },
    };
    egress = createEgress({ allowLoopback: true, timeoutMs: 10_000, maxBytes: 1024 * 1024 });
    // Two dispatchers, as two workers would run them: they compete for every claim and every catch-up.
    dispatchers = [1, 2].map(() =>
      runDispatcher(
        { sequelize: db.sequelize, egress, retries, log },
        { ...DEFAULT_DISPATCHER_OPTIONS, pollMs: 50, leaseCheckEveryMs: 50 },
        { signal: stopDispatchers.signal, runForMs: 30 * MINUTE },
      ),
    );
  });
  after(async function () {
    this.timeout(60_000);
    stopDispatchers.abort();
    await Promise.all(dispatchers);
    await Promise.all(receivers.map((r) => r.close()));
    worker?.shutdown();
    await workerRun;
    await egress?.close();
    await api?.close();
    await db?.drop();
    await h.stop();
  });

  const sequelize = (): Sequelize => db.sequelize;

  /** A receiver that answers 500 while `down`, 200 once it is back. */
  const receiver = async (): Promise<WebhookReceiver & { down: boolean }> => {
    const r = Object.assign(await WebhookReceiver.start(), { down: true });
    r.answer = () => (r.down ? 500 : 200);
    receivers.push(r);
    return r;
  };

  const list = (key: string, query: string): Promise<JsonResponse<Page & { error?: string }>> =>
    request(`${api.baseUrl}/v1/webhook-deliveries${query}`, { headers: surfaceB(key) });
  const detail = (key: string, id: string): Promise<JsonResponse<Detail>> => request(`${api.baseUrl}/v1/webhook-deliveries/${id}`, { headers: surfaceB(key) });
  const testEvent = (key: string, url: string): Promise<JsonResponse<{ eventId: string; deliveryId: string; delivered: boolean; statusCode: number | null }>> =>
    request(`${api.baseUrl}/v1/webhooks/test`, { method: 'POST', headers: { ...surfaceB(key), 'content-type': 'application/json' }, body: JSON.stringify({ url }) });

  /** Emits events in one transaction (as the facts they report would be); returns their ids. */
  const emit = (events: readonly DomainEvent[]): Promise<string[]> =>
    sequelize().transaction(async (tx) => {
      const ids: string[] = [];
      for (const ev of events) ids.push(await emitEvent(sequelize(), tx, ev));
      return ids;
    });

  const reply = (campaign: { accountId: string; campaignId: string }, n: number, at: Date): DomainEvent => ({
    accountId: campaign.accountId,
    campaignId: campaign.campaignId,
    event: 'reply.received',
    data: { reply_id: `rpl_${n}`, email: `lead${n}@prospect.example`, name: 'Lead', company: 'Co', title: 'CTO', sentiment: 'positive', preview: 'yes', received_at: at.toISOString() },
    at,
  });

  /** Polls every 100 ms until `check` returns a value, at most `ms`. */
  const until = async <T>(what: string, check: () => Promise<T | undefined>, ms = 30_000): Promise<T> => {
    const deadline = Date.now() + ms;
    for (;;) {
      const v = await check();
      if (v !== undefined) return v;
      if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };

  const statusesOf = async (eventIds: readonly string[]): Promise<Array<{ event_id: string; status: string; owned: boolean }>> =>
    sequelize().query(`SELECT event_id, status, retry_workflow_id IS NOT NULL AS owned FROM webhook_deliveries WHERE event_id = ANY($1::text[])`, {
      bind: [eventIds],
      type: QueryTypes.SELECT,
    });

  /**
   * The events' deliveries climb the whole ladder: once every first attempt has failed and its retry
   * workflow runs, simulated time skips past the fifth retry (t0 .. t0+26h38m) and each ends failed.
   */
  const failThroughTheLadder = async (eventIds: readonly string[], deliveries: number): Promise<void> => {
    await until('every first attempt failed and handed to its retry workflow', async () => {
      const rows = await statusesOf(eventIds);
      return rows.length === deliveries && rows.every((r) => r.status === 'retrying' && r.owned) ? true : undefined;
    });
    await h.sleepUntil((await h.now()) + LADDER_TOTAL + 2 * MINUTE);
    await until('every delivery failed after the ladder', async () => {
      const rows = await statusesOf(eventIds);
      return rows.length === deliveries && rows.every((r) => r.status === 'failed') ? true : undefined;
    });
  };

  /** The oldest event first: by the event's time, then its id (the order the service resends in). */
  const oldestFirst = async (eventIds: readonly string[]): Promise<string[]> => {
    const rows = await sequelize().query<{ id: string }>(`SELECT id FROM outbox WHERE id = ANY($1::text[]) ORDER BY created_at, id`, { bind: [eventIds], type: QueryTypes.SELECT });
    return rows.map((r) => r.id);
  };

  const idOf = (r: ReceivedWebhook): string => (JSON.parse(r.rawBody.toString('utf8')) as { id: string }).id;
  /** Lets a stray extra request show up before a test asserts there was none. */
  const settle = (): Promise<void> => new Promise((r) => setTimeout(r, 1_500));

  it('a receiver down for the whole ladder: the log lists its failed deliveries as waiting; when it answers 2xx to a new event, all of them arrive after it, oldest event first, each once, and nothing is left failed', async () => {
    const hook = await receiver();
    const { accountId, apiKey } = await createAccount(sequelize(), 'pro', 'Comes Back Ltd');
    const { secret } = await webhookSettings(sequelize(), accountId);
    const campaign = { accountId, campaignId: (await seedCampaign(accountId, { reportingWebhookUrl: hook.url('/hooks') })).id };

    // Event times an hour ago: two in one transaction, two with the same instant (their order is
    // their ids'), and one older than all of them reported only after the others were dispatched.
    const base = Date.now() - 60 * MINUTE;
    const first = await emit([reply(campaign, 1, new Date(base + 10 * MINUTE)), reply(campaign, 2, new Date(base + 20 * MINUTE))]);
    const tied = await emit([reply(campaign, 3, new Date(base + 30 * MINUTE)), reply(campaign, 4, new Date(base + 30 * MINUTE))]);
    await hook.waitFor(4);
    const late = await emit([reply(campaign, 0, new Date(base))]);
    const missed = [...first, ...tied, ...late];
    await failThroughTheLadder(missed, 5);
    // Each: its first attempt and five retries, all answered 500.
    expect(hook.received).to.have.length(30);
    expect(hook.received.every((r) => r.status === 500)).to.equal(true);
    const expected = await oldestFirst(missed);
    expect(expected[0], 'the late one is the oldest event').to.equal(late[0]);

    // What is waiting: each failed, with when, and to be resent when the URL answers again.
    const waiting = await list(apiKey, '?status=failed&order=oldest');
    expect(waiting.status, waiting.text).to.equal(200);
    expect(waiting.body.total).to.equal(5);
    expect(waiting.body.deliveries.map((d) => d.eventId), 'order=oldest: the order they will be resent in').to.deep.equal(expected);
    for (const d of waiting.body.deliveries) {
      expect(d).to.include({ url: hook.url('/hooks'), status: 'failed', cycle: 1, attemptCount: 6, resendsOnRecovery: true });
      expect(Date.parse(d.failedAt as string)).to.be.a('number').and.not.NaN;
    }
    const newestFirst = await list(apiKey, '?status=failed');
    expect(newestFirst.body.deliveries.map((d) => d.eventId).sort()).to.deep.equal([...expected].sort());

    // The receiver is back; the next event it answers 2xx brings the others.
    hook.down = false;
    const before = hook.received.length;
    const [fresh] = (await emit([{ accountId, campaignId: campaign.campaignId, event: 'campaign.paused', data: { reason: 'manual' } }])) as [string];
    await hook.waitFor(before + 6);
    await settle();
    const arrived = hook.received.slice(before);
    expect(arrived.map(idOf), 'the new event, then the missed ones oldest first, each once').to.deep.equal([fresh, ...expected]);
    expect(arrived.every((r) => r.status === 200)).to.equal(true);
    for (const r of arrived) {
      expect(r.headers['webhook-id']).to.equal(idOf(r));
      expect(r.headers['x-service-signature']).to.equal(serviceSignature(r.rawBody, secret));
      // The same bytes as the attempts that failed: a receiver deduplicating on the id sees a repeat.
      const original = hook.received.slice(0, before).find((x) => idOf(x) === idOf(r));
      if (idOf(r) !== fresh) expect(r.rawBody.equals((original as ReceivedWebhook).rawBody), 'same body').to.equal(true);
    }

    const after = await list(apiKey, '?status=failed');
    expect(after.body).to.include({ total: 0 });
    expect(after.body.deliveries).to.deep.equal([]);
    for (const d of waiting.body.deliveries) {
      const now = await detail(apiKey, d.id);
      // A new cycle of the same delivery: attempts numbered on, delivered at its first attempt.
      expect(now.body).to.include({ status: 'delivered', cycle: 2, attemptCount: 7, resendsOnRecovery: false });
      expect(now.body.attempts.at(-1)).to.deep.include({ number: 7, cycle: 2, statusCode: 200, succeeded: true });
    }
  });

  it("only that URL's and that account's failed deliveries come back, never a failed test event; a test event answered 2xx is enough to bring them", async () => {
    const [back, other] = [await receiver(), await receiver()];
    const a = await createAccount(sequelize(), 'pro', 'Two Hooks Ltd');
    const b = await createAccount(sequelize(), 'pro', 'Same Hook Ltd');
    const toBack = { accountId: a.accountId, campaignId: (await seedCampaign(a.accountId, { reportingWebhookUrl: back.url('/in') })).id };
    const toOther = { accountId: a.accountId, campaignId: (await seedCampaign(a.accountId, { reportingWebhookUrl: other.url('/in') })).id };
    // Another account posting to the same URL: a receiver of its own as far as secrets go.
    const sameUrlOtherAccount = { accountId: b.accountId, campaignId: (await seedCampaign(b.accountId, { reportingWebhookUrl: back.url('/in') })).id };

    const base = Date.now() - 30 * MINUTE;
    const mine = await emit([reply(toBack, 1, new Date(base + 2 * MINUTE)), reply(toBack, 2, new Date(base + MINUTE))]);
    const elsewhere = await emit([reply(toOther, 3, new Date(base))]);
    const theirs = await emit([reply(sameUrlOtherAccount, 4, new Date(base))]);
    // A test event while the receiver is down: failed, and never retried or resent.
    const failedTest = await testEvent(a.apiKey, back.url('/in'));
    expect(failedTest.body).to.include({ delivered: false, statusCode: 500 });
    await failThroughTheLadder([...mine, ...elsewhere, ...theirs], 4);

    const waiting = await list(a.apiKey, `?status=failed&order=oldest&url=${encodeURIComponent(back.url('/x/../in'))}`);
    expect(waiting.status, waiting.text).to.equal(200);
    expect(waiting.body.deliveries.map((d) => [d.eventId, d.resendsOnRecovery]), 'url= compared normalised').to.deep.equal([
      [mine[1], true],
      [mine[0], true],
      [failedTest.body.eventId, false],
    ]);
    const bad = await list(a.apiKey, '?status=failed&url=not%20a%20url');
    expect(bad.status).to.equal(400);
    expect(bad.body).to.deep.equal({ error: 'url must be an absolute URL' });

    // Both receivers answer again; only `back` is told so, by a test event of account A.
    back.down = false;
    other.down = false;
    const [beforeBack, beforeOther] = [back.received.length, other.received.length];
    const test = await testEvent(a.apiKey, back.url('/in'));
    expect(test.status, JSON.stringify(test.body)).to.equal(200);
    expect(test.body).to.include({ delivered: true, statusCode: 200 });
    await back.waitFor(beforeBack + 3);
    await settle();
    expect(back.received.slice(beforeBack).map(idOf), "the test event, then A's two missed events oldest first; not B's, not the failed test").to.deep.equal([
      test.body.eventId,
      mine[1],
      mine[0],
    ]);
    expect(other.received, 'another URL of the same account gets nothing').to.have.length(beforeOther);

    const left = await list(a.apiKey, '?status=failed&order=oldest');
    expect(left.body.deliveries.map((d) => [d.eventId, d.url, d.resendsOnRecovery])).to.deep.equal([
      [elsewhere[0], other.url('/in'), true],
      [failedTest.body.eventId, back.url('/in'), false],
    ]);
    const theirsLeft = await list(b.apiKey, '?status=failed');
    expect(theirsLeft.body.deliveries.map((d) => [d.eventId, d.cycle, d.resendsOnRecovery])).to.deep.equal([[theirs[0], 1, true]]);
  });

  it("a retry of the ladder answered 2xx brings them too (the next event's first attempt failed; its retry a minute later succeeds)", async () => {
    const hook = await receiver();
    const { accountId, apiKey } = await createAccount(sequelize(), 'pro', 'Retry Return Ltd');
    const campaign = { accountId, campaignId: (await seedCampaign(accountId, { reportingWebhookUrl: hook.url('/retry') })).id };
    const base = Date.now() - 10 * MINUTE;
    const missed = await emit([reply(campaign, 2, new Date(base + 1_000)), reply(campaign, 1, new Date(base))]);
    await failThroughTheLadder(missed, 2);
    const expected = await oldestFirst(missed);

    // Still down for the next event's first attempt; back before its first retry.
    const [next] = (await emit([{ accountId, campaignId: campaign.campaignId, event: 'campaign.paused', data: { reason: 'manual' } }])) as [string];
    await until('the next event retrying', async () => ((await statusesOf([next]))[0]?.owned === true ? true : undefined));
    hook.down = false;
    const before = hook.received.length;
    await h.sleepUntil((await h.now()) + 2 * MINUTE);
    await hook.waitFor(before + 3);
    await settle();
    expect(hook.received.slice(before).map(idOf), 'the retried event, then the missed ones oldest first').to.deep.equal([next, ...expected]);
    expect((await list(apiKey, '?status=failed')).body.total).to.equal(0);
  });

  it('many successes at once (test events through the API, two dispatchers) start each missed delivery once: one new cycle each, in order', async () => {
    const hook = await receiver();
    const { accountId, apiKey } = await createAccount(sequelize(), 'pro', 'Busy Return Ltd');
    const campaign = { accountId, campaignId: (await seedCampaign(accountId, { reportingWebhookUrl: hook.url('/busy') })).id };
    const base = Date.now() - 10 * MINUTE;
    const missed = await emit([1, 2, 3, 4].map((n) => reply(campaign, n, new Date(base + n * 1_000))));
    await failThroughTheLadder(missed, 4);
    const expected = await oldestFirst(missed);

    hook.down = false;
    const before = hook.received.length;
    // Eight API requests whose 2xx each try the catch-up, and events the two dispatchers deliver meanwhile.
    const [tests] = await Promise.all([
      Promise.all(Array.from({ length: 8 }, () => testEvent(apiKey, hook.url('/busy')))),
      emit([1, 2, 3].map((n) => ({ accountId, campaignId: campaign.campaignId, event: 'campaign.milestone', data: { milestone: `m${n}` } }))),
    ]);
    expect(tests.map((t) => t.body.delivered)).to.deep.equal(Array(8).fill(true));
    await hook.waitFor(before + 8 + 3 + 4);
    await settle();
    const arrivedIds = hook.received.slice(before).map(idOf);
    expect(arrivedIds).to.have.length(15);
    expect(arrivedIds.filter((id) => missed.includes(id)), 'each missed event once, oldest first').to.deep.equal(expected);
    const rows = await sequelize().query<{ event_id: string; status: string; cycle: number; attempt_count: number }>(
      `SELECT event_id, status, cycle, attempt_count FROM webhook_deliveries WHERE event_id = ANY($1::text[]) ORDER BY event_id`,
      { bind: [missed], type: QueryTypes.SELECT },
    );
    expect(rows.map((r) => [r.status, r.cycle, r.attempt_count])).to.deep.equal(Array(4).fill(['delivered', 2, 7]));
    expect((await list(apiKey, '?status=failed')).body.total).to.equal(0);
  });
});

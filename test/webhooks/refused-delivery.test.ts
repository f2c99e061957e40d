import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { createActivities } from '../../activities';
import { createEgress, type Egress, type Resolver } from '../../src/egress';
import { createLogger } from '../../src/log/logger';
import { DEFAULT_DISPATCHER_OPTIONS, runDispatcher } from '../../src/webhooks/dispatch/dispatcher';
import { emitEvent } from '../../src/webhooks/outbox-repository';
import { unownedRetries, type FailedAttempt } from '../../src/webhooks/record-attempts';
import type { RetryStarter } from '../../src/webhooks/retry/retry-starter';
import { MINUTE, HOUR, RetryHarness } from './support/retry-harness';
import { seedRetryingDelivery } from './support/delivery-rows';
import { createAccount, request, startTestApi, surfaceB, testConfig, type JsonResponse, type TestApi } from '../support/api';
import { seedCampaign } from '../support/campaign-seed';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { WebhookReceiver } from '../support/webhook-receiver';

interface Attempt {
  number: number;
  cycle: number;
  statusCode: number | null;
  error: string | null;
  succeeded: boolean;
}
interface Delivery {
  id: string;
  eventId: string;
  url: string;
  status: string;
  attemptCount: number;
  nextAttemptAt: string | null;
  lastStatusCode: number | null;
  lastError: string | null;
  failedAt: string | null;
  attempts: Attempt[];
}

/**
 * A webhook destination the egress policy refuses at delivery time (a name that resolves to a
 * private, loopback or metadata address) fails at once, not retried, with the reason in the
 * delivery log, instead of climbing the 1 min .. 24 h ladder. The real dispatcher and the real
 * retry activity make real attempts through the egress client with loopback egress off (as in
 * production); what a user sees is read through the API's delivery log.
 */
describe('a webhook destination refused at delivery time fails at once, not retried', function () {
  this.timeout(120_000);
  let db: TestDatabase;
  /** The API as production runs it: ALLOW_LOOPBACK_EGRESS off. */
  let api: TestApi;
  const receivers: WebhookReceiver[] = [];

  before(async () => {
    db = await createTestDatabase();
    api = await startTestApi(db.sequelize, { env: { ALLOW_LOOPBACK_EGRESS: 'false' } });
  });
  afterEach(async () => {
    await Promise.all(receivers.splice(0).map((r) => r.close()));
  });
  after(async () => {
    await api?.close();
    await db?.drop();
  });

  const receiver = async (status = 200): Promise<WebhookReceiver> => {
    const r = await WebhookReceiver.start(() => status);
    receivers.push(r);
    return r;
  };
  const portOf = (r: WebhookReceiver): string => new URL(r.url()).port;

  const deliveryLog = (key: string, query = ''): Promise<JsonResponse<{ deliveries: Delivery[]; total: number }>> =>
    request(`${api.baseUrl}/v1/webhook-deliveries${query}`, { headers: surfaceB(key) });
  const deliveryDetail = (key: string, id: string): Promise<JsonResponse<Delivery>> => request(`${api.baseUrl}/v1/webhook-deliveries/${id}`, { headers: surfaceB(key) });

  describe('the first attempt (the dispatcher)', () => {
    const emitStarted = (a: { accountId: string; campaignId: string }): Promise<string> =>
      db.sequelize.transaction((tx) =>
        emitEvent(db.sequelize, tx, { accountId: a.accountId, campaignId: a.campaignId, event: 'campaign.started', data: { mcp: 'sales_outreach', target_url: 'https://acme.example' } }),
      );

    /** An account and its campaign reporting to `campaignUrl`; with a URL, one campaign.started event in the outbox. */
    const accountWithEvent = async (campaignUrl: string | null) => {
      const { accountId, apiKey } = await createAccount(db.sequelize);
      const campaign = await seedCampaign(accountId, { reportingWebhookUrl: campaignUrl });
      const a = { accountId, apiKey, campaignId: campaign.id };
      return { ...a, eventId: campaignUrl === null ? null : await emitStarted(a) };
    };

    /**
     * Runs the real dispatcher with `egress` until the API shows the account's one delivery settled
     * (not pending), then stops it. Returns that delivery and the retry workflows it asked to start.
     */
    const dispatchOnce = async (egress: Egress, apiKey: string): Promise<{ delivery: Delivery; retryStarts: FailedAttempt[] }> => {
      const retryStarts: FailedAttempt[] = [];
      const retries: RetryStarter = { start: async (failed) => (retryStarts.push(failed), `webhook-delivery-${failed.deliveryId}-${failed.cycle}`) };
      const abort = new AbortController();
      const run = runDispatcher(
        { sequelize: db.sequelize, egress, retries, log: createLogger('silent', 'test') },
        { ...DEFAULT_DISPATCHER_OPTIONS, pollMs: 50 },
        { signal: abort.signal, runForMs: 30_000 },
      );
      try {
        for (let i = 0; i < 300; i++) {
          const [d] = (await deliveryLog(apiKey)).body.deliveries;
          if (d !== undefined && d.status !== 'pending') break;
          await new Promise((r) => setTimeout(r, 50));
        }
      } finally {
        abort.abort();
      }
      await run;
      const [summary] = (await deliveryLog(apiKey)).body.deliveries;
      expect(summary, 'a delivery in the log').to.not.equal(undefined);
      const detail = await deliveryDetail(apiKey, (summary as Delivery).id);
      expect(detail.status, detail.text).to.equal(200);
      return { delivery: detail.body, retryStarts };
    };

    /** What the log shows of a delivery refused at once: failed, one attempt, nothing due. */
    const expectFailedAtOnce = (d: Delivery, error: string): void => {
      expect(d).to.include({ status: 'failed', attemptCount: 1, nextAttemptAt: null, lastStatusCode: null, lastError: error });
      expect(d.failedAt).to.be.a('string');
      expect(d.attempts).to.deep.equal([{ ...d.attempts[0], number: 1, cycle: 1, statusCode: null, error, succeeded: false }]);
    };

    const staticResolver = (names: Record<string, string>): Resolver => async (hostname) => {
      const address = names[hostname];
      if (address === undefined) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
      return [{ address, family: address.includes(':') ? 6 : 4 }];
    };
    const strictEgress = (resolve?: Resolver): Egress => createEgress({ allowLoopback: false, timeoutMs: 10_000, maxBytes: 1024 * 1024, resolve });

    it('a name that resolves to a loopback address where a receiver listens: refused when connecting, nothing arrives, failed with the reason, no retry workflow', async () => {
      const hook = await receiver();
      // Written past the API (which takes plain http only to a loopback host): the name is what counts here.
      const url = `http://hooks.customer.test:${portOf(hook)}/in`;
      const a = await accountWithEvent(url);
      const egress = strictEgress(staticResolver({ 'hooks.customer.test': '127.0.0.1' }));
      let deliveryId: string;
      try {
        const { delivery, retryStarts } = await dispatchOnce(egress, a.apiKey);
        deliveryId = delivery.id;
        expect(delivery).to.include({ url, eventId: a.eventId });
        expectFailedAtOnce(delivery, 'blocked_address: Refused to connect to 127.0.0.1 (hooks.customer.test resolves to it): loopback address (not retried)');
        expect(retryStarts).to.deep.equal([]);
      } finally {
        await egress.close();
      }
      expect(hook.received).to.deep.equal([]);
      // The sweep that restarts lost retry workflows does not pick it up either.
      expect((await unownedRetries(db.sequelize, 0, 1000)).map((f) => f.deliveryId)).to.not.include(deliveryId);
      expect((await deliveryLog(a.apiKey, '?status=failed')).body.total).to.equal(1);
      expect((await deliveryLog(a.apiKey, '?status=retrying')).body.total).to.equal(0);
    });

    it('a name saved through the API that resolves to the cloud metadata address: failed at once with the reason', async () => {
      const a = await accountWithEvent(null);
      // The API takes it: a name is judged by the addresses it resolves to when an attempt connects.
      const saved = await request<{ url: string }>(`${api.baseUrl}/v1/webhook-settings`, {
        method: 'PATCH',
        headers: { ...surfaceB(a.apiKey), 'content-type': 'application/json' },
        body: JSON.stringify({ url: 'https://metadata.customer.test/latest/meta-data/' }),
      });
      expect(saved.status, saved.text).to.equal(200);
      await emitStarted(a);
      const egress = strictEgress(staticResolver({ 'metadata.customer.test': '169.254.169.254' }));
      try {
        const { delivery, retryStarts } = await dispatchOnce(egress, a.apiKey);
        expect(delivery.url).to.equal('https://metadata.customer.test/latest/meta-data/');
        expectFailedAtOnce(delivery, 'blocked_address: Refused to connect to 169.254.169.254 (metadata.customer.test resolves to it): linkLocal address (not retried)');
        expect(retryStarts).to.deep.equal([]);
      } finally {
        await egress.close();
      }
    });

    it('localhost with loopback egress off (a URL saved while it was on): refused without a lookup, failed at once, nothing arrives', async () => {
      const hook = await receiver();
      const a = await accountWithEvent(`http://localhost:${portOf(hook)}/in`);
      const egress = strictEgress();
      try {
        const { delivery, retryStarts } = await dispatchOnce(egress, a.apiKey);
        expectFailedAtOnce(delivery, 'blocked_address: Refused to connect to localhost: loopback name (not retried)');
        expect(retryStarts).to.deep.equal([]);
      } finally {
        await egress.close();
      }
      expect(hook.received).to.deep.equal([]);
    });

    it('control: a receiver answering 500 is still retried on the ladder (retrying, next attempt a minute on, a retry workflow asked for)', async () => {
      const hook = await receiver(500);
      const a = await accountWithEvent(hook.url('/in'));
      const egress = createEgress({ allowLoopback: true, timeoutMs: 10_000, maxBytes: 1024 * 1024 });
      try {
        const { delivery, retryStarts } = await dispatchOnce(egress, a.apiKey);
        expect(delivery).to.include({ status: 'retrying', attemptCount: 1, lastStatusCode: 500, lastError: 'HTTP 500', failedAt: null });
        expect(delivery.nextAttemptAt).to.be.a('string');
        expect(retryStarts.map((f) => f.deliveryId)).to.deep.equal([delivery.id]);
      } finally {
        await egress.close();
      }
      expect(hook.received).to.have.length(1);
    });
  });

  describe('a retry (the retry workflow on the time-skipping server, real activities, loopback egress off)', () => {
    const h = new RetryHarness();
    before(() => h.start());
    after(() => h.stop());

    it('a destination refused at the first retry ends the ladder there: failed, two attempts logged, nothing more in the next 27 hours (t0 .. t0+27h)', async () => {
      const hook = await receiver();
      const url = `http://localhost:${portOf(hook)}/in`;
      const { accountId, apiKey } = await createAccount(db.sequelize);
      const campaign = await seedCampaign(accountId, { reportingWebhookUrl: url });
      // The first attempt failed with a 500 (seeded as the dispatcher leaves it); by the retry, loopback egress is off.
      const seeded = await seedRetryingDelivery(db.sequelize, { accountId, campaignId: campaign.id, url });
      const all = createActivities({ sequelize: db.sequelize, config: testConfig({ ALLOW_LOOPBACK_EGRESS: 'false', TEMPORAL_TASK_QUEUE: `refused-${randomUUID()}` }), log: createLogger('silent', 'test') });
      const t0 = await h.now();
      await h.retries({ deliveryId: seeded.deliveryId, cycle: 1, firstFailureAt: t0 }, { attemptWebhookDelivery: all.attemptWebhookDelivery, markWebhookDeliveryFailed: all.markWebhookDeliveryFailed }, async (handle) => {
        expect(await h.resultBy(handle, t0 + 2 * MINUTE)).to.deep.equal({ outcome: 'refused', retries: 1 });
        // The rest of the ladder (5 min, 30 min, 2 h, 24 h) would have posted by now.
        await h.sleepUntil(t0 + 27 * HOUR);
      });
      expect(hook.received).to.deep.equal([]);

      const detail = await deliveryDetail(apiKey, seeded.deliveryId);
      expect(detail.status, detail.text).to.equal(200);
      const error = 'blocked_address: Refused to connect to localhost: loopback name (not retried)';
      expect(detail.body).to.include({ status: 'failed', attemptCount: 2, nextAttemptAt: null, lastStatusCode: null, lastError: error });
      expect(detail.body.failedAt).to.be.a('string');
      expect(detail.body.attempts.map((a) => [a.number, a.statusCode, a.error, a.succeeded])).to.deep.equal([
        [1, 500, 'HTTP 500', false],
        [2, null, error, false],
      ]);
    });
  });
});

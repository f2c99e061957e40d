import { WorkflowNotFoundError } from '@temporalio/client';
import { expect } from 'chai';
import { createHmac } from 'node:crypto';
import { QueryTypes, type Sequelize } from 'sequelize';
import { Webhook } from 'standardwebhooks';
import { freePort } from '../../src/net/ports';
import { emitEvent, type DomainEvent } from '../../src/webhooks/outbox-repository';
import { rotateWebhookSecret, setWebhookUrl, webhookSettings } from '../../src/webhooks/webhook-settings-repository';
import { DEFAULT_DISPATCHER_OPTIONS } from '../../src/webhooks/dispatch/dispatcher';
import { normalizeWebhookUrl } from '../../src/webhooks/webhook-url';
import { retryWorkflowId } from '../../workflows/webhooks/contract';
import { createAccount } from '../support/api';
import { seedCampaign } from '../support/campaign-seed';
import { WebhookReceiver, type Answer, type ReceivedWebhook } from '../support/webhook-receiver';
import { attemptRows, deliveriesOf, deliveryRow, seedExpiredPendingDelivery, seedRetryingDelivery, type DeliveryRow } from './support/delivery-rows';
import { eventually, useWebhookStack } from './support/webhook-stack';

/**
 * The dispatcher as it runs in production: the worker's dispatcher workflow claims committed outbox
 * events, posts each delivery's first attempt to real receivers on loopback, records it, and hands
 * failures to retry workflows on a real Temporal dev server. Real time throughout (the ladder
 * itself is tested under time skipping in test/workflows/webhook-retries.test.ts).
 */
describe('webhook dispatcher (dev server, real worker, receivers on loopback)', function () {
  this.timeout(60_000);
  const stack = useWebhookStack();
  const receivers: WebhookReceiver[] = [];
  /** Retry workflows a test caused: terminated after it, so their retries reach no later receiver. */
  const retryWorkflows: string[] = [];

  afterEach(async () => {
    await stack.terminate(retryWorkflows.splice(0));
    await Promise.all(receivers.splice(0).map((r) => r.close()));
  });

  const sequelize = (): Sequelize => stack.db.sequelize;

  const receiver = async (answer?: Answer): Promise<WebhookReceiver> => {
    const r = await WebhookReceiver.start(answer);
    receivers.push(r);
    return r;
  };

  /** A fresh account (its own URLs and secret) and a campaign reporting to `campaignUrl`. */
  const account = async (opts: { campaignUrl?: string | null; globalUrl?: string | null } = {}) => {
    const { accountId } = await createAccount(sequelize());
    if (opts.globalUrl != null) await setWebhookUrl(sequelize(), accountId, opts.globalUrl);
    const { secret } = await webhookSettings(sequelize(), accountId);
    const campaign = await seedCampaign(accountId, { reportingWebhookUrl: opts.campaignUrl ?? null });
    return { accountId, campaignId: campaign.id, secret };
  };

  /** Writes events in one transaction (as the facts they report would be); returns their ids. */
  const emit = async (events: readonly DomainEvent[]): Promise<string[]> =>
    sequelize().transaction(async (tx) => {
      const ids: string[] = [];
      for (const ev of events) ids.push(await emitEvent(sequelize(), tx, ev));
      return ids;
    });

  const startedEvent = (a: { accountId: string; campaignId: string }): DomainEvent => ({
    accountId: a.accountId,
    campaignId: a.campaignId,
    event: 'campaign.started',
    data: { mcp: 'sales_outreach', target_url: 'https://target.example' },
  });

  /** The event's deliveries once each has had its first attempt recorded. */
  const attempted = (eventId: string, count: number): Promise<DeliveryRow[]> =>
    eventually(`${count} attempted deliveries of ${eventId}`, async () => {
      const rows = await deliveriesOf(sequelize(), eventId);
      return rows.length === count && rows.every((r) => r.attempt_count >= 1) ? rows : undefined;
    });

  /** The one delivery of an event, after its first attempt failed, with its retry workflow recorded. */
  const failedFirstAttempt = async (eventId: string, timeoutMs?: number): Promise<DeliveryRow> => {
    const row = await eventually(`a retry workflow for the delivery of ${eventId}`, async () => {
      const [d] = await deliveriesOf(sequelize(), eventId);
      return d !== undefined && d.retry_workflow_id !== null ? d : undefined;
    }, timeoutMs);
    retryWorkflows.push(row.retry_workflow_id as string);
    return row;
  };

  const verifySignatures = (r: ReceivedWebhook, secret: string): void => {
    const body = r.rawBody.toString('utf8');
    expect(r.headers['x-service-signature']).to.equal(`sha256=${createHmac('sha256', secret).update(r.rawBody).digest('hex')}`);
    const headers = Object.fromEntries(Object.entries(r.headers).flatMap(([k, v]) => (typeof v === 'string' ? [[k, v]] : [])));
    expect(new Webhook(secret).verify(body, headers)).to.deep.equal(JSON.parse(body));
  };

  /** The input a retry workflow was started with (the first event of its history). */
  const retryInput = async (workflowId: string): Promise<unknown> => {
    const history = await stack.client.workflow.getHandle(workflowId).fetchHistory();
    const payload = history.events?.[0]?.workflowExecutionStartedEventAttributes?.input?.payloads?.[0]?.data;
    return JSON.parse(Buffer.from(payload as Uint8Array).toString('utf8'));
  };

  /** Lets a stray second request show up before a test asserts there was none. */
  const settle = (): Promise<void> => new Promise((r) => setTimeout(r, 1_500));

  describe('destinations', () => {
    it("an event goes to the campaign's reporting.webhook_url and to a different global URL: one request each, identical signed bodies", async () => {
      const [campaignHook, globalHook] = [await receiver(), await receiver()];
      const a = await account({ campaignUrl: campaignHook.url('/campaign'), globalUrl: globalHook.url('/global') });
      const [eventId] = (await emit([startedEvent(a)])) as [string];
      await Promise.all([campaignHook.waitFor(1), globalHook.waitFor(1)]);
      const rows = await attempted(eventId, 2);
      await settle();

      expect(campaignHook.received.map((r) => r.path)).to.deep.equal(['/campaign']);
      expect(globalHook.received.map((r) => r.path)).to.deep.equal(['/global']);
      const [c, g] = [campaignHook.received[0] as ReceivedWebhook, globalHook.received[0] as ReceivedWebhook];
      expect(c.rawBody.equals(g.rawBody), 'one event, one body').to.equal(true);
      for (const r of [c, g]) {
        verifySignatures(r, a.secret);
        expect(r.headers['webhook-id']).to.equal(eventId);
        expect(r.headers['content-type']).to.equal('application/json');
      }
      const body = JSON.parse(c.rawBody.toString('utf8'));
      expect(Object.keys(body)).to.deep.equal(['id', 'event', 'created_at', 'campaign_id', 'data']);
      expect(body).to.include({ id: eventId, event: 'campaign.started', campaign_id: a.campaignId });
      expect(body.data).to.deep.equal({ mcp: 'sales_outreach', target_url: 'https://target.example' });

      // Rows come ordered by URL, and the receivers' ports (part of the URL) are random.
      const expected = [
        [campaignHook.url('/campaign'), 'delivered', 1, 200],
        [globalHook.url('/global'), 'delivered', 1, 200],
      ].sort(([a], [b]) => (String(a) < String(b) ? -1 : 1));
      expect(rows.map((r) => [r.url, r.status, r.attempt_count, r.last_status_code])).to.deep.equal(expected);
      for (const r of rows) expect((await attemptRows(sequelize(), r.id)).map((x) => [x.number, x.succeeded])).to.deep.equal([[1, true]]);
    });

    it('the same URL as campaign and global URL (spelled differently, stored normalised) gets exactly one request', async () => {
      const hook = await receiver();
      const a = await account({ campaignUrl: normalizeWebhookUrl(hook.url('/a/../hooks')), globalUrl: normalizeWebhookUrl(hook.url('/./hooks')) });
      const [eventId] = (await emit([startedEvent(a)])) as [string];
      await hook.waitFor(1);
      const rows = await attempted(eventId, 1);
      await settle();
      expect(hook.received.map((r) => r.path)).to.deep.equal(['/hooks']);
      expect(rows.map((r) => [r.url, r.status])).to.deep.equal([[hook.url('/hooks'), 'delivered']]);
    });

    it('after a secret rotation the receiver can verify with either secret: X-Service-Signature (new), X-Service-Signature-Previous (old), two v1 signatures', async () => {
      const hook = await receiver();
      const a = await account({ campaignUrl: hook.url() });
      const rotated = await rotateWebhookSecret(sequelize(), a.accountId);
      expect(rotated.previousSecret).to.equal(a.secret);
      const [eventId] = (await emit([startedEvent(a)])) as [string];
      await hook.waitFor(1);
      const r = hook.received[0] as ReceivedWebhook;
      verifySignatures(r, rotated.secret);
      expect(r.headers['x-service-signature-previous']).to.equal(`sha256=${createHmac('sha256', a.secret).update(r.rawBody).digest('hex')}`);
      const headers = Object.fromEntries(Object.entries(r.headers).flatMap(([k, v]) => (typeof v === 'string' ? [[k, v]] : [])));
      expect(new Webhook(a.secret).verify(r.rawBody.toString('utf8'), headers)).to.have.property('id', eventId);
      expect((r.headers['webhook-signature'] as string).split(' ')).to.have.length(2);
    });

    it('statistics-only outbox events (email.sent, cost.recorded) are marked dispatched and never posted', async () => {
      const hook = await receiver();
      const a = await account({ campaignUrl: hook.url(), globalUrl: hook.url('/global') });
      const silent = await emit([
        { accountId: a.accountId, campaignId: a.campaignId, event: 'email.sent', data: { email_id: 'em_1' } },
        { accountId: a.accountId, campaignId: a.campaignId, event: 'cost.recorded', data: { category: 'email_sending', amount_usd: 0.001 } },
      ]);
      // A webhook event written after them: once it has arrived, the dispatcher has been past both.
      const [marker] = (await emit([{ accountId: a.accountId, campaignId: a.campaignId, event: 'campaign.paused', data: { reason: 'manual' } }])) as [string];
      await hook.waitFor(2);
      await attempted(marker, 2);
      await settle();

      expect(hook.events().map((e) => e.id)).to.deep.equal([marker, marker]);
      const outbox = await sequelize().query<{ id: string; dispatched_at: Date | null }>('SELECT id, dispatched_at FROM outbox WHERE id = ANY($1::text[])', {
        bind: [silent],
        type: QueryTypes.SELECT,
      });
      expect(outbox).to.have.length(2);
      expect(outbox.every((o) => o.dispatched_at instanceof Date), 'both marked dispatched').to.equal(true);
      for (const id of silent) expect(await deliveriesOf(sequelize(), id)).to.deep.equal([]);
    });
  });

  describe('a failed first attempt', () => {
    it('500: the delivery is retrying, its retry workflow webhook-delivery-<id>-1 runs, and the next attempt is due 60 s after the failure', async () => {
      const hook = await receiver(() => 500);
      const a = await account({ campaignUrl: hook.url() });
      const [eventId] = (await emit([startedEvent(a)])) as [string];
      const row = await failedFirstAttempt(eventId);

      expect(row).to.include({ status: 'retrying', cycle: 1, attempt_count: 1, last_status_code: 500, last_error: 'HTTP 500', retry_workflow_id: retryWorkflowId(row.id, 1) });
      expect(row.retry_workflow_id).to.equal(`webhook-delivery-${row.id}-1`);
      const [attempt] = await attemptRows(sequelize(), row.id);
      const failedAt = (attempt?.attempted_at.getTime() as number) + (attempt?.duration_ms as number);
      expect((row.next_attempt_at?.getTime() as number) - failedAt).to.be.within(60_000 - 1, 60_000 + 1);
      expect(attempt).to.include({ number: 1, cycle: 1, status_code: 500, succeeded: false });

      const description = await stack.client.workflow.getHandle(row.retry_workflow_id as string).describe();
      expect(description.status.name).to.equal('RUNNING');
      expect(description.type).to.equal('webhookDeliveryWorkflow');
      expect(description.taskQueue).to.equal(stack.config.temporalTaskQueue);
      // Its input names the failure instant the ladder counts from.
      expect(await retryInput(row.retry_workflow_id as string)).to.deep.equal({ deliveryId: row.id, cycle: 1, firstFailureAt: failedAt });
      expect(hook.received).to.have.length(1);
    });

    it('a 302 redirect is a failure and is not followed: the redirect target receives nothing', async () => {
      const target = await receiver();
      const hook = await receiver(() => ({ status: 302, headers: { location: target.url('/moved') } }));
      const a = await account({ campaignUrl: hook.url() });
      const [eventId] = (await emit([startedEvent(a)])) as [string];
      const row = await failedFirstAttempt(eventId);
      await settle();
      expect(hook.received).to.have.length(1);
      expect(target.received).to.deep.equal([]);
      expect(row).to.include({ status: 'retrying', last_status_code: 302, last_error: `redirect 302 to ${target.url('/moved')} (redirects are not followed)` });
    });

    it('connection refused is a failure with the reason in the log', async () => {
      const closedPort = await freePort();
      const a = await account({ campaignUrl: `http://127.0.0.1:${closedPort}/hooks` });
      const [eventId] = (await emit([startedEvent(a)])) as [string];
      const row = await failedFirstAttempt(eventId);
      expect(row).to.include({ status: 'retrying', last_status_code: null });
      expect(row.last_error).to.match(/^network: Could not reach 127\.0\.0\.1:\d+: .*ECONNREFUSED/);
      const [attempt] = await attemptRows(sequelize(), row.id);
      expect(attempt).to.include({ number: 1, status_code: null, succeeded: false, error: row.last_error });
    });

    it('a receiver that answers only after 11 s: the attempt gives up at 10 s, a timeout failure', async function () {
      this.timeout(60_000);
      const hook = await receiver(() => ({ status: 200, delayMs: 11_000 }));
      const a = await account({ campaignUrl: hook.url() });
      const [eventId] = (await emit([startedEvent(a)])) as [string];
      const row = await failedFirstAttempt(eventId, 30_000);
      expect(hook.received).to.have.length(1);
      expect(row).to.include({ status: 'retrying', last_status_code: null });
      expect(row.last_error).to.match(/^timeout: No complete answer from 127\.0\.0\.1:\d+ within 10000 ms$/);
      const [attempt] = await attemptRows(sequelize(), row.id);
      expect(attempt?.duration_ms).to.be.at.least(10_000).and.below(11_000);
    });

    it('a global URL on a private address (written past the API) is refused by the egress client: blocked_address, no connection made, failed at once without a retry workflow', async () => {
      const a = await account();
      // The API refuses it now; one stored before that rule is judged by the egress client when it connects.
      await sequelize().query(`UPDATE webhook_settings SET url = 'https://10.0.0.1/hooks' WHERE account_id = $1`, { bind: [a.accountId] });
      const [eventId] = (await emit([startedEvent(a)])) as [string];
      const row = await eventually('the refused delivery failed', async () => {
        const [d] = await deliveriesOf(sequelize(), eventId);
        return d?.status === 'failed' ? d : undefined;
      });
      expect(row).to.include({ url: 'https://10.0.0.1/hooks', status: 'failed', last_status_code: null, next_attempt_at: null, retry_workflow_id: null });
      expect(row.last_error).to.match(/^blocked_address: Refused to connect to 10\.0\.0\.1.*private.*\(not retried\)$/);
      const [attempt] = await attemptRows(sequelize(), row.id);
      // Refused before any connection: no TLS handshake, no 10 s wait on an unroutable address.
      expect(attempt?.duration_ms).to.be.below(1_000);
      // No ladder: the retry workflow was never started.
      const started = await stack.client.workflow.getHandle(retryWorkflowId(row.id, 1)).describe().then(() => true, (err: unknown) => (err instanceof WorkflowNotFoundError ? false : Promise.reject(err)));
      expect(started).to.equal(false);
    });
  });

  describe('durability', () => {
    it('a pending delivery whose lease ran out (its dispatcher died) is taken over and attempted', async () => {
      const hook = await receiver();
      const a = await account();
      const d = await seedExpiredPendingDelivery(sequelize(), { accountId: a.accountId, campaignId: a.campaignId, url: hook.url(), expiredMsAgo: 5_000 });
      await hook.waitFor(1);
      const row = await eventually('the taken-over delivery recorded', async () => {
        const r = await deliveryRow(sequelize(), d.deliveryId);
        return r.status === 'delivered' ? r : undefined;
      });
      expect(row).to.include({ attempt_count: 1, lease_until: null });
      expect(hook.events().map((e) => e.id)).to.deep.equal([d.eventId]);
      verifySignatures(hook.received[0] as ReceivedWebhook, a.secret);
    });

    it('a failed delivery whose retry workflow was never started (its dispatcher died in between) is found by the sweep; its ladder counts from the end of the failed attempt', async function () {
      this.timeout(60_000);
      const hook = await receiver();
      const a = await account();
      // The first attempt started 62 s ago and waited 10 s for its answer: it failed 52 s ago, so
      // the first retry is due 8 s from now (not 2 s ago, as it would be counted from its start).
      const attemptedAt = new Date(Date.now() - 62_000);
      const d = await seedRetryingDelivery(sequelize(), { accountId: a.accountId, campaignId: a.campaignId, url: hook.url(), attemptedAt, durationMs: 10_000, owned: false, idleMs: 40_000 });
      const owned = await eventually('the sweep to start the retry workflow', async () => {
        const r = await deliveryRow(sequelize(), d.deliveryId);
        return r.retry_workflow_id !== null ? r : undefined;
      }, 20_000);
      retryWorkflows.push(owned.retry_workflow_id as string);
      expect(owned.retry_workflow_id).to.equal(retryWorkflowId(d.deliveryId, 1));
      expect(await retryInput(owned.retry_workflow_id as string)).to.deep.equal({ deliveryId: d.deliveryId, cycle: 1, firstFailureAt: d.failedAt.getTime() });

      await hook.waitFor(1, 30_000);
      expect(hook.received[0]?.at).to.be.at.least(d.failedAt.getTime() + 60_000);
      const row = await eventually('the retry recorded', async () => {
        const r = await deliveryRow(sequelize(), d.deliveryId);
        return r.status === 'delivered' ? r : undefined;
      });
      expect(row.attempt_count).to.equal(2);
      expect((await attemptRows(sequelize(), d.deliveryId)).map((x) => [x.number, x.succeeded])).to.deep.equal([
        [1, false],
        [2, true],
      ]);
    });

    it('an event written while no worker runs is delivered once a worker starts', async function () {
      this.timeout(120_000);
      const hook = await receiver();
      const a = await account({ campaignUrl: hook.url() });
      await stack.stopWorker();
      let eventId: string;
      try {
        [eventId] = (await emit([startedEvent(a)])) as [string];
        await new Promise((r) => setTimeout(r, 2_000));
        expect(hook.received, 'nothing is posted without a worker').to.deep.equal([]);
        const [waiting] = await sequelize().query<{ dispatched_at: Date | null }>('SELECT dispatched_at FROM outbox WHERE id = $1', { bind: [eventId], type: QueryTypes.SELECT });
        expect(waiting?.dispatched_at).to.equal(null);
      } finally {
        await stack.startWorker();
      }
      await hook.waitFor(1, 45_000);
      const [row] = await attempted(eventId, 1);
      expect(row).to.include({ status: 'delivered', attempt_count: 1 });
      expect(hook.events().map((e) => e.id)).to.deep.equal([eventId]);
    });
  });

  describe('volume', () => {
    it('200 events emitted in one transaction all arrive, each exactly once', async function () {
      this.timeout(60_000);
      const hook = await receiver();
      const a = await account({ campaignUrl: hook.url() });
      const events: DomainEvent[] = Array.from({ length: 200 }, (_, i) => ({
        accountId: a.accountId,
        campaignId: a.campaignId,
        event: 'reply.received',
        data: { reply_id: `rpl_${i}`, email: `lead${i}@prospect.example`, name: 'Lead', company: 'Co', title: 'CTO', sentiment: 'positive', preview: 'yes', received_at: new Date().toISOString() },
      }));
      const committed = Date.now();
      const ids = await emit(events);
      await hook.waitFor(200, 30_000);
      const lastArrival = Math.max(...hook.received.map((r) => r.at));
      await settle();

      const received = hook.events().map((e) => e.id);
      expect(received).to.have.length(200);
      expect(new Set(received).size).to.equal(200);
      expect([...received].sort()).to.deep.equal([...ids].sort());
      const statuses = await sequelize().query<{ status: string; n: string }>('SELECT status, count(*) AS n FROM webhook_deliveries WHERE event_id = ANY($1::text[]) GROUP BY status', {
        bind: [ids],
        type: QueryTypes.SELECT,
      });
      expect(statuses.map((s) => [s.status, Number(s.n)])).to.deep.equal([['delivered', 200]]);
      // Sanity, not a benchmark: batched claims and concurrent attempts, not one event per poll.
      const spanMs = lastArrival - committed;
      expect(spanMs, `200 events took ${spanMs} ms from commit to the last arrival`).to.be.below(15_000);
    });

    it('a slow receiver holds at most its share of attempts; another destination is not kept waiting behind its backlog', async function () {
      this.timeout(60_000);
      const share = DEFAULT_DISPATCHER_OPTIONS.maxInFlightPerOrigin;
      expect(share).to.be.below(DEFAULT_DISPATCHER_OPTIONS.maxInFlight);
      // 80 events to a receiver that answers after 2 s: without a share per destination they would
      // take all 64 slots, and the fast receiver's events would wait 2 s behind them.
      let open = 0;
      let mostOpen = 0;
      const slow = await receiver(() => {
        open += 1;
        mostOpen = Math.max(mostOpen, open);
        setTimeout(() => (open -= 1), 2_000);
        return { status: 200, delayMs: 2_000 };
      });
      const fast = await receiver();
      const s = await account({ campaignUrl: slow.url() });
      const f = await account({ campaignUrl: fast.url() });
      const reply = (a: { accountId: string; campaignId: string }, i: number): DomainEvent => ({
        accountId: a.accountId,
        campaignId: a.campaignId,
        event: 'reply.received',
        data: { reply_id: `rpl_${i}`, email: `lead${i}@prospect.example`, name: 'Lead', company: 'Co', title: 'CTO', sentiment: 'neutral', preview: 'ok', received_at: new Date().toISOString() },
      });
      const committed = Date.now();
      // Slow ones first: the dispatcher claims oldest first, so they fill the first batch.
      const slowIds = await emit(Array.from({ length: 80 }, (_, i) => reply(s, i)));
      const fastIds = await emit(Array.from({ length: 5 }, (_, i) => reply(f, i)));

      await fast.waitFor(5, 10_000);
      const fastDone = Math.max(...fast.received.map((r) => r.at)) - committed;
      expect(fastDone, `the fast receiver's events took ${fastDone} ms`).to.be.below(1_500);
      expect(slow.received.length, 'the slow receiver has only its share in flight').to.be.at.most(share);

      await slow.waitFor(80, 40_000);
      expect(mostOpen).to.equal(share);
      expect(new Set(slow.events().map((e) => e.id))).to.deep.equal(new Set(slowIds));
      expect(new Set(fast.events().map((e) => e.id))).to.deep.equal(new Set(fastIds));
      // The last arrivals are answered 2 s after they arrive, and recorded then.
      await eventually('all 85 deliveries recorded delivered', async () => {
        const [row] = await sequelize().query<{ n: string }>(`SELECT count(*) AS n FROM webhook_deliveries WHERE event_id = ANY($1::text[]) AND status = 'delivered'`, {
          bind: [[...slowIds, ...fastIds]],
          type: QueryTypes.SELECT,
        });
        return Number(row?.n) === 85 ? true : undefined;
      });
      await settle();
      expect(slow.received).to.have.length(80);
    });
  });
});

import { Client, Connection } from '@temporalio/client';
import { expect } from 'chai';
import { QueryTypes } from 'sequelize';
import { createLogger } from '../../src/log/logger';
import { WEBHOOK_EVENT_KINDS } from '../../src/webhooks/event-kinds';
import { webhookSettings } from '../../src/webhooks/webhook-settings-repository';
import { startWorker, type RunningWorker } from '../../src/worker/create-worker';
import { RETRY_LADDER_MS, type WebhookRetryResult } from '../../workflows/webhooks/contract';
import { createAccount, startTestApi, testConfig, type TestApi } from '../support/api';
import { useCampaignStack } from '../support/campaign-stack';
import type { FakeSite } from '../support/fake-site';
import { WebhookReceiver } from '../support/webhook-receiver';
import { campaignApi, INBOUND_SECRET, startTargetSite, type ImportedLead } from './support/campaign-api';
import { attemptsOf, deliveriesOf, envelopeOf, expectSignedWith, until, type DeliveryRow } from './support/webhook-checks';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Webhook delivery survives its processes on the real stack (PostgreSQL, Temporal dev server, the
 * worker with its dispatcher, the API): a worker shut down while a failed delivery waits for its
 * first retry is replaced by a new one and the retry still comes on time; events the API writes
 * while no worker runs, by an API that is gone by then, are delivered once a worker starts.
 *
 * The first test really waits for the ladder's first step (1 minute): that the retry's timer lives
 * in the Temporal server, not in the worker, is exactly what it shows.
 */
describe('webhook delivery across worker and API restarts (real stack)', function () {
  this.timeout(4 * 60_000);
  const t = useCampaignStack({ INBOUND_SECRET });

  describe('one campaign whose first webhook attempt fails', () => {
    const api = campaignApi(t);
    let site: FakeSite;
    let receiver: WebhookReceiver;
    let client: Client;
    /** Workers and APIs this file starts; stopped before the stack's own teardown. */
    const workers: RunningWorker[] = [];
    const apis: TestApi[] = [];
    let account: { accountId: string; apiKey: string; lead: ImportedLead };
    let campaignId = '';

    const taskQueue = () => t.worker.worker.options.taskQueue;
    const secret = async () => (await webhookSettings(t.db.sequelize, account.accountId)).secret;
    async function newWorker(): Promise<RunningWorker> {
      const config = testConfig({ ...t.env, TEMPORAL_TASK_QUEUE: taskQueue() });
      const w = await startWorker({ address: t.temporal.address, namespace: 'default', taskQueue: taskQueue(), sequelize: t.db.sequelize, config, log: createLogger('silent', 'test') });
      workers.push(w);
      return w;
    }
    /** The delivery of `eventId` once `ready` holds for it. */
    const deliveryWhen = (what: string, eventId: string, ready: (d: DeliveryRow) => boolean, timeoutMs = 30_000) =>
      until(what, async () => {
        const [d] = await deliveriesOf(t.db.sequelize, eventId);
        return d !== undefined && ready(d) ? d : undefined;
      }, timeoutMs);

    before(async () => {
      [site, receiver] = await Promise.all([startTargetSite(), WebhookReceiver.start()]);
      client = new Client({ connection: await Connection.connect({ address: t.temporal.address }) });
      const { accountId, apiKey } = await createAccount(t.db.sequelize, 'pro', 'Restart Ltd');
      const [lead] = await api.importLeads(apiKey, 'restart.example', 1);
      account = { accountId, apiKey, lead: lead as ImportedLead };
    });
    after(async function () {
      this.timeout(60_000);
      for (const w of workers) await w.shutdown().catch(() => undefined);
      for (const a of apis) await a.close().catch(() => undefined);
      await client?.connection.close();
      await receiver?.close();
      await site?.close();
    });

    it('a worker restart while a delivery waits for its first retry loses nothing: the retry comes 1 min after the failure and delivers', async function () {
      this.timeout(150_000);
      // The receiver fails the first request and accepts every one after it.
      receiver.answer = (n) => (n === 0 ? 500 : 200);
      campaignId = await api.createCampaign(account.apiKey, { mcp: 'sales_outreach', target_url: site.origin, reporting: { webhook_url: receiver.url('/restart') } });
      await receiver.waitFor(1, 30_000);
      const first = receiver.received[0]!;
      const event = expectSignedWith(first, await secret());
      expect(event).to.include({ event: 'campaign.started', campaign_id: campaignId });
      expect(first.status).to.equal(500);

      const retrying = await deliveryWhen('the delivery retrying, with its retry workflow', event.id, (d) => d.status === 'retrying' && d.retry_workflow_id !== null);
      expect(retrying).to.include({ attempt_count: 1, last_status_code: 500, cycle: 1 });
      const [failed] = await attemptsOf(t.db.sequelize, retrying.id);
      expect(failed).to.include({ number: 1, cycle: 1, status_code: 500, error: 'HTTP 500', succeeded: false });
      const failedAt = new Date(failed!.attempted_at).getTime() + failed!.duration_ms;
      const retry = client.workflow.getHandle(retrying.retry_workflow_id as string);
      expect((await retry.describe()).status.name).to.equal('RUNNING');

      // The worker goes away while the retry's 1-minute timer runs, and a new one takes its place.
      const shutdownStarted = Date.now();
      await t.worker.shutdown();
      expect(t.worker.worker.getState()).to.equal('STOPPED');
      // The dispatcher's long-running activity holds the worker until its shutdown grace time (20 s) is over.
      expect(Date.now() - shutdownStarted, 'the worker stops within its shutdown grace time').to.be.below(25_000);
      await sleep(3_000);
      expect(receiver.received, 'nothing is posted while no worker runs').to.have.length(1);
      await newWorker();

      await receiver.waitFor(2, 90_000);
      const second = receiver.received[1]!;
      const waited = second.at - failedAt;
      expect(waited, `the first retry ${waited} ms after the failure`).to.be.within((RETRY_LADDER_MS[0] as number) - 1_000, (RETRY_LADDER_MS[0] as number) + 15_000);
      expect(second.status).to.equal(200);
      // The same event: same bytes, same id, signed again at this attempt.
      expect(second.rawBody.equals(first.rawBody), 'the retry posts the same body').to.equal(true);
      expect(expectSignedWith(second, await secret()).id).to.equal(event.id);
      expect(second.headers['webhook-timestamp']).to.not.equal(first.headers['webhook-timestamp']);

      const delivered = await deliveryWhen('the delivery delivered', event.id, (d) => d.status === 'delivered');
      expect(delivered).to.include({ attempt_count: 2, cycle: 1, last_status_code: 200 });
      const attempts = await attemptsOf(t.db.sequelize, delivered.id);
      expect(attempts.map((a) => [a.number, a.cycle, a.status_code, a.succeeded])).to.deep.equal([
        [1, 1, 500, false],
        [2, 1, 200, true],
      ]);
      expect(await retry.result()).to.deep.equal({ outcome: 'delivered', retries: 1 } satisfies WebhookRetryResult);

      await sleep(2_000);
      expect(receiver.received.map((r) => envelopeOf(r).id), 'the event twice (the failure and the retry), nothing more').to.deep.equal([event.id, event.id]);
    });

    it('events taken while no worker runs, by an API that has stopped since, are delivered once a worker starts', async function () {
      this.timeout(120_000);
      for (const w of workers) await w.shutdown();
      const before = receiver.received.length;

      // A second API process takes a reply (written to the outbox by the API itself), then stops.
      // (A pause is an Update the workflow must answer: it needs a worker, and follows below.)
      const other = await startTestApi(t.db.sequelize, { temporalAddress: t.temporal.address, env: { ...t.env, TEMPORAL_TASK_QUEUE: taskQueue() } });
      apis.push(other);
      const otherApi = campaignApi(t, () => other.baseUrl);
      const sent = await until('the campaign\'s email', () => t.sink.messages.find((m) => m.to.includes(account.lead.email)));
      const replyId = await otherApi.reply(sent, `${account.lead.name} <${account.lead.email}>`, 'Happy to talk next week, what suits you?');
      await other.close();

      const waiting = await t.db.sequelize.query<{ event: string }>(
        `SELECT event FROM outbox WHERE campaign_id = $1 AND event = ANY($2::text[]) AND dispatched_at IS NULL ORDER BY created_at`,
        { bind: [campaignId, [...WEBHOOK_EVENT_KINDS]], type: QueryTypes.SELECT },
      );
      expect(waiting.map((w) => w.event), 'the reply waits in the outbox').to.deep.equal(['reply.received']);
      await sleep(2_000);
      expect(receiver.received, 'nothing is posted while no worker runs').to.have.length(before);

      await newWorker();
      await api.pause(account.apiKey, campaignId);
      await receiver.waitFor(before + 2, 60_000);
      await sleep(2_000);
      const got = receiver.received.slice(before);
      expect(got, 'each event once').to.have.length(2);
      const key = await secret();
      const byKind = new Map(got.map((r) => [envelopeOf(r).event, expectSignedWith(r, key)]));
      expect([...byKind.keys()].sort()).to.deep.equal(['campaign.paused', 'reply.received']);
      expect(byKind.get('reply.received')?.data).to.include({ reply_id: replyId, email: account.lead.email });
      expect(byKind.get('campaign.paused')?.data).to.include({ reason: 'manual' });
      for (const e of byKind.values()) {
        expect(e.campaign_id).to.equal(campaignId);
        const [d] = await deliveriesOf(t.db.sequelize, e.id);
        expect(d, `${e.event} delivered at the first attempt`).to.include({ status: 'delivered', attempt_count: 1 });
      }
    });
  });
});

import { expect } from 'chai';
import type { IncomingHttpHeaders } from 'node:http';
import { createHmac, randomBytes } from 'node:crypto';
import type { Sequelize } from 'sequelize';
import { Webhook } from 'standardwebhooks';
import { createActivities } from '../../activities';
import { createLogger } from '../../src/log/logger';
import { webhookSettings } from '../../src/webhooks/webhook-settings-repository';
import { RETRY_LADDER_MS, type WebhookRetryInput } from '../../workflows/webhooks/contract';
import { createAccount, testConfig } from '../support/api';
import { seedCampaign } from '../support/campaign-seed';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { WebhookReceiver } from '../support/webhook-receiver';
import { attemptRows, deliveryRow, seedRetryingDelivery } from '../webhooks/support/delivery-rows';
import { FakeRetryActivities, HOUR, MINUTE, RetryHarness, serviceTrouble, type RetryActivities } from '../webhooks/support/retry-harness';

/**
 * The retry workflow of a webhook delivery on the time-skipping server: the spec's ladder (1 min,
 * 5 min, 30 min, 2 h, 24 h after the failure before, then failed) to the second of simulated time.
 * t0 is the instant the dispatcher's first attempt failed (the workflow's firstFailureAt); every
 * title names the simulated span it crosses. Simulated time is read from the server twice over: the
 * activity's scheduled timestamp and the server clock read from inside the activity, and the tests
 * check that the two agree, so a timing assertion cannot pass on a clock that did not skip.
 */
describe('webhook retry workflow (time-skipping)', function () {
  this.timeout(120_000);
  const h = new RetryHarness();
  before(() => h.start());
  after(() => h.stop());

  /** The spec's table (Events, Retries), written out here rather than taken from the code under test. */
  const SPEC_LADDER = [MINUTE, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 24 * HOUR] as const;
  const LADDER_TOTAL = SPEC_LADDER.reduce((a, b) => a + b, 0); // 26 h 36 min
  /** How far an observed instant may sit after the one it is due at (real processing time). */
  const SLACK = 2_000;
  const input = (firstFailureAt: number): WebhookRetryInput => ({ deliveryId: `whd_${randomBytes(8).toString('hex')}`, cycle: 1, firstFailureAt });

  describe('with fake activities', () => {
    it('every retry is made exactly its ladder step after the failure before it: t0+1m, +5m, +30m, +2h, +24h (t0 .. t0+26h37m)', async () => {
      const t0 = await h.now();
      const fake = new FakeRetryActivities(h.env, () => 'failed');
      await h.retries(input(t0), fake.activities(), async (handle) => {
        await h.resultBy(handle, t0 + LADDER_TOTAL + MINUTE);
      });
      expect(RETRY_LADDER_MS).to.deep.equal(SPEC_LADDER);
      const attempts = fake.attempts;
      expect(attempts.map((c) => (c.input as { retry: number }).retry)).to.deep.equal([1, 2, 3, 4, 5]);
      // Both readings of the server's clock agree: each call really happened at a skipped-to instant.
      for (const c of fake.calls) expect(Math.abs(c.serverNow - c.scheduledAt), 'activity clock vs scheduled time').to.be.below(SLACK);
      // The first retry is one minute after the first failure, not after the workflow's start.
      expect((attempts[0]?.scheduledAt as number) - t0).to.be.within(MINUTE, MINUTE + SLACK);
      // Each later one is its step after the failure before it: never early, at most the slack late.
      const gaps = attempts.slice(1).map((c, i) => c.scheduledAt - (attempts[i]?.scheduledAt as number));
      expect(gaps).to.have.length(4);
      gaps.forEach((gap, i) => expect(gap, `gap before retry ${i + 2}`).to.be.within(SPEC_LADDER[i + 1] as number, (SPEC_LADDER[i + 1] as number) + SLACK));
    });

    it('the sixth failure (the fifth retry) marks the delivery failed at once; no seventh attempt follows (t0 .. t0+26h37m, then 3 days more)', async () => {
      const t0 = await h.now();
      const fake = new FakeRetryActivities(h.env, () => 'failed');
      const retryInput = input(t0);
      await h.retries(retryInput, fake.activities(), async (handle) => {
        const result = await h.resultBy(handle, t0 + LADDER_TOTAL + MINUTE);
        expect(result).to.deep.equal({ outcome: 'failed', retries: 5 });
        await h.sleepUntil(t0 + LADDER_TOTAL + 3 * 24 * HOUR);
      });
      // Each retry tells the activity the delay of the next one for the delivery log; none after the last.
      expect(fake.attempts.map((c) => c.input)).to.deep.equal(
        [1, 2, 3, 4, 5].map((retry) => ({ deliveryId: retryInput.deliveryId, cycle: 1, retry, nextRetryInMs: SPEC_LADDER[retry] ?? null })),
      );
      expect(fake.failedMarks.map((c) => c.input)).to.deep.equal([{ deliveryId: retryInput.deliveryId, cycle: 1 }]);
      const fifth = fake.attempts[4]?.scheduledAt as number;
      expect((fake.failedMarks[0]?.scheduledAt as number) - fifth).to.be.within(0, SLACK);
      expect(fake.calls.map((c) => c.name)).to.deep.equal([...Array<string>(5).fill('attemptWebhookDelivery'), 'markWebhookDeliveryFailed']);
    });

    it('a retry workflow started late (the sweep after a crash) keeps the ladder counted from the failure: t0-45s failure → retry at t0+15s; t0-10m failure → retry at once, the next 5 min after it (t0 .. t0+6m)', async () => {
      const t0 = await h.now();
      const late = new FakeRetryActivities(h.env, () => 'delivered');
      await h.retries(input(t0 - 45_000), late.activities(), async (handle) => {
        expect(await h.resultBy(handle, t0 + MINUTE)).to.deep.equal({ outcome: 'delivered', retries: 1 });
      });
      expect((late.attempts[0]?.scheduledAt as number) - t0).to.be.within(15_000, 15_000 + SLACK);

      const t1 = await h.now();
      const veryLate = new FakeRetryActivities(h.env, (retry) => (retry === 1 ? 'failed' : 'delivered'));
      await h.retries(input(t1 - 10 * MINUTE), veryLate.activities(), async (handle) => {
        expect(await h.resultBy(handle, t1 + 6 * MINUTE)).to.deep.equal({ outcome: 'delivered', retries: 2 });
      });
      const [first, second] = veryLate.attempts.map((c) => c.scheduledAt) as [number, number];
      expect(first - t1).to.be.within(0, SLACK);
      expect(second - first).to.be.within(5 * MINUTE, 5 * MINUTE + SLACK);
    });

    it("the service's own trouble (the activity throws) is retried within seconds and uses up no step of the ladder (t0 .. t0+7m)", async () => {
      const t0 = await h.now();
      // Retry 2 finds the database down twice, then the receiver answers 2xx.
      const fake = new FakeRetryActivities(h.env, (retry, activityAttempt) => (retry === 1 ? 'failed' : activityAttempt <= 2 ? serviceTrouble() : 'delivered'));
      await h.retries(input(t0), fake.activities(), async (handle) => {
        expect(await h.resultBy(handle, t0 + 7 * MINUTE)).to.deep.equal({ outcome: 'delivered', retries: 2 });
      });
      const second = fake.attempts.filter((c) => (c.input as { retry: number }).retry === 2);
      expect(second.map((c) => c.activityAttempt)).to.deep.equal([1, 2, 3]);
      // Read on the server clock: on the test server a retried activity's scheduled timestamp is
      // the instant the attempt before it failed, not the end of the backoff.
      const [a, b, c] = second.map((x) => x.serverNow) as [number, number, number];
      expect(a - (fake.attempts[0]?.serverNow as number)).to.be.within(5 * MINUTE, 5 * MINUTE + SLACK);
      // Temporal's backoff (5 s, then 10 s), not the ladder's 30 minutes.
      expect(b - a).to.be.within(5_000, 5_000 + SLACK);
      expect(c - b).to.be.within(10_000, 10_000 + SLACK);
      expect(fake.attempts).to.have.length(4);
      expect(fake.failedMarks).to.deep.equal([]);
    });

    it('an attempt that finds its cycle superseded ends the workflow: no further retry, nothing marked failed (t0 .. t0+1d)', async () => {
      const t0 = await h.now();
      const fake = new FakeRetryActivities(h.env, (retry) => (retry === 1 ? 'failed' : 'superseded'));
      await h.retries(input(t0), fake.activities(), async (handle) => {
        expect(await h.resultBy(handle, t0 + 7 * MINUTE)).to.deep.equal({ outcome: 'superseded', retries: 2 });
        await h.sleepUntil(t0 + 24 * HOUR);
      });
      expect(fake.attempts).to.have.length(2);
      expect(fake.failedMarks).to.deep.equal([]);
    });
  });

  describe('with the real activities, PostgreSQL and a receiver on loopback', () => {
    let db: TestDatabase;
    let sequelize: Sequelize;
    let activities: RetryActivities;
    const receivers: WebhookReceiver[] = [];

    before(async () => {
      db = await createTestDatabase();
      sequelize = db.sequelize;
      const all = createActivities({ sequelize, config: testConfig(), log: createLogger('silent', 'test') });
      activities = { attemptWebhookDelivery: all.attemptWebhookDelivery, markWebhookDeliveryFailed: all.markWebhookDeliveryFailed };
    });
    afterEach(async () => {
      await Promise.all(receivers.splice(0).map((r) => r.close()));
    });
    after(async () => {
      await db?.drop();
    });

    const receiver = async (answer: (n: number) => number): Promise<WebhookReceiver> => {
      const r = await WebhookReceiver.start(answer);
      receivers.push(r);
      return r;
    };

    /** An account with webhook settings, a campaign, and a delivery to `url` whose first attempt failed. */
    const failedDelivery = async (url: string) => {
      const { accountId } = await createAccount(sequelize);
      const { secret } = await webhookSettings(sequelize, accountId);
      const campaign = await seedCampaign(accountId, { reportingWebhookUrl: url });
      const seeded = await seedRetryingDelivery(sequelize, { accountId, campaignId: campaign.id, url });
      return { ...seeded, secret, campaignId: campaign.id };
    };

    const flat = (headers: IncomingHttpHeaders): Record<string, string> =>
      Object.fromEntries(Object.entries(headers).flatMap(([k, v]) => (typeof v === 'string' ? [[k, v]] : [])));

    it('a receiver that recovers at the third retry gets the event three more times, the same bytes and id, each validly signed; then nothing more (t0 .. t0+37m, then 2 days more)', async () => {
      const hook = await receiver((n) => (n < 2 ? 500 : 200));
      const d = await failedDelivery(hook.url());
      const t0 = await h.now();
      await h.retries({ deliveryId: d.deliveryId, cycle: d.cycle, firstFailureAt: t0 }, activities, async (handle) => {
        expect(await h.resultBy(handle, t0 + 37 * MINUTE)).to.deep.equal({ outcome: 'delivered', retries: 3 });
        await h.sleepUntil(t0 + 37 * MINUTE + 48 * HOUR);
      });

      expect(hook.received.map((r) => r.status)).to.deep.equal([500, 500, 200]);
      const [first] = hook.received;
      for (const r of hook.received) {
        expect(r.rawBody.equals(first?.rawBody as Buffer), 'same bytes on every attempt').to.equal(true);
        expect(r.headers['webhook-id']).to.equal(d.eventId);
        expect(r.headers['content-type']).to.equal('application/json');
        const body = r.rawBody.toString('utf8');
        expect(r.headers['x-service-signature']).to.equal(`sha256=${createHmac('sha256', d.secret).update(r.rawBody).digest('hex')}`);
        expect(new Webhook(d.secret).verify(body, flat(r.headers))).to.deep.equal(JSON.parse(body));
      }
      expect(hook.events()[0]).to.include({ id: d.eventId, event: 'reply.received', campaign_id: d.campaignId });

      const row = await deliveryRow(sequelize, d.deliveryId);
      expect(row).to.include({ status: 'delivered', cycle: 1, attempt_count: 4, last_status_code: 200, last_error: null, next_attempt_at: null, failed_at: null });
      expect(row.delivered_at).to.be.instanceOf(Date);
      const attempts = await attemptRows(sequelize, d.deliveryId);
      expect(attempts.map((a) => [a.number, a.cycle, a.status_code, a.succeeded])).to.deep.equal([
        [1, 1, 500, false],
        [2, 1, 500, false],
        [3, 1, 500, false],
        [4, 1, 200, true],
      ]);
      expect(attempts.slice(1, 3).map((a) => a.error)).to.deep.equal(['HTTP 500', 'HTTP 500']);
    });

    it('a receiver that never recovers: six failures, then the delivery is failed with every attempt logged and the next retry shown while it waits (t0 .. t0+26h37m)', async () => {
      const hook = await receiver(() => 503);
      const d = await failedDelivery(hook.url());
      const t0 = await h.now();
      await h.retries({ deliveryId: d.deliveryId, cycle: d.cycle, firstFailureAt: t0 }, activities, async (handle) => {
        // After retry 1 (t0+1m): still retrying, the log shows retry 2 due 5 minutes after this failure.
        await h.sleepUntil(t0 + 2 * MINUTE);
        const waiting = await deliveryRow(sequelize, d.deliveryId);
        expect(waiting).to.include({ status: 'retrying', attempt_count: 2, last_status_code: 503, last_error: 'HTTP 503' });
        const dueIn = (waiting.next_attempt_at?.getTime() as number) - (waiting.last_attempt_at?.getTime() as number);
        expect(dueIn).to.be.within(5 * MINUTE, 5 * MINUTE + 1_000);

        expect(await h.resultBy(handle, t0 + LADDER_TOTAL + MINUTE)).to.deep.equal({ outcome: 'failed', retries: 5 });
      });
      expect(hook.received).to.have.length(5);
      const row = await deliveryRow(sequelize, d.deliveryId);
      expect(row).to.include({ status: 'failed', attempt_count: 6, last_status_code: 503, next_attempt_at: null, delivered_at: null });
      expect(row.failed_at).to.be.instanceOf(Date);
      const attempts = await attemptRows(sequelize, d.deliveryId);
      expect(attempts.map((a) => a.number)).to.deep.equal([1, 2, 3, 4, 5, 6]);
      expect(attempts.every((a) => !a.succeeded && a.cycle === 1)).to.equal(true);
    });

    it('a delivery resent meanwhile (its cycle moved on): the old cycle’s workflow posts nothing and ends superseded, the new cycle untouched (t0 .. t0+2m)', async () => {
      const hook = await receiver(() => 200);
      const d = await failedDelivery(hook.url());
      // As a resend leaves it: cycle 2, pending, held by a dispatcher (lease in the future here, so
      // that only the old cycle's workflow could touch it).
      await sequelize.query(
        `UPDATE webhook_deliveries SET status = 'pending', cycle = cycle + 1, lease_until = now() + interval '1 hour', retry_workflow_id = NULL, updated_at = now() WHERE id = $1`,
        { bind: [d.deliveryId] },
      );
      const t0 = await h.now();
      await h.retries({ deliveryId: d.deliveryId, cycle: 1, firstFailureAt: t0 }, activities, async (handle) => {
        expect(await h.resultBy(handle, t0 + 2 * MINUTE)).to.deep.equal({ outcome: 'superseded', retries: 1 });
      });
      expect(hook.received).to.deep.equal([]);
      expect(await deliveryRow(sequelize, d.deliveryId)).to.include({ status: 'pending', cycle: 2, attempt_count: 1 });
      expect(await attemptRows(sequelize, d.deliveryId)).to.have.length(1);
    });

    it('a delivery settled meanwhile (delivered by a resend cycle that already succeeded) is not posted again by an old workflow (t0 .. t0+2m)', async () => {
      const hook = await receiver(() => 200);
      const d = await failedDelivery(hook.url());
      await sequelize.query(`UPDATE webhook_deliveries SET status = 'delivered', cycle = 2, attempt_count = 2, delivered_at = now(), updated_at = now() WHERE id = $1`, {
        bind: [d.deliveryId],
      });
      const t0 = await h.now();
      await h.retries({ deliveryId: d.deliveryId, cycle: 1, firstFailureAt: t0 }, activities, async (handle) => {
        expect(await h.resultBy(handle, t0 + 2 * MINUTE)).to.deep.equal({ outcome: 'superseded', retries: 1 });
      });
      expect(hook.received).to.deep.equal([]);
      expect(await deliveryRow(sequelize, d.deliveryId)).to.include({ status: 'delivered', cycle: 2, attempt_count: 2 });
    });
  });
});

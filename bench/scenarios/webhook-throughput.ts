import os from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { newId } from '../../src/accounts/ids';
import { createEgress } from '../../src/egress';
import { DEFAULT_DISPATCHER_OPTIONS } from '../../src/webhooks/dispatch/dispatcher';
import { envelopeBody } from '../../src/webhooks/envelope';
import { postWebhook } from '../../src/webhooks/post-webhook';
import { signedHeaders } from '../../src/webhooks/signing';
import { Rounds } from '../lib/measure-server';
import type { Scenario } from '../lib/scenario';
import { intFromEnv } from '../lib/settings';
import { waitUntil } from '../lib/wait-until';
import {
  cpuUsed,
  dbCommits,
  deliveryStatuses,
  describeCpu,
  forEachLimited,
  insertOutboxEvents,
  latencyRow,
  replyData,
  startWebhookBench,
  usPerEvent,
  PROCESSES,
  type CpuName,
} from '../lib/webhook-bench';

/** The spec leaves throughput open; this is the share of a bare loop the dispatcher must keep. */
const TARGET_RATIO = 0.3;

/**
 * What held a round back, from its CPU figures: one process using a whole core is its JavaScript
 * thread saturated (Node runs a process's JS on one thread); all cores busy is the machine; else
 * the round spent its time waiting (round trips, commits, wake-ups).
 */
function boundBy(cpu: Record<CpuName, number | undefined>, wallMs: number, cores: number): string {
  const busiest = [...PROCESSES].sort((a, b) => (cpu[b] ?? 0) - (cpu[a] ?? 0))[0] as CpuName;
  const busiestCores = (cpu[busiest] ?? 0) / wallMs;
  const machineCores = cpu.machine === undefined ? undefined : cpu.machine / wallMs;
  if (busiestCores >= 0.9) return `bound by the ${busiest}'s CPU: it used ${busiestCores.toFixed(2)} of a core (its JavaScript runs on one thread)`;
  if (machineCores !== undefined && machineCores >= 0.9 * cores) return `bound by the machine's CPU: ${machineCores.toFixed(2)} of ${cores} cores busy (the ${busiest} the largest share)`;
  return `not CPU-bound (the ${busiest} used ${busiestCores.toFixed(2)} of a core, the machine ${machineCores?.toFixed(2) ?? '-'} of ${cores}): bound by waits (round trips, commits, wake-ups)`;
}

interface DispatchRound {
  readonly eventsPerSec: number;
  readonly insertMs: number;
  readonly wallMs: number;
  readonly cpu: Record<CpuName, number | undefined>;
  readonly requests: number;
  /** PostgreSQL transactions committed per event (pg_stat_database), the inserts included. */
  readonly commitsPerEvent: number;
}

/**
 * Webhook events per second, end to end, on the real path: outbox rows committed in PostgreSQL,
 * claimed by the worker's dispatcher (the worker role in its own process, with its Temporal dev
 * server), signed, posted through the egress client, recorded; against the bench posting the
 * same signed requests itself in a plain loop. Both go to one local receiver in its own process
 * (bench/servers/webhook-receiver.ts) that answers 200 at once and verifies every request.
 *
 *   dispatcher  BENCH_WEBHOOK_EVENTS reply.received events (5000) inserted in transactions of
 *               BENCH_WEBHOOK_BATCH (250) for an account whose global URL is the receiver: from
 *               the first insert to the receiver's arrival of the last distinct event id
 *   loop        the same number of envelopes, each signed (signedHeaders) and posted (postWebhook)
 *               through createEgress({allowLoopback}) at the dispatcher's concurrency to one
 *               receiver (48 in flight): from the first post to the last arrival
 *
 * Latency columns: dispatcher = its batch's commit -> arrival of each event (under saturation);
 * loop = one POST. Target: dispatcher/loop >= 0.3. BENCH_WEBHOOK_WARMUP (500) events go through
 * each path first, unmeasured.
 */
export const webhookThroughputScenario: Scenario = {
  name: 'webhook-throughput',
  description: 'webhook events/s: outbox -> worker dispatcher -> local receiver, vs the same signed POSTs in a plain loop',
  async run(ctx) {
    const count = intFromEnv('BENCH_WEBHOOK_EVENTS', 5000, 100, 100_000);
    const batch = intFromEnv('BENCH_WEBHOOK_BATCH', 250, 1, 5_000);
    const warmup = intFromEnv('BENCH_WEBHOOK_WARMUP', 500, 0, 20_000);
    // What the dispatcher may have in flight to one receiver: the loop gets the same.
    const concurrency = Math.min(DEFAULT_DISPATCHER_OPTIONS.maxInFlight, DEFAULT_DISPATCHER_OPTIONS.maxInFlightPerOrigin);
    const deliverTimeoutMs = 60_000 + count * 50;
    const bench = await startWebhookBench(ctx);
    const egress = createEgress({ allowLoopback: true, timeoutMs: 10_000, maxBytes: 1024 * 1024 });
    try {
      const { receiver } = bench;

      /** Every measured event through the dispatcher; checks every id arrived and every delivery is recorded. */
      const dispatch = async (n: number, label: string): Promise<{ round: DispatchRound; latencies: number[] }> => {
        await receiver.reset();
        const commitsBefore = await dbCommits(bench);
        const before = bench.cpu();
        const t0 = Date.now();
        const events = await insertOutboxEvents(bench, n, batch);
        const insertMs = Date.now() - t0;
        const stats = await receiver.waitForDistinct(n, deliverTimeoutMs, `${label}: ${n} events delivered`);
        const after = bench.cpu();
        await sleep(1_500); // PostgreSQL's counters lag by up to a second
        const commitsPerEvent = ((await dbCommits(bench)) - commitsBefore) / n;
        const arrivals = await receiver.arrivals();
        const latencies = events.map((e) => {
          const at = arrivals.get(e.id);
          if (at === undefined) throw new Error(`${label}: event ${e.id} never reached the receiver`);
          return at - e.committedAt;
        });
        const wallMs = (stats.lastNewAt as number) - t0;
        return { round: { eventsPerSec: (n * 1000) / wallMs, insertMs, wallMs, cpu: cpuUsed(before, after), requests: stats.requests, commitsPerEvent }, latencies };
      };

      /** The same signed POSTs from this process, `concurrency` in flight. */
      const loop = async (n: number, label: string): Promise<{ eventsPerSec: number; wallMs: number; cpu: Record<CpuName, number | undefined>; latencies: number[] }> => {
        const created = new Date();
        const envelopes = Array.from({ length: n }, (_v, i) => {
          const id = newId('evt');
          return { id, body: envelopeBody({ id, event: 'reply.received', createdAt: created, campaignId: bench.campaignId, data: replyData(i) }) };
        });
        await receiver.reset();
        const latencies: number[] = new Array<number>(n);
        const before = bench.cpu();
        const t0 = Date.now();
        await forEachLimited(n, concurrency, async (i) => {
          const { id, body } = envelopes[i] as { id: string; body: string };
          const outcome = await postWebhook(egress, receiver.hookUrl, body, signedHeaders(body, id, new Date(), bench.secrets));
          if (!outcome.ok) throw new Error(`${label}: POST ${i} failed: ${outcome.error}`);
          latencies[i] = outcome.durationMs;
        });
        const stats = await receiver.waitForDistinct(n, 30_000, `${label}: ${n} posts arrived`);
        const after = bench.cpu();
        const wallMs = (stats.lastNewAt as number) - t0;
        return { eventsPerSec: (n * 1000) / wallMs, wallMs, cpu: cpuUsed(before, after), latencies };
      };

      if (warmup > 0) {
        await dispatch(warmup, 'warm-up (dispatcher)');
        await loop(warmup, 'warm-up (loop)');
      }

      const rounds = new Rounds();
      const dispatchRounds: DispatchRound[] = [];
      const loopRounds: Array<{ eventsPerSec: number; wallMs: number; cpu: Record<CpuName, number | undefined> }> = [];
      for (let r = 0; r < ctx.settings.rounds; r++) {
        const l = await loop(count, `round ${r + 1} (loop)`);
        loopRounds.push(l);
        rounds.add(latencyRow('loop', l.latencies, l.eventsPerSec, { server: usPerEvent(l.cpu.receiver, count), postgres: usPerEvent(l.cpu.postgres, count), loadgen: usPerEvent(l.cpu.bench, count) }));
        const d = await dispatch(count, `round ${r + 1} (dispatcher)`);
        dispatchRounds.push(d.round);
        rounds.add(latencyRow('dispatcher', d.latencies, d.round.eventsPerSec, { server: usPerEvent(d.round.cpu.receiver, count), postgres: usPerEvent(d.round.cpu.postgres, count), loadgen: usPerEvent(d.round.cpu.worker, count) }));
      }

      // Every delivery recorded as delivered once (the record follows the answer by a moment).
      const total = warmup + count * ctx.settings.rounds;
      let statuses: Record<string, number> = {};
      await waitUntil(
        async () => {
          statuses = await deliveryStatuses(bench);
          return statuses.delivered === total ? true : undefined;
        },
        { what: `all ${total} deliveries recorded as delivered`, timeoutMs: 30_000, intervalMs: 200 },
        () => JSON.stringify(statuses),
      );
      if (Object.keys(statuses).length !== 1) throw new Error(`deliveries not all delivered: ${JSON.stringify(statuses)}`);

      const medianOf = <T extends { eventsPerSec: number }>(list: readonly T[]): T => [...list].sort((a, b) => a.eventsPerSec - b.eventsPerSec)[Math.floor((list.length - 1) / 2)] as T;
      const median = medianOf(dispatchRounds);
      const loopMedian = medianOf(loopRounds);
      const cores = os.cpus().length;
      const perEvent = (k: CpuName): string => (median.cpu[k] === undefined ? '-' : ((median.cpu[k] as number) * 1000 / count).toFixed(0));
      return {
        measurements: rounds.medians(),
        ratios: [{ numerator: 'dispatcher', denominator: 'loop', target: TARGET_RATIO }],
        notes: [
          '',
          `req/s = events/s delivered (distinct event ids at the receiver). ${count} events per round, ${warmup} warm-up events per path; ${concurrency} attempts in flight on both rows`,
          `  dispatcher  outbox insert (transactions of ${batch}) -> worker's dispatcher -> receiver; latency = batch commit -> arrival, under saturation; loadgen CPU = the worker`,
          '  loop        signedHeaders + postWebhook from the bench through createEgress; latency = one POST; loadgen CPU = the bench',
          '  server CPU = the receiver (answers 200 at once, then verifies each request with the receiver helper)',
          `dispatcher (median round): insert of ${count} events took ${median.insertMs} ms; all delivered ${median.wallMs} ms after the first insert; ${median.requests} requests for ${count} events`,
          `CPU during the dispatcher round: ${describeCpu(median.cpu, median.wallMs)}`,
          `  per event (us): worker ${perEvent('worker')}, postgres ${perEvent('postgres')}, temporal ${perEvent('temporal')}, receiver ${perEvent('receiver')}`,
          `  PostgreSQL transactions per event: ${median.commitsPerEvent.toFixed(2)} (the inserts included; counted by pg_stat_database)`,
          `  ${boundBy(median.cpu, median.wallMs, cores)}`,
          `CPU during the loop round (${loopMedian.wallMs} ms): ${describeCpu(loopMedian.cpu, loopMedian.wallMs)}`,
          `  ${boundBy(loopMedian.cpu, loopMedian.wallMs, cores)}`,
          `checked: every event id reached the receiver and verified (signature, timestamp, v1); all ${total} deliveries recorded as delivered`,
          ...rounds.notes(),
        ],
      };
    } finally {
      await egress.close();
      await bench.stop();
    }
  },
};

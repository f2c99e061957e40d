import { Client, Connection, WorkflowClient } from '@temporalio/client';
import { defaultPayloadConverter } from '@temporalio/common';
import { Worker } from '@temporalio/worker';
import { QueryTypes, type Sequelize } from 'sequelize';
import { createActivities } from '../../activities';
import { loadConfig } from '../../src/config/config';
import { createLogger } from '../../src/log/logger';
import { installTemporalRuntime } from '../../src/temporal/runtime-logging';
import { WORKFLOWS_PATH } from '../../src/worker/create-worker';
import { createTimeSkippingEnv } from '../../test/support/time-skipping';
import { RETRY_LADDER_MS, type WebhookRetryInput } from '../../workflows/webhooks/contract';
import { webhookDeliveryWorkflow } from '../../workflows/webhooks/delivery-workflow';
import { setPaused, type ChaosCampaign } from './campaigns';
import type { ChaosWebhookReceiver } from './webhook-receiver';

const HOUR = 3_600_000;
/** From the first failure to the last retry: 1 min + 5 min + 30 min + 2 h + 24 h. */
const LADDER_SPAN_MS = RETRY_LADDER_MS.reduce((a, b) => a + b, 0);

export interface OutageFigures {
  readonly downHours: number;
  /** Events written while the receiver was down (each campaign paused through the API). */
  readonly events: number;
  /** Of those, delivered once the receiver was back. */
  readonly delivered: number;
  readonly lost: number;
  /** Posts each event got, first attempt included. */
  readonly attempts: readonly number[];
  /** Simulated hours from the outage's start to the last attempt of any event. */
  readonly lastAttemptHours: number | null;
  /** Deliveries whose dev-server workflow had already made a retry before it was handed over (0: the handover was clean). */
  readonly retriedBeforeHandover: number;
  readonly deliveryStatuses: Readonly<Record<string, number>>;
}

interface DeliveryRow {
  id: string;
  event_id: string;
  status: string;
  attempt_count: number;
  retry_workflow_id: string | null;
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe().catch(() => undefined);
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out after ${Math.round(timeoutMs / 1000)} s waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

export interface OutageOptions {
  readonly sequelize: Sequelize;
  readonly receiver: ChaosWebhookReceiver;
  readonly campaigns: readonly ChaosCampaign[];
  /** The API and the dev server of the running service. */
  readonly baseUrl: string;
  readonly temporalAddress: string;
  readonly downHours: number;
  readonly log: (line: string) => void;
}

/**
 * The webhook receiver down for `downHours` of simulated time, and what became of the events
 * written meanwhile. The retry ladder is a Temporal workflow per delivery whose waits are server
 * timers (1 min to 24 h); the dev server cannot skip them, and moving timestamps in the database
 * would not move a timer. So:
 *
 * 1. On the running service: the receiver answers 503 from now on; each campaign is paused through
 *    the API (a campaign.paused event each); the dispatcher's first attempts fail and it starts
 *    one retry workflow per delivery on the dev server, due a minute after the failure.
 * 2. Within that minute, each retry workflow is handed over: its input is read from its history
 *    on the dev server and it is terminated there, then the same workflow (same id, same input,
 *    same code) is started on a Temporal time-skipping test server, whose worker runs the
 *    service's real activities against the same PostgreSQL and posts to the same receiver. The
 *    test server's clock is the real clock plus whatever it has skipped.
 * 3. The receiver goes by that clock: 503 until `downHours` after step 1 began, 200 after. The
 *    test server then skips ahead to the end of the outage or of the last ladder, whichever is
 *    later; every retry is a real POST at its simulated instant.
 *
 * Nothing but the clock is simulated: the attempts, their recording and the failure after the
 * last step are the service's own. A delivery whose first retry already ran on the dev server
 * before the handover is counted (retriedBeforeHandover).
 */
export async function simulateWebhookOutage(o: OutageOptions): Promise<OutageFigures> {
  const outageStart = Date.now();
  o.receiver.mode = { kind: 'down' };
  for (const c of o.campaigns) await setPaused(o.baseUrl, c, true);
  const campaignIds = o.campaigns.map((c) => c.campaignId);
  const events = await until(
    'a campaign.paused event of every campaign',
    async () => {
      const rows = await o.sequelize.query<{ id: string }>(`SELECT id FROM outbox WHERE campaign_id = ANY($1::text[]) AND event = 'campaign.paused' AND created_at >= $2`, {
        bind: [campaignIds, new Date(outageStart - 1_000)],
        type: QueryTypes.SELECT,
      });
      return rows.length >= o.campaigns.length ? rows.map((r) => r.id) : undefined;
    },
    60_000,
  );
  const deliveries = await until(
    'the first attempt of every event to fail and its retry workflow to start',
    async () => {
      const rows = await o.sequelize.query<DeliveryRow>(`SELECT id, event_id, status, attempt_count, retry_workflow_id FROM webhook_deliveries WHERE event_id = ANY($1::text[])`, {
        bind: [events],
        type: QueryTypes.SELECT,
      });
      const ready = rows.filter((r) => r.status === 'retrying' && r.retry_workflow_id !== null);
      return rows.length > 0 && ready.length === rows.length ? ready : undefined;
    },
    45_000,
  );
  o.log(`webhooks: ${events.length} events written with the receiver down; ${deliveries.length} retry workflows to hand over`);

  // Step 2: read each input and terminate it on the dev server.
  const inputs: WebhookRetryInput[] = [];
  const connection = await Connection.connect({ address: o.temporalAddress });
  try {
    const dev = new Client({ connection });
    for (const d of deliveries) {
      const handle = dev.workflow.getHandle(d.retry_workflow_id as string);
      const history = await handle.fetchHistory();
      const payload = history.events?.[0]?.workflowExecutionStartedEventAttributes?.input?.payloads?.[0];
      if (payload === undefined) throw new Error(`retry workflow ${handle.workflowId} has no input in its history`);
      inputs.push(defaultPayloadConverter.fromPayload<WebhookRetryInput>(payload as Parameters<typeof defaultPayloadConverter.fromPayload>[0]));
      await handle.terminate('chaos run: moved to a time-skipping server to simulate the outage');
    }
  } finally {
    await connection.close();
  }
  const afterHandover = await o.sequelize.query<{ n: number }>(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE id = ANY($1::text[]) AND attempt_count > 1`, {
    bind: [deliveries.map((d) => d.id)],
    type: QueryTypes.SELECT,
  });
  const retriedBeforeHandover = afterHandover[0]?.n ?? 0;

  // Step 3: the same workflows on the time-skipping server, with the service's real activities.
  // The SDK's own logs (bundling, worker states) would fill the report: they go nowhere.
  installTemporalRuntime(createLogger('silent', 'chaos'));
  const env = await createTimeSkippingEnv();
  try {
    const config = loadConfig({ ...process.env, ALLOW_LOOPBACK_EGRESS: 'true', LOG_LEVEL: 'silent', DATA_DIR: '/nonexistent' });
    const all = createActivities({ sequelize: o.sequelize, config, log: createLogger('silent', 'chaos') });
    const taskQueue = 'chaos-webhook-outage';
    const worker = await Worker.create({
      connection: env.nativeConnection,
      namespace: 'default',
      taskQueue,
      workflowsPath: WORKFLOWS_PATH,
      activities: { attemptWebhookDelivery: all.attemptWebhookDelivery, markWebhookDeliveryFailed: all.markWebhookDeliveryFailed },
    });
    const downUntil = outageStart + o.downHours * HOUR;
    o.receiver.mode = { kind: 'down-until', until: downUntil, clock: () => env.currentTimeMs() };
    const lastFailure = Math.max(...inputs.map((i) => i.firstFailureAt));
    await worker.runUntil(async () => {
      for (const input of inputs) {
        const id = deliveries.find((d) => d.id === input.deliveryId)?.retry_workflow_id as string;
        await env.client.workflow.start(webhookDeliveryWorkflow, { taskQueue, workflowId: id, args: [input] });
      }
      const endAt = Math.max(downUntil, lastFailure + LADDER_SPAN_MS) + 10 * 60_000;
      o.log(`webhooks: skipping ${((endAt - (await env.currentTimeMs())) / HOUR).toFixed(1)} simulated hours`);
      await env.sleep(Math.max(0, endAt - (await env.currentTimeMs())));
      // Read through a plain client: the time-skipping client's result() would unlock skipping again.
      const plain = new WorkflowClient({ connection: env.connection, namespace: 'default' });
      for (const input of inputs) {
        const id = deliveries.find((d) => d.id === input.deliveryId)?.retry_workflow_id as string;
        const handle = plain.getHandle<typeof webhookDeliveryWorkflow>(id);
        const status = (await handle.describe()).status.name;
        if (status !== 'COMPLETED') throw new Error(`retry workflow ${id} is ${status} after the simulated outage`);
        await handle.result();
      }
    });
  } finally {
    await env.teardown();
  }

  const rows = await o.sequelize.query<{ status: string }>(`SELECT status FROM webhook_deliveries WHERE event_id = ANY($1::text[])`, { bind: [events], type: QueryTypes.SELECT });
  const deliveryStatuses: Record<string, number> = {};
  for (const r of rows) deliveryStatuses[r.status] = (deliveryStatuses[r.status] ?? 0) + 1;
  const posts = o.receiver.requests.filter((r) => events.includes(r.eventId));
  const delivered = events.filter((id) => o.receiver.delivered(id)).length;
  const last = posts.length === 0 ? null : Math.max(...posts.map((p) => p.clockAt));
  return {
    downHours: o.downHours,
    events: events.length,
    delivered,
    lost: events.length - delivered,
    attempts: events.map((id) => posts.filter((p) => p.eventId === id).length),
    lastAttemptHours: last === null ? null : (last - outageStart) / HOUR,
    retriedBeforeHandover,
    deliveryStatuses,
  };
}

export function formatOutage(f: OutageFigures): string[] {
  const statuses = Object.entries(f.deliveryStatuses).map(([k, v]) => `${v} ${k}`).join(', ');
  const attempts = [...new Set(f.attempts)].sort((a, b) => a - b).join(' or ');
  const last = f.lastAttemptHours === null ? '' : `, the last at +${f.lastAttemptHours.toFixed(1)} h`;
  return [
    `  receiver down for ${f.downHours} simulated hours: ${f.events} events written as it went down (campaign.paused)`,
    `    delivered once it was back                 ${f.delivered}`,
    `    webhook events lost                        ${f.lost} (deliveries: ${statuses || 'none'})`,
    `    posts per event                            ${attempts || '0'} (first attempt and the ladder's retries${last})`,
    `    retried on the dev server before handover  ${f.retriedBeforeHandover}`,
    ...(f.lost > 0 && f.lastAttemptHours !== null && f.lastAttemptHours < f.downHours
      ? [`    the ladder's last retry comes ${(LADDER_SPAN_MS / HOUR).toFixed(1)} h after the first failure: an outage longer than that loses`,
         '    every event written at its start (a failed delivery can be resent: POST /v1/webhook-deliveries/:id/resend)']
      : []),
  ];
}

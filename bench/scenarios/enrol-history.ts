import * as proto from '@temporalio/proto';
import { performance } from 'node:perf_hooks';
import { at, CampaignHarness, firstDateAfter, plusDays, type CampaignHandle } from '../../test/workflows/support/campaign-harness';
import type { CampaignStatusView, LeadTrack } from '../../workflows/campaign/contract';
import { newLead } from '../../workflows/campaign/sequence';
import type { Scenario } from '../lib/scenario';
import { intFromEnv } from '../lib/settings';

/**
 * Issue 27 point 3: the workflow history of a campaign of 50,000 leads in enrolment mode, against
 * what the per-lead-list runs carried. The whole campaign (customer_feedback: 30 new leads a day,
 * two steps five days apart) runs on the time-skipping server with the fake activities
 * (test/workflows/support/fake-activities.ts, leadPool = the leads), then every run's history is
 * fetched and measured in protobuf bytes, as the server stores it. About a minute.
 * test/workflows/campaign-enrolment-history.test.ts asserts the bounds on the same run.
 */
export interface RunSize {
  readonly runId: string;
  readonly events: number;
  readonly bytes: number;
  readonly largestEvent: number;
  readonly largestEventType: string;
}

export interface HistoryMeasurement {
  readonly result: CampaignStatusView;
  readonly runs: readonly RunSize[];
  readonly activityCalls: number;
  readonly wallS: number;
}

export const HISTORY_TEMPLATE = 'customer_feedback';
const PER_DAY = 30;

/** Every run of the campaign's workflow, oldest first, each walked back through continuedExecutionRunId. */
export async function runSizes(h: CampaignHarness, handle: CampaignHandle): Promise<RunSize[]> {
  const sizes: RunSize[] = [];
  let runId: string | undefined = (await handle.describe()).runId;
  for (let i = 0; runId !== undefined && i < 1_000; i++) {
    const history: proto.temporal.api.history.v1.IHistory = await h.env.client.workflow.getHandle(handle.workflowId, runId).fetchHistory();
    const events: proto.temporal.api.history.v1.IHistoryEvent[] = history.events ?? [];
    let largest = 0;
    let largestType = '';
    for (const e of events) {
      const n = proto.temporal.api.history.v1.HistoryEvent.encode(e).finish().length;
      if (n > largest) {
        largest = n;
        largestType = String(proto.temporal.api.enums.v1.EventType[e.eventType ?? 0]);
      }
    }
    sizes.push({ runId, events: events.length, bytes: proto.temporal.api.history.v1.History.encode(history).finish().length, largestEvent: largest, largestEventType: largestType });
    const previous: string | null | undefined = events[0]?.workflowExecutionStartedEventAttributes?.continuedExecutionRunId;
    runId = previous === null || previous === undefined || previous === '' ? undefined : previous;
  }
  return sizes.reverse();
}

/** Runs a whole campaign of `leads` in a started harness and measures its history. */
export async function measureEnrolmentHistory(h: CampaignHarness, leads: number): Promise<HistoryMeasurement> {
  const startDate = firstDateAfter(await h.now(), () => true);
  const days = Math.ceil(leads / PER_DAY) + 10;
  let measured: HistoryMeasurement | undefined;
  await h.campaign({ startDate, mcp: HISTORY_TEMPLATE }, { leadPool: leads }, async ({ fake, handle }) => {
    const t0 = performance.now();
    const result = await h.resultBy(handle, at(plusDays(startDate, days), '18:00'));
    const wallS = (performance.now() - t0) / 1000;
    measured = { result, runs: await runSizes(h, handle), activityCalls: fake.calls.length, wallS };
  });
  if (measured === undefined) throw new Error('the campaign was not measured');
  return measured;
}

/** JSON bytes of `n` LeadTracks as the per-lead-list runs carried them (lead ids as the service makes them). */
export function carriedTracksBytes(n: number, track: (id: string) => LeadTrack): number {
  let bytes = 2 + Math.max(0, n - 1); // [ , ... ]
  for (let i = 0; i < n; i++) bytes += Buffer.byteLength(JSON.stringify(track(`lead_${String(i).padStart(16, '0')}`)));
  return bytes;
}

const kib = (b: number): string => `${(b / 1024).toFixed(0)} KiB`;
const mib = (b: number): string => `${(b / 1024 / 1024).toFixed(2)} MiB`;

export const enrolHistoryScenario: Scenario = {
  name: 'enrol-history',
  description: 'workflow history of a whole 50k-lead campaign in enrolment mode (time-skipping, fake activities) vs the old carried LeadTracks',
  async run() {
    const leads = intFromEnv('BENCH_HISTORY_LEADS', 50_000, 100, 200_000);
    const h = new CampaignHarness();
    await h.start();
    try {
      const m = await measureEnrolmentHistory(h, leads);
      const total = m.runs.reduce((a, s) => ({ events: a.events + s.events, bytes: a.bytes + s.bytes }), { events: 0, bytes: 0 });
      const biggest = m.runs.reduce((a, s) => (s.bytes > a.bytes ? s : a), m.runs[0]!);
      const largest = m.runs.reduce((a, s) => (s.largestEvent > a.largestEvent ? s : a), m.runs[0]!);
      const queued = carriedTracksBytes(leads, (id) => newLead(id, '2026-12-01'));
      const mid = carriedTracksBytes(leads, (id) => ({
        leadId: id,
        step: 0,
        nextDay: '2026-12-06',
        subject: 'A short call about your experience with Acme Analytics?',
        thread: [`<${id}.0.2f1c9a7e5b@mail.product.example>`],
      }));
      const excludeBytes = Buffer.byteLength(JSON.stringify(Array.from({ length: leads }, (_, i) => `lead_${String(i).padStart(16, '0')}`)));
      return {
        measurements: [],
        ratios: [],
        notes: [
          `campaign: ${leads} leads, ${HISTORY_TEMPLATE} (${PER_DAY} new a day, two steps 5 days apart), daily, run to its end on the time-skipping server with the fake activities: ${m.result.status} (${String(m.result.reason)}) in ${m.wallS.toFixed(0)} s`,
          `  counters: ${JSON.stringify(m.result.counters)}; ${m.activityCalls} activity calls`,
          `enrolment mode, the whole campaign: ${m.runs.length} runs (continue-as-new), ${total.events} events, ${kib(total.bytes)} of history in all`,
          `  largest run: ${biggest.events} events, ${kib(biggest.bytes)}; largest event of any run: ${largest.largestEvent} bytes (${largest.largestEventType})`,
          ...m.runs.map((s, i) => `  run ${i + 1}: ${s.events} events, ${kib(s.bytes)}, largest event ${s.largestEvent} bytes (${s.largestEventType})`),
          `per-lead-list mode (before): the run's state held a LeadTrack per lead whose sequence was under way, and planning got the taken ids as \`exclude\`;`,
          `  ${leads} tracks queued (newLead): ${mib(queued)} of JSON (${Math.round(queued / leads)} bytes a lead); after their first step (subject and one Message-ID): ${mib(mid)} (${Math.round(mid / leads)} bytes a lead)`,
          `  \`exclude\` of ${leads} ids: ${mib(excludeBytes)} in every planLeads input; continue-as-new input = the tracks: past the server's 2 MiB payload limit (default blob size limit) in both cases`,
        ],
      };
    } finally {
      await h.stop();
    }
  },
};

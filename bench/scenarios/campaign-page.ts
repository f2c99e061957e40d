import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { AccountService } from '../../src/accounts/account-service';
import { signIn } from '../../test/support/dashboard-session';
import { seedCampaignPage } from '../lib/campaign-page-seed';
import { timePageParts } from '../lib/campaign-page-parts';
import { processCpuMs } from '../lib/cpu-usage';
import { latencyRow } from '../lib/latency-row';
import type { Measurement } from '../lib/load';
import { UNREACHED_RATE_LIMITS } from '../lib/rate-limits';
import type { Scenario } from '../lib/scenario';
import { intFromEnv } from '../lib/settings';
import { emptySample, timedBlock, type TimedSample } from '../lib/timed-block';
import { percentile } from '../lib/wait-until';

/**
 * The campaign page (`GET /dashboard/campaigns/:id`, a signed-in session) of a campaign with
 * 100,000 sent emails, against `GET /campaigns/:id/stats` (a Bearer key) of the same campaign, on
 * the same real API role, in the same run: one request at a time (server time per request, not
 * throughput), alternating blocks after a warm-up. The issue's promise: the page under 300 ms at
 * the server, and at most 3 times the statistics' own time.
 */

type Sample = TimedSample;

function rowOf(label: string, s: Sample): Measurement {
  const n = s.latencies.length;
  // One request at a time: requests/s is 1 / mean latency, so the ratio of two rows is the inverse ratio of their mean times.
  return latencyRow(label, s.latencies, n / (s.wallMs / 1000), { server: (s.cpuMs * 1000) / n, postgres: pgCpuKnown(s) ? (s.pgCpuMs * 1000) / n : undefined });
}

/**
 * PostgreSQL's CPU is read over the postmaster and its live backends: a pooled connection closed
 * during the run (idle timeout) takes its CPU time with it, so a negative sum means unknown.
 */
const pgCpuKnown = (s: Sample): boolean => s.pgCpuMs >= 0;

const sorted = (s: Sample): number[] => [...s.latencies].sort((a, b) => a - b);
const mean = (s: Sample): number => s.latencies.reduce((a, b) => a + b, 0) / s.latencies.length;
const ms = (v: number): string => v.toFixed(1);

/** The page's "Sent" figure as campaign-view.ts formats it (count(): en-US grouping). */
const sentFigure = (n: number): string => `<div class="muted">Sent</div><div class="value">${new Intl.NumberFormat('en-US').format(n)}</div>`;

export const campaignPageScenario: Scenario = {
  name: 'campaign-page',
  description: 'GET /dashboard/campaigns/:id of a campaign with 100k sent emails vs GET /campaigns/:id/stats, one request at a time',
  async run(ctx) {
    const emails = intFromEnv('BENCH_PAGE_EMAILS', 100_000, 1_000, 1_000_000);
    const requests = intFromEnv('BENCH_PAGE_REQUESTS', 100, 10, 10_000);
    const warmup = intFromEnv('BENCH_PAGE_WARMUP', 10, 1, 1_000);
    const blockSize = intFromEnv('BENCH_PAGE_BLOCK', 10, 1, 1_000);
    const maxS = intFromEnv('BENCH_PAGE_SECONDS', 120, 5, 3_600);
    const db = await ctx.database();
    const pgPid = await ctx.postgresPid();

    const setup0 = performance.now();
    const { account, key } = await new AccountService(db.sequelize).createAccount('Bench Pages', 'pro');
    const seeded = await seedCampaignPage(db.sequelize, account.id, emails);
    const setupS = (performance.now() - setup0) / 1000;

    const serviceEnv: Record<string, string> = {
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: path.join(ctx.tmpDir, 'data'),
      DATABASE_URL: db.url,
      TEMPORAL_ADDRESS: '127.0.0.1:1', // nothing listens there; the client is lazy and neither request uses it
      TEMPORAL_UI_URL: 'http://127.0.0.1:8233', // the page links to the workflow, as it does on a deployment
      LOG_LEVEL: ctx.settings.serviceLogLevel,
      ...UNREACHED_RATE_LIMITS,
    };
    const server = await ctx.startServer({ name: 'stack', script: 'bench/servers/stack.ts', env: { BENCH_SERVICE_ENV: JSON.stringify(serviceEnv) }, logToFile: true });
    const notes: string[] = [];
    try {
      const session = await signIn(server.url, key.apiKey);
      const pagePath = `/dashboard/campaigns/${seeded.campaignId}`;
      const statsUrl = `${server.url}/campaigns/${seeded.campaignId}/stats`;
      const auth = { authorization: `Bearer ${key.apiKey}` };
      const wantSent = sentFigure(emails);
      let pageBytes = 0;
      let statsBody = '';

      // Every answer is checked: a fast error page or 401 is not a result.
      const page = async (): Promise<void> => {
        const res = await session.get(pagePath);
        if (res.status !== 200) throw new Error(`GET ${pagePath}: ${res.status} ${res.location ?? ''}\n${res.text.slice(0, 500)}`);
        if (!res.text.includes(wantSent)) throw new Error(`GET ${pagePath}: the page does not show ${wantSent}`);
        pageBytes = Buffer.byteLength(res.text);
      };
      const stats = async (): Promise<void> => {
        const res = await fetch(statsUrl, { headers: auth });
        const text = await res.text();
        if (res.status !== 200) throw new Error(`GET /campaigns/:id/stats: ${res.status} ${text.slice(0, 500)}`);
        if (!text.includes(`"emails_sent":${emails}`)) throw new Error(`GET /campaigns/:id/stats: emails_sent is not ${emails}: ${text.slice(0, 500)}`);
        statsBody = text;
      };

      const serverCpu = (): number | undefined => processCpuMs(server.pid);
      // Warm-up: first compilations, the chart's parsed spec, prepared statements on each pooled connection.
      await timedBlock(null, warmup, stats, serverCpu, pgPid);
      await timedBlock(null, warmup, page, serverCpu, pgPid);
      const pageS = emptySample();
      const statsS = emptySample();
      const deadline = performance.now() + maxS * 1000;
      let statsFirst = true;
      while (pageS.latencies.length < requests && performance.now() < deadline) {
        const n = Math.min(blockSize, requests - pageS.latencies.length);
        // Blocks take turns going first, so a drift in the machine's load falls on both.
        if (statsFirst) {
          await timedBlock(statsS, n, stats, serverCpu, pgPid);
          await timedBlock(pageS, n, page, serverCpu, pgPid);
        } else {
          await timedBlock(pageS, n, page, serverCpu, pgPid);
          await timedBlock(statsS, n, stats, serverCpu, pgPid);
        }
        statsFirst = !statsFirst;
      }

      const stats0 = JSON.parse(statsBody) as { stats: Record<string, number> };
      const pageP50 = percentile(sorted(pageS), 50);
      const statsP50 = percentile(sorted(statsS), 50);
      const line = (label: string, s: Sample): string =>
        `  ${label.padEnd(5)}  p50 ${ms(percentile(sorted(s), 50))}  p95 ${ms(percentile(sorted(s), 95))}  mean ${ms(mean(s))}  max ${ms(sorted(s).at(-1) ?? 0)} ms  (${s.latencies.length} requests; server CPU ${ms(s.cpuMs / s.latencies.length)} ms, PostgreSQL CPU ${pgCpuKnown(s) ? ms(s.pgCpuMs / s.latencies.length) : '-'} ms per request)`;
      notes.push(
        '',
        `campaign: ${seeded.emails} emails sent over the last 30 days to ${seeded.leads} leads (3 steps, an A/B test on the first), ${seeded.factRows} facts, ${seeded.replies} replies, ${seeded.costRows} cost rows; setup ${setupS.toFixed(1)} s`,
        `  stats answer: emails_sent ${stats0.stats.emails_sent}, delivered ${stats0.stats.delivered}, opened ${stats0.stats.opened}, clicked ${stats0.stats.clicked}, replied ${stats0.stats.replied}; page ${pageBytes} bytes`,
        `one request at a time, ${warmup} of each to warm up, then blocks of ${blockSize} alternating (taking turns first); times are the client's (loopback, keep-alive), from request to the last byte`,
        line('page', pageS),
        line('stats', statsS),
        `page/stats time: p50 ${(pageP50 / statsP50).toFixed(2)}x, mean ${(mean(pageS) / mean(statsS)).toFixed(2)}x (target: at most 3x)`,
        '  the ratio row above is page/stats of requests per second, one at a time = stats mean time / page mean time; target >= 1/3 is the page at most 3x the stats',
        `target page p50 < 300 ms: ${pageP50 < 300 ? 'met' : 'MISSED'} (${ms(pageP50)} ms)`,
      );

      // Where the page's time goes, timed in this process on its own pool (the server's code, not its process).
      notes.push(...(await timePageParts(db.url, account.id, seeded.campaignId)));
      return {
        measurements: [rowOf('page', pageS), rowOf('stats', statsS)],
        ratios: [{ numerator: 'page', denominator: 'stats', target: 1 / 3 }],
        notes,
      };
    } finally {
      await server.stop();
    }
  },
};

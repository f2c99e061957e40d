import fs from 'node:fs';
import path from 'node:path';
import { freePort } from '../../src/net/ports';
import type { RunningServer } from './child-server';
import type { BenchContext } from './context';
import type { BenchDatabase } from './postgres';
import { childPids } from './process-memory';
import { UNREACHED_RATE_LIMITS } from './rate-limits';

/** What the worker child reports about itself (bench/servers/worker.ts). */
export interface WorkerInfo {
  readonly maxCachedWorkflows: number;
  readonly tuner: unknown;
  readonly maxHeapMiB: number;
  readonly overrides: Record<string, unknown> | null;
}

export interface CampaignStackOptions {
  /** Also run the API role (bench/servers/stack.ts) against the same PostgreSQL and Temporal. */
  readonly api: boolean;
  /** BENCH_WORKER_OPTIONS for the worker child (diagnostic overrides; see bench/servers/worker.ts). */
  readonly workerOptions?: string;
  /** Directory for the dev server's SQLite file (default: the run's temporary directory). */
  readonly temporalParentDir?: string;
}

/**
 * The campaign path as separate processes, the way a deployment runs it: the run's PostgreSQL,
 * one Temporal dev server (as `npm start` launches it), one worker role, optionally the API role,
 * a local SMTP sink (SMTP_URL) and the company site every campaign targets. All local, on free
 * ports of 127.0.0.1.
 */
export interface CampaignStack {
  readonly db: BenchDatabase;
  readonly temporalAddress: string;
  readonly taskQueue: string;
  readonly worker: RunningServer;
  readonly api: RunningServer | undefined;
  readonly sink: RunningServer;
  /** Origin of the target site (a campaign's target_url). */
  readonly siteOrigin: string;
  readonly workerInfo: WorkerInfo | undefined;
  /** The service's variables the worker and the API run with. */
  readonly serviceEnv: Readonly<Record<string, string>>;
  /** Pid of the Temporal server itself (the CLI under its Node launcher), when found. */
  temporalServerPid(): number | undefined;
  /** Pid of the launcher: processTreeCpuMs of it covers the server. */
  readonly temporalLauncherPid: number;
  /** Where the dev server's SQLite file lives, for the notes. */
  readonly temporalStorage: string;
  /** Stops everything this started (API first, then worker, Temporal, sink, site). Idempotent. */
  stop(): Promise<void>;
}

export const BENCH_TASK_QUEUE = 'bench-campaigns';

/**
 * BENCH_TEMPORAL_DIR: where the dev server keeps its SQLite file instead of the run's directory,
 * e.g. a tmpfs, to see how much of a figure is the disk's fsyncs. Checked before anything starts.
 */
export function temporalParentDirFromEnv(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const dir = env.BENCH_TEMPORAL_DIR;
  if (dir === undefined || dir === '') return undefined;
  if (!path.isAbsolute(dir) || !fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) {
    throw new Error(`BENCH_TEMPORAL_DIR=${dir}: expected an existing directory, as an absolute path`);
  }
  return dir;
}

export async function startCampaignStack(ctx: BenchContext, opts: CampaignStackOptions): Promise<CampaignStack> {
  const started: RunningServer[] = [];
  const stopAll = async (): Promise<void> => {
    for (const s of [...started].reverse()) await s.stop().catch(() => undefined);
  };
  /** Starts servers side by side; each one that started is stopped again if another failed. */
  const startAll = async <T extends readonly Promise<RunningServer | undefined>[]>(...starts: T): Promise<{ [K in keyof T]: Awaited<T[K]> }> => {
    const settled = await Promise.allSettled(starts);
    for (const s of settled) if (s.status === 'fulfilled' && s.value !== undefined) started.push(s.value);
    const failed = settled.find((s) => s.status === 'rejected');
    if (failed !== undefined) throw failed.reason;
    return settled.map((s) => (s as PromiseFulfilledResult<unknown>).value) as { [K in keyof T]: Awaited<T[K]> };
  };
  // The dev server's SQLite file: in the run's directory (on disk, as `npm start` keeps it in
  // DATA_DIR) unless BENCH_TEMPORAL_DIR names another parent, e.g. a tmpfs to take the disk's
  // fsyncs out of the figures. Outside the run's directory it is removed again on stop.
  const parent = opts.temporalParentDir ?? ctx.tmpDir;
  const temporalDir = path.join(parent, `temporal-${path.basename(ctx.tmpDir)}`);
  const removeTemporalDir = async (): Promise<void> => {
    if (parent !== ctx.tmpDir && !ctx.settings.keepTmp) await fs.promises.rm(temporalDir, { recursive: true, force: true });
  };
  const stopEverything = async (): Promise<void> => {
    await stopAll();
    await removeTemporalDir();
  };
  try {
    const db = await ctx.database();
    const [site, sink, temporal] = await startAll(
      ctx.startServer({ name: 'target-site', script: 'bench/servers/target-site.ts' }),
      ctx.startServer({ name: 'smtp-sink', script: 'bench/servers/smtp-sink.ts', env: { BENCH_SINK_DIR: path.join(ctx.tmpDir, 'mail-sink') }, logToFile: true }),
      ctx.startServer({ name: 'temporal', script: 'bench/servers/temporal-dev.ts', env: { BENCH_TEMPORAL_DIR: temporalDir, BENCH_TEMPORAL_REMOVE: parent !== ctx.tmpDir && !ctx.settings.keepTmp ? '1' : '' }, logToFile: true, readyTimeoutMs: 120_000 }),
    );
    const temporalAddress = `127.0.0.1:${new URL(temporal.url).port}`;
    const serviceEnv: Record<string, string> = {
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: path.join(ctx.tmpDir, 'data'),
      DATABASE_URL: db.url,
      TEMPORAL_ADDRESS: temporalAddress,
      TEMPORAL_TASK_QUEUE: BENCH_TASK_QUEUE,
      LOG_LEVEL: ctx.settings.serviceLogLevel,
      SMTP_URL: `smtp://127.0.0.1:${new URL(sink.url).port}`,
      INBOUND_SMTP_PORT: String(await freePort()),
      PUBLIC_BASE_URL: 'https://track.bench.example',
      ...UNREACHED_RATE_LIMITS, // pause-latency polls GET /campaigns/:id far past Pro's 1000 a minute
      TRACKING_SECRET: 'bench-tracking-secret',
      DEFAULT_FROM_EMAIL: 'sam@product.example',
      // The target site is on 127.0.0.1: the scrape must be allowed to reach it (dev/test setting).
      ALLOW_LOOPBACK_EGRESS: 'true',
    };
    const infoFile = path.join(ctx.tmpDir, 'worker-info.json');
    const workerEnv: Record<string, string> = { BENCH_SERVICE_ENV: JSON.stringify(serviceEnv), BENCH_WORKER_INFO: infoFile };
    if (opts.workerOptions !== undefined && opts.workerOptions.trim() !== '') workerEnv.BENCH_WORKER_OPTIONS = opts.workerOptions;
    const [worker, api] = await startAll(
      ctx.startServer({ name: 'worker', script: 'bench/servers/worker.ts', env: workerEnv, logToFile: true, readyTimeoutMs: 180_000 }),
      opts.api ? ctx.startServer({ name: 'campaign-api', script: 'bench/servers/stack.ts', env: { BENCH_SERVICE_ENV: JSON.stringify(serviceEnv) }, logToFile: true }) : Promise.resolve(undefined),
    );
    const workerInfo = fs.existsSync(infoFile) ? (JSON.parse(fs.readFileSync(infoFile, 'utf8')) as WorkerInfo) : undefined;
    let stopping: Promise<void> | undefined;
    return {
      db,
      temporalAddress,
      taskQueue: BENCH_TASK_QUEUE,
      worker,
      api,
      sink,
      siteOrigin: site.url,
      workerInfo,
      serviceEnv,
      temporalLauncherPid: temporal.pid,
      temporalServerPid: () => childPids(temporal.pid)[0],
      temporalStorage: parent === ctx.tmpDir ? 'disk (the run\'s directory)' : parent,
      stop: () => (stopping ??= stopEverything()),
    };
  } catch (err) {
    await stopEverything();
    throw err;
  }
}

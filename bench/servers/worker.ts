/**
 * The real service's worker role, as `npm run start:worker` runs it (openDatabase +
 * startWorkerRole: the campaign workflows and every activity), with the configuration given as
 * JSON in BENCH_SERVICE_ENV (the service's own variable names) so nothing leaks in from the
 * caller's shell. It has no HTTP port: it reports `port: 0` over IPC once it polls its task queue.
 *
 * BENCH_WORKER_OPTIONS (JSON, diagnostic): worker options to override (maxCachedWorkflows,
 * maxConcurrentActivityTaskExecutions, ...). The role takes none, so with overrides the worker is
 * assembled here the way the role does it (SDK runtime logging, startWorker), without the local
 * mail sink the bench never uses (it sets SMTP_URL).
 *
 * BENCH_WORKER_INFO: a file that receives the worker's effective cache size, task slots and heap limit.
 */
import fs from 'node:fs';
import v8 from 'node:v8';
import type { WorkerOptions } from '@temporalio/worker';
import type { ReadyMessage } from '../lib/child-server';
import { loadConfig } from '../../src/config/config';
import { createLogger } from '../../src/log/logger';
import { openDatabase, type Database } from '../../src/runtime/database';
import { startWorkerRole } from '../../src/runtime/worker-role';
import { smtpTransports } from '../../src/sending/transports';
import { installTemporalRuntime } from '../../src/temporal/runtime-logging';
import { startWorker, type RunningWorker } from '../../src/worker/create-worker';

/** The overrides a bench may try; anything else in BENCH_WORKER_OPTIONS is refused. */
const TUNABLE = [
  'maxCachedWorkflows',
  'maxConcurrentActivityTaskExecutions',
  'maxConcurrentWorkflowTaskExecutions',
  'maxConcurrentActivityTaskPolls',
  'maxConcurrentWorkflowTaskPolls',
  'maxHeartbeatThrottleInterval',
] as const;
type Overrides = Partial<Pick<WorkerOptions, (typeof TUNABLE)[number]>>;

function parseOverrides(raw: string | undefined): Overrides | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  const parsed = JSON.parse(raw) as Record<string, unknown>;
  const unknown = Object.keys(parsed).filter((k) => !(TUNABLE as readonly string[]).includes(k));
  if (unknown.length > 0) throw new Error(`BENCH_WORKER_OPTIONS: not a tunable option: ${unknown.join(', ')} (tunable: ${TUNABLE.join(', ')})`);
  return parsed as Overrides;
}

function main(): void {
  if (!process.send) {
    process.stderr.write('This is a bench server: it is started by `npm run bench`, with an IPC channel.\n');
    process.exit(2);
  }
  const env = JSON.parse(process.env.BENCH_SERVICE_ENV ?? '{}') as Record<string, string>;
  const config = loadConfig(env);
  const log = createLogger(config.logLevel, 'worker');
  let db: Database | undefined;
  let worker: RunningWorker | undefined;
  let closing = false;
  const shutdown = async (): Promise<void> => {
    if (closing) return;
    closing = true;
    setTimeout(() => process.exit(0), 30_000).unref();
    try {
      await worker?.shutdown();
      await db?.close();
    } catch (err) {
      process.stderr.write(`bench worker shutdown: ${(err as Error).message}\n`);
    }
    log.flush();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown());
  process.on('SIGINT', () => undefined); // the parent decides when this child stops
  process.on('disconnect', () => void shutdown());

  (async () => {
    if (config.databaseUrl === undefined) throw new Error('BENCH_SERVICE_ENV must set DATABASE_URL (the bench owns the PostgreSQL)');
    if (config.temporalAddress === undefined) throw new Error('BENCH_SERVICE_ENV must set TEMPORAL_ADDRESS');
    if (config.smtpUrl === undefined) throw new Error('BENCH_SERVICE_ENV must set SMTP_URL (the bench runs the mail sink)');
    const overrides = parseOverrides(process.env.BENCH_WORKER_OPTIONS);
    db = await openDatabase(config, log);
    if (overrides === undefined) {
      worker = await startWorkerRole(config, log, db, config.temporalAddress);
    } else {
      installTemporalRuntime(log);
      const started = await startWorker(
        { address: config.temporalAddress, namespace: config.temporalNamespace, taskQueue: config.temporalTaskQueue, sequelize: db.sequelize, config, log },
        overrides,
      );
      worker = { ...started, shutdown: () => started.shutdown().finally(() => smtpTransports.closeAll()) };
    }
    const o = worker.worker.options;
    const info = {
      maxCachedWorkflows: o.maxCachedWorkflows,
      /** Slots for workflow and activity tasks (the SDK's fixed-size slot suppliers by default). */
      tuner: o.tuner,
      maxHeapMiB: Math.round(v8.getHeapStatistics().heap_size_limit / 2 ** 20),
      overrides: overrides ?? null,
    };
    log.info(info, 'bench worker ready');
    if (process.env.BENCH_WORKER_INFO) fs.writeFileSync(process.env.BENCH_WORKER_INFO, JSON.stringify(info));
    void worker.done.catch((err: unknown) => {
      process.stderr.write(`bench worker stopped: ${(err as Error).stack ?? String(err)}\n`);
      process.exit(1);
    });
    const msg: ReadyMessage = { type: 'ready', port: 0 };
    process.send?.(msg);
  })().catch((err: unknown) => {
    process.stderr.write(`bench worker failed to start: ${(err as Error).stack ?? String(err)}\n`);
    process.exit(1);
  });
}

main();

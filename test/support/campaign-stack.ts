import { randomUUID } from 'node:crypto';
import { createLogger } from '../../src/log/logger';
import { startWorker, type RunningWorker } from '../../src/worker/create-worker';
import { startTestApi, testConfig, type TestApi } from './api';
import { createTestDatabase, type TestDatabase } from './database';
import { TestSmtpSink } from './smtp-sink';
import { startTestDevServer, type TestDevServer } from './temporal-dev';

export interface CampaignStack {
  readonly db: TestDatabase;
  readonly api: TestApi;
  readonly temporal: TestDevServer;
  readonly worker: RunningWorker;
  /** Where the worker sends every email (SMTP_URL). */
  readonly sink: TestSmtpSink;
  readonly env: Readonly<Record<string, string>>;
}

/**
 * The real campaign path in one process: PostgreSQL, a Temporal dev server, the worker with the
 * real activities (sending into a local SMTP sink), and the API. Hooks of the enclosing describe.
 * The sending window is the whole day in UTC by default (send_window 00:00-24:00 in requests), so
 * a test does not depend on the hour it runs at.
 */
export function useCampaignStack(env: Readonly<Record<string, string>> = {}): CampaignStack {
  const fixture = {} as { -readonly [K in keyof CampaignStack]: CampaignStack[K] };
  before(async function () {
    this.timeout(120_000);
    const [db, temporal, sink] = await Promise.all([createTestDatabase(), startTestDevServer(), TestSmtpSink.start()]);
    const fullEnv = { SMTP_URL: sink.url, ...env };
    const config = testConfig({ ...fullEnv, TEMPORAL_TASK_QUEUE: `campaigns-${randomUUID()}` });
    const worker = await startWorker({
      address: temporal.address,
      namespace: 'default',
      taskQueue: config.temporalTaskQueue,
      sequelize: db.sequelize,
      config,
      log: createLogger('silent', 'test'),
    });
    const api = await startTestApi(db.sequelize, { temporalAddress: temporal.address, env: { ...fullEnv, TEMPORAL_TASK_QUEUE: config.temporalTaskQueue } });
    Object.assign(fixture, { db, temporal, sink, worker, api, env: fullEnv });
  });
  after(async function () {
    this.timeout(60_000);
    await fixture.api?.close();
    await fixture.worker?.shutdown();
    await fixture.temporal?.stop();
    await fixture.sink?.close();
    await fixture.db?.drop();
  });
  return fixture;
}

/**
 * The real delivery path in one process: PostgreSQL, a Temporal dev server and the worker with the
 * real activities, so the queue's dispatcher workflow runs and posts to receivers on loopback in
 * real time. Unlike useCampaignStack the worker can be stopped and started again (outbox
 * durability), and a Temporal client is at hand to look at the retry workflows the dispatcher starts.
 */
import { Client, Connection, WorkflowNotFoundError } from '@temporalio/client';
import { randomUUID } from 'node:crypto';
import type { Config } from '../../../src/config/config';
import { createLogger } from '../../../src/log/logger';
import { startWorker, type RunningWorker } from '../../../src/worker/create-worker';
import { testConfig } from '../../support/api';
import { createTestDatabase, type TestDatabase } from '../../support/database';
import { startTestDevServer, type TestDevServer } from '../../support/temporal-dev';

export interface WebhookStack {
  readonly db: TestDatabase;
  readonly temporal: TestDevServer;
  readonly client: Client;
  readonly config: Config;
  /** The running worker, or undefined between stopWorker() and startWorker(). */
  readonly worker: RunningWorker | undefined;
  startWorker(): Promise<void>;
  stopWorker(): Promise<void>;
  /** Ends retry workflows a test caused, so their retries do not reach later tests' receivers. */
  terminate(workflowIds: readonly string[]): Promise<void>;
}

export function useWebhookStack(): WebhookStack {
  let connection: Connection | undefined;
  const state = {} as { db: TestDatabase; temporal: TestDevServer; client: Client; config: Config; worker: RunningWorker | undefined };
  const stack: WebhookStack = {
    get db() {
      return state.db;
    },
    get temporal() {
      return state.temporal;
    },
    get client() {
      return state.client;
    },
    get config() {
      return state.config;
    },
    get worker() {
      return state.worker;
    },
    async startWorker() {
      if (state.worker !== undefined) return;
      state.worker = await startWorker({
        address: state.temporal.address,
        namespace: 'default',
        taskQueue: state.config.temporalTaskQueue,
        sequelize: state.db.sequelize,
        config: state.config,
        log: createLogger('silent', 'test'),
      },
      // The dispatcher activity runs for minutes and is cancelled only when the grace time is over
      // (the SDK tells activities of a shutdown no earlier), so the production 20 s would make
      // every stop take 20 s; a stopped dispatcher returns within milliseconds of its cancellation.
      { shutdownGraceTime: '1 second' });
    },
    async stopWorker() {
      const running = state.worker;
      state.worker = undefined;
      await running?.shutdown();
    },
    async terminate(workflowIds) {
      for (const id of workflowIds) {
        await state.client.workflow
          .getHandle(id)
          .terminate('test over')
          .catch((err: unknown) => {
            if (!(err instanceof WorkflowNotFoundError)) throw err;
          });
      }
    },
  };
  before(async function () {
    this.timeout(120_000);
    const [db, temporal] = await Promise.all([createTestDatabase(), startTestDevServer()]);
    connection = await Connection.connect({ address: temporal.address });
    Object.assign(state, { db, temporal, client: new Client({ connection, namespace: 'default' }), config: testConfig({ TEMPORAL_TASK_QUEUE: `webhooks-${randomUUID()}` }) });
    await stack.startWorker();
  });
  after(async function () {
    this.timeout(60_000);
    await stack.stopWorker();
    await connection?.close();
    await state.temporal?.stop();
    await state.db?.drop();
  });
  return stack;
}

/** Polls `check` every 100 ms until it returns a value other than undefined, at most `timeoutMs`. */
export async function eventually<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

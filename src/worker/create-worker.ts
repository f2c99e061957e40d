import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Worker, type WorkerOptions } from '@temporalio/worker';
import type { Sequelize } from 'sequelize';
import { createActivities } from '../../activities';
import { dispatcherWorkflowId } from '../../workflows/webhooks/contract';
import type { webhookDispatcherWorkflow } from '../../workflows/webhooks/dispatcher-workflow';
import type { Config } from '../config/config';
import type { Logger } from '../log/logger';
import { sweepReportSchedules } from './report-schedule-sweep';
import { temporalReportNotifier } from './temporal-report-notifier';
import { temporalRetryStarter } from './temporal-retry-starter';

export interface WorkerDeps {
  readonly address: string;
  readonly namespace: string;
  readonly taskQueue: string;
  readonly sequelize: Sequelize;
  readonly config: Config;
  readonly log: Logger;
  /** Start the queue's webhook dispatcher workflow if it is not running (default true). */
  readonly webhookDispatcher?: boolean;
  /** Start the report schedule of every campaign that should have one and has none (default true). */
  readonly reportSweep?: boolean;
}

export interface RunningWorker {
  readonly worker: Worker;
  /** Settles when the worker has stopped polling and finished its in-flight tasks. */
  readonly done: Promise<void>;
  /** Asks the worker to stop taking tasks and finish the ones it has, then closes the connection. */
  shutdown(): Promise<void>;
}

export const WORKFLOWS_PATH = require.resolve('../../workflows');

/**
 * Assembles and starts the worker: the campaign, webhook and report workflows (bundled from
 * `workflows/`) and the activities with their real dependencies. The worker also holds a client
 * connection: the webhook dispatcher starts retry workflows with it, a campaign's end is signalled
 * to its report schedule with it, and the worker starts the dispatcher workflow of its queue (a
 * no-op when one is already running, e.g. started by another worker) and the report schedules
 * campaigns lack (report-schedule-sweep.ts).
 */
export async function startWorker(deps: WorkerDeps, overrides: Partial<WorkerOptions> = {}): Promise<RunningWorker> {
  const connection = await NativeConnection.connect({ address: deps.address });
  // Long-running activities (the webhook dispatcher) stop on this at once; the SDK would cancel
  // them only when the shutdown grace time is over, making every stop last that long.
  const stopping = new AbortController();
  let clientConnection: Connection | undefined;
  let done: Promise<void> | undefined;
  let worker: Worker | undefined;
  try {
    clientConnection = await Connection.connect({ address: deps.address });
    const client = new Client({ connection: clientConnection, namespace: deps.namespace });
    worker = await Worker.create({
      connection,
      namespace: deps.namespace,
      taskQueue: deps.taskQueue,
      workflowsPath: WORKFLOWS_PATH,
      activities: createActivities({
        sequelize: deps.sequelize,
        config: deps.config,
        log: deps.log,
        retries: temporalRetryStarter(client, deps.taskQueue),
        reports: temporalReportNotifier(client),
        stopping: stopping.signal,
      }),
      shutdownGraceTime: '20 seconds',
      ...overrides,
    });
    const closeConnections = async () => {
      await clientConnection?.close();
      await connection.close();
    };
    done = worker.run().finally(closeConnections);
    if (deps.webhookDispatcher !== false) {
      await client.workflow.start<typeof webhookDispatcherWorkflow>('webhookDispatcherWorkflow', {
        taskQueue: deps.taskQueue,
        workflowId: dispatcherWorkflowId(deps.taskQueue),
        workflowIdConflictPolicy: 'USE_EXISTING',
        staticSummary: 'Delivers webhook events from the outbox; failed deliveries go to webhook-delivery-* workflows',
      });
    }
    if (deps.reportSweep !== false) {
      // Reports are not worth failing the worker's start for: a sweep that fails is tried at the next start.
      await sweepReportSchedules({ sequelize: deps.sequelize, client, taskQueue: deps.taskQueue, log: deps.log }).catch((err: unknown) =>
        deps.log.warn({ err }, 'report schedule sweep failed; the next worker start tries again'),
      );
    }
  } catch (err) {
    if (done !== undefined && worker !== undefined) {
      // Running already: stopping it closes both connections.
      worker.shutdown();
      await done.catch(() => undefined);
    } else {
      await clientConnection?.close().catch(() => undefined);
      await connection.close().catch(() => undefined);
    }
    throw err;
  }
  const running = worker;
  const finished = done;
  return {
    worker: running,
    done: finished,
    shutdown: async () => {
      // In this order and in one turn: the worker stops polling before a returning dispatcher run
      // could have its successor scheduled here.
      stopping.abort();
      if (running.getState() === 'RUNNING') running.shutdown();
      await finished;
    },
  };
}

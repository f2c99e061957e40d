import { NativeConnection, Worker, type WorkerOptions } from '@temporalio/worker';
import type { Sequelize } from 'sequelize';
import { createActivities } from '../../activities';
import type { Config } from '../config/config';
import type { Logger } from '../log/logger';

export interface WorkerDeps {
  readonly address: string;
  readonly namespace: string;
  readonly taskQueue: string;
  readonly sequelize: Sequelize;
  readonly config: Config;
  readonly log: Logger;
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
 * Assembles and starts the worker: the campaign workflows (bundled from `workflows/`) and the
 * activities with their real dependencies.
 */
export async function startWorker(deps: WorkerDeps, overrides: Partial<WorkerOptions> = {}): Promise<RunningWorker> {
  const connection = await NativeConnection.connect({ address: deps.address });
  const worker = await Worker.create({
    connection,
    namespace: deps.namespace,
    taskQueue: deps.taskQueue,
    workflowsPath: WORKFLOWS_PATH,
    activities: createActivities({ sequelize: deps.sequelize, config: deps.config, log: deps.log }),
    shutdownGraceTime: '20 seconds',
    ...overrides,
  });
  const done = worker.run().finally(() => connection.close());
  return {
    worker,
    done,
    shutdown: async () => {
      if (worker.getState() === 'RUNNING') worker.shutdown();
      await done;
    },
  };
}

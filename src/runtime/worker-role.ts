import type { Config } from '../config/config';
import type { Logger } from '../log/logger';
import { installTemporalRuntime } from '../temporal/runtime-logging';
import { startWorker, type RunningWorker } from '../worker/create-worker';
import type { Database } from './database';

/** The worker role: campaign workflows and activities on TEMPORAL_TASK_QUEUE. */
export async function startWorkerRole(config: Config, log: Logger, db: Database, temporalAddress: string): Promise<RunningWorker> {
  installTemporalRuntime(log);
  return startWorker({
    address: temporalAddress,
    namespace: config.temporalNamespace,
    taskQueue: config.temporalTaskQueue,
    sequelize: db.sequelize,
    config,
    log,
  });
}

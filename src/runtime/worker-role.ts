import path from 'node:path';
import type { Config } from '../config/config';
import type { Logger } from '../log/logger';
import { startMailSink, type RunningMailSink } from '../mail-sink/mail-sink';
import { smtpTransports } from '../sending/transports';
import { installTemporalRuntime } from '../temporal/runtime-logging';
import { startWorker, type RunningWorker } from '../worker/create-worker';
import type { Database } from './database';

/**
 * The worker role: campaign workflows and activities on TEMPORAL_TASK_QUEUE. Without SMTP_URL it
 * also runs the local mail sink the default transport delivers to, started before the worker (a
 * send must find it listening) and stopped after it, with the pooled SMTP transporters, once the
 * worker has finished its in-flight activities.
 */
export async function startWorkerRole(config: Config, log: Logger, db: Database, temporalAddress: string): Promise<RunningWorker> {
  installTemporalRuntime(log);
  let sink: RunningMailSink | undefined;
  if (config.smtpUrl === undefined) {
    sink = await startMailSink({ port: config.smtpSinkPort, dir: path.join(config.dataDir, 'mail-sink'), log: log.child({ component: 'mail-sink' }) });
  }
  let running: RunningWorker;
  try {
    running = await startWorker({
      address: temporalAddress,
      namespace: config.temporalNamespace,
      taskQueue: config.temporalTaskQueue,
      sequelize: db.sequelize,
      config,
      log,
    });
  } catch (err) {
    await sink?.close();
    throw err;
  }
  return {
    ...running,
    shutdown: async () => {
      try {
        await running.shutdown();
      } finally {
        await smtpTransports.closeAll();
        await sink?.close();
      }
    },
  };
}

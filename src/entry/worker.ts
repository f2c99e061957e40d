/** `npm run start:worker`: the worker role alone, against external PostgreSQL and Temporal (production). */
import { boot, fatal } from '../runtime/boot';
import { openDatabase } from '../runtime/database';
import { startWorkerRole } from '../runtime/worker-role';
import { Shutdown } from '../runtime/shutdown';
import { requireExternal } from './require-external';

async function main(): Promise<void> {
  const { config, log } = boot('worker');
  const shutdown = new Shutdown(log);
  shutdown.listen();
  try {
    const { temporalAddress } = requireExternal(config);
    const db = await openDatabase(config, log);
    shutdown.add('database', () => db.close());
    const worker = await startWorkerRole(config, log, db, temporalAddress);
    shutdown.add('worker', () => worker.shutdown());
    log.info({ taskQueue: config.temporalTaskQueue }, 'worker ready');
    await worker.done;
  } catch (err) {
    await shutdown.run();
    fatal(log, err);
  }
}

void main();

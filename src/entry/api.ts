/** `npm run start:api`: the API role alone, against external PostgreSQL and Temporal (production). */
import { boot, fatal } from '../runtime/boot';
import { openDatabase } from '../runtime/database';
import { startApiRole } from '../runtime/api-role';
import { Shutdown } from '../runtime/shutdown';
import { requireExternal } from './require-external';

async function main(): Promise<void> {
  const { config, log } = boot('api');
  const shutdown = new Shutdown(log);
  shutdown.listen();
  try {
    const { temporalAddress } = requireExternal(config);
    const db = await openDatabase(config, log);
    shutdown.add('database', () => db.close());
    const api = await startApiRole(config, log, db, temporalAddress);
    shutdown.add('temporal client', () => api.temporal.close());
    shutdown.add('http api', () => api.http.close());
    log.info({ url: api.http.url }, 'api ready');
  } catch (err) {
    await shutdown.run();
    fatal(log, err);
  }
}

void main();

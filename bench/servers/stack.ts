/**
 * The real service's API role, as `npm run start:api` runs it (openDatabase + startApiRole), with
 * the configuration given as JSON in BENCH_SERVICE_ENV (the service's own variable names, read by
 * loadConfig) so nothing leaks in from the caller's shell. Pino writes to stdout, which the bench
 * sends to a file. Temporal is given an address nothing listens on: the client is lazy.
 */
import { loadConfig } from '../../src/config/config';
import { createLogger } from '../../src/log/logger';
import { openDatabase } from '../../src/runtime/database';
import { startApiRole } from '../../src/runtime/api-role';
import { runChild } from './child';

runChild(async () => {
  const env = JSON.parse(process.env.BENCH_SERVICE_ENV ?? '{}') as Record<string, string>;
  const config = loadConfig(env);
  if (config.databaseUrl === undefined) throw new Error('BENCH_SERVICE_ENV must set DATABASE_URL (the bench owns the PostgreSQL)');
  const log = createLogger(config.logLevel, 'api');
  const db = await openDatabase(config, log);
  const api = await startApiRole(config, log, db, config.temporalAddress ?? '127.0.0.1:1');
  log.info({ url: api.http.url }, 'api ready');
  return {
    server: api.http.server,
    close: async () => {
      await api.temporal.close();
      await db.close();
      log.flush();
    },
  };
});

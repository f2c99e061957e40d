/**
 * The real service's API role, as `npm run start:api` runs it (openDatabase + startApiRole), with
 * the configuration given as JSON in BENCH_SERVICE_ENV (the service's own variable names, read by
 * loadConfig) so nothing leaks in from the caller's shell. Pino writes to stdout, which the bench
 * sends to a file. Temporal is given an address nothing listens on: the client is lazy.
 *
 * On stop it shuts the role down as the service does (`api.http.close()`, which drains the tracking
 * recorder). With BENCH_PIXEL_STATS set, it then writes the recorder's final stats there as JSON,
 * so the open-pixel scenario can check that every open it took reached PostgreSQL.
 */
import fs from 'node:fs';
import { loadConfig } from '../../src/config/config';
import { createLogger } from '../../src/log/logger';
import { openDatabase } from '../../src/runtime/database';
import { startApiRole } from '../../src/runtime/api-role';
import { runChild } from './child';

runChild(async () => {
  const env = JSON.parse(process.env.BENCH_SERVICE_ENV ?? '{}') as Record<string, string>;
  const statsFile = process.env.BENCH_PIXEL_STATS;
  const config = loadConfig(env);
  if (config.databaseUrl === undefined) throw new Error('BENCH_SERVICE_ENV must set DATABASE_URL (the bench owns the PostgreSQL)');
  const log = createLogger(config.logLevel, 'api');
  const db = await openDatabase(config, log);
  const api = await startApiRole(config, log, db, config.temporalAddress ?? '127.0.0.1:1');
  log.info({ url: api.http.url }, 'api ready');
  return {
    server: api.http.server,
    close: async () => {
      await api.http.close(); // the HTTP server is already closed by runChild; this stops the rest
      if (statsFile) fs.writeFileSync(statsFile, JSON.stringify({ ...api.tracking.recorder.stats(), journalDir: api.tracking.recorder.dir }));
      await api.temporal.close();
      await db.close();
      log.flush();
    },
  };
});

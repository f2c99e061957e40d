import type { Sequelize } from 'sequelize';
import type { Config } from '../config/config';
import { migrateUp } from '../db/migrator';
import { initModels } from '../db/models';
import { createSequelize } from '../db/sequelize';
import { attachEmbeddedPostgres, startEmbeddedPostgres, type EmbeddedPostgres } from '../embedded/postgres';
import type { Logger } from '../log/logger';

export interface Database {
  readonly sequelize: Sequelize;
  readonly url: string;
  /** Pid of the embedded postmaster this process started, if any. */
  readonly embeddedPid: number | undefined;
  /** Closes the pool and, when this process started the embedded server, stops it. */
  close(): Promise<void>;
}

export type EmbeddedMode = 'start' | 'attach';

/**
 * Opens the service's database: DATABASE_URL when set, otherwise DATA_DIR's embedded PostgreSQL
 * (started by `npm start`, or attached to by the CLI). Pending migrations are applied.
 */
export async function openDatabase(config: Config, log: Logger, mode: EmbeddedMode = 'start'): Promise<Database> {
  let embedded: EmbeddedPostgres | undefined;
  let url = config.databaseUrl;
  if (url === undefined) {
    const opts = { dataDir: config.dataDir, port: config.embeddedPgPort, log: (msg: string) => log.info(msg) };
    embedded = mode === 'start' ? await startEmbeddedPostgres(opts) : await attachEmbeddedPostgres(opts);
    url = embedded.url;
  }
  const sequelize = createSequelize({ url, poolMax: config.databasePoolMax });
  initModels(sequelize);
  try {
    const applied = await migrateUp(sequelize);
    if (applied.length > 0) log.info({ applied }, 'migrations applied');
  } catch (err) {
    await sequelize.close().catch(() => undefined);
    await embedded?.stop();
    throw err;
  }
  return {
    sequelize,
    url,
    embeddedPid: embedded?.pid,
    close: async () => {
      await sequelize.close();
      await embedded?.stop();
    },
  };
}

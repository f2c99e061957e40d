import fs from 'node:fs/promises';
import path from 'node:path';
import type { Sequelize } from 'sequelize';
import { migrateUp } from '../../src/db/migrator';
import { initModels } from '../../src/db/models';
import { createSequelize } from '../../src/db/sequelize';
import { startEmbeddedPostgres } from '../../src/embedded/postgres';
import { freePort } from '../../src/net/ports';

export interface BenchDatabase {
  readonly url: string;
  /** A small pool for the harness's own setup (accounts, fixtures); servers open their own. */
  readonly sequelize: Sequelize;
  /** Pid of the postmaster, for a last-resort kill. */
  readonly pid: number | undefined;
  stop(): Promise<void>;
}

/**
 * A throwaway embedded PostgreSQL (the binaries the service runs) in `<parentDir>/pg`, migrated to
 * the latest schema. `parentDir` must be reachable by the `postgres` user when running as root.
 */
export async function startBenchDatabase(parentDir: string): Promise<BenchDatabase> {
  const dataDir = path.join(parentDir, 'pg');
  await fs.mkdir(dataDir, { recursive: true, mode: 0o755 });
  await fs.chmod(dataDir, 0o755);
  const pg = await startEmbeddedPostgres({ dataDir, port: await freePort(), log: () => undefined });
  const sequelize = createSequelize({ url: pg.url, poolMax: 2 });
  try {
    initModels(sequelize);
    await migrateUp(sequelize);
  } catch (err) {
    await sequelize.close().catch(() => undefined);
    await pg.stop();
    throw err;
  }
  let stopping: Promise<void> | undefined;
  return {
    url: pg.url,
    sequelize,
    pid: pg.pid,
    stop: () =>
      (stopping ??= (async () => {
        await sequelize.close().catch(() => undefined);
        await pg.stop();
      })()),
  };
}

import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../../src/embedded/postgres';
import { freePort } from '../../src/net/ports';

export interface TestPostgres extends EmbeddedPostgres {
  readonly dataDir: string;
}

/** A real, throwaway PostgreSQL cluster (the same embedded binaries the service runs). */
export async function startTestPostgres(): Promise<TestPostgres> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'outreach-test-pg-'));
  // mkdtemp makes the directory 0700; the cluster may run as the `postgres` user and must reach it.
  await fs.chmod(dataDir, 0o755);
  const pg = await startEmbeddedPostgres({ dataDir, port: await freePort(), log: () => undefined });
  // The cluster runs in its own process group; if the test process dies without its teardown,
  // take the cluster down with it (SIGQUIT: immediate shutdown, nothing worth flushing).
  const killOnExit = (): void => {
    if (pg.pid !== undefined) {
      try {
        process.kill(pg.pid, 'SIGQUIT');
      } catch {
        // already gone
      }
    }
  };
  process.once('exit', killOnExit);
  return {
    ...pg,
    dataDir,
    stop: async () => {
      process.off('exit', killOnExit);
      await pg.stop();
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}

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
  return {
    ...pg,
    dataDir,
    stop: async () => {
      await pg.stop();
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}

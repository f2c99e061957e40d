import fs from 'node:fs/promises';
import { clusterDirsOf, isPostgresOf } from './postgres';
import { listProcesses, waitUntilGone, type ProcessInfo } from './process-table';
import { devServerDbFile, isDevServerOf } from './temporal-dev-server';

/** One way of asking a server to stop: a signal, and how long to wait for it before the next. */
type Step = readonly [NodeJS.Signals, number];

// PostgreSQL: fast shutdown (sessions ended, a checkpoint written), then immediate, then SIGKILL.
const POSTMASTER_STEPS: readonly Step[] = [['SIGINT', 30_000], ['SIGQUIT', 5_000], ['SIGKILL', 5_000]];
// A child whose postmaster is gone serves nobody and has nothing to flush.
const POSTGRES_CHILD_STEPS: readonly Step[] = [['SIGKILL', 5_000]];
// The dev server commits each change to SQLite as it makes it: SIGTERM, then SIGKILL.
const DEV_SERVER_STEPS: readonly Step[] = [['SIGTERM', 15_000], ['SIGKILL', 5_000]];

/**
 * Stops the servers an earlier run on this DATA_DIR left running: when only the service's own
 * process was killed (SIGKILL, an OOM kill, a crashed terminal) its PostgreSQL and Temporal dev
 * server, in process groups of their own, go on holding the cluster, the db file and the ports.
 *
 * A process counts as ours only by what it runs on, as the system shows it: a postmaster started
 * with `-D <DATA_DIR>/postgres` (or a leftover child of one, working in that directory), a
 * `temporal server start-dev` on `<DATA_DIR>/temporal.db`. A pid read from a file is never enough:
 * after a restart it may belong to anything. Callers make sure no live copy of the service owns
 * these servers (the instance lock). Returns what it did, for the log.
 */
export async function stopOrphanedServers(dataDir: string): Promise<string[]> {
  const clusterDirs = await clusterDirsOf(dataDir);
  const dbFile = devServerDbFile(dataDir);
  const dbFiles = [dbFile, await fs.realpath(dbFile).catch(() => dbFile)];
  const processes = (await listProcesses()).filter((p) => p.pid !== process.pid);
  const postmasters = processes.filter((p) => isPostgresOf(p, clusterDirs) === 'postmaster');
  const postmasterPids = new Set(postmasters.map((p) => p.pid));
  // Children of a live postmaster stop with it; only those of a dead one are stopped one by one.
  const strayChildren = processes.filter((p) => isPostgresOf(p, clusterDirs) === 'child' && !postmasterPids.has(p.ppid));
  const devServers = processes.filter((p) => isDevServerOf(p, dbFiles));
  const stops = [
    ...postmasters.map((p) => stop(p, 'PostgreSQL', POSTMASTER_STEPS)),
    ...strayChildren.map((p) => stop(p, 'PostgreSQL process', POSTGRES_CHILD_STEPS)),
    ...devServers.map((p) => stop(p, 'Temporal dev server', DEV_SERVER_STEPS)),
  ];
  return Promise.all(stops);
}

async function stop(proc: ProcessInfo, what: string, steps: readonly Step[]): Promise<string> {
  for (const [signal, waitMs] of steps) {
    try {
      process.kill(proc.pid, signal);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ESRCH') break;
      throw new Error(`Cannot stop the ${what} (pid ${proc.pid}) an earlier run left on this DATA_DIR: ${(err as Error).message}. Stop it, then start again.`);
    }
    if (await waitUntilGone(proc.pid, proc.startedAt, waitMs)) return `stopped the ${what} (pid ${proc.pid}) an earlier run left running, with ${signal}`;
  }
  if (await waitUntilGone(proc.pid, proc.startedAt, 0)) return `stopped the ${what} (pid ${proc.pid}) an earlier run left running`;
  throw new Error(`The ${what} (pid ${proc.pid}) an earlier run left on this DATA_DIR does not stop. Stop it, then start again.`);
}

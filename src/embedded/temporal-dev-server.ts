import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { CAMPAIGN_SEARCH_ATTRIBUTES } from '../../workflows/search-attributes';
import { ensureTemporalCli } from '../temporal/binaries';
import { stopProcess } from './child-process';
import type { ProcessInfo } from './process-table';
import { portIsFree, waitForPort } from '../net/ports';

export interface DevServerOptions {
  readonly dataDir: string;
  readonly port: number;
  readonly uiPort: number;
  readonly namespace: string;
  readonly log: (msg: string) => void;
}

export interface DevServer {
  readonly address: string;
  readonly uiUrl: string;
  readonly pid: number | undefined;
  stop(): Promise<void>;
}

// Search attribute types as the CLI's --search-attribute flag spells them.
const CLI_TYPE = { KEYWORD: 'Keyword' } as const;

/**
 * The dev server's whole state (namespaces, workflows, timers, task queues): a SQLite file in
 * DATA_DIR, so campaigns outlive a restart. SQLite's own journal makes a file whose server was
 * killed mid-write open again as of its last commit.
 */
export function devServerDbFile(dataDir: string): string {
  return path.join(dataDir, 'temporal.db');
}

/** Whether a process is the dev server of this DATA_DIR: `temporal server start-dev` on its db file. */
export function isDevServerOf(proc: ProcessInfo, dbFiles: readonly string[]): boolean {
  const { args } = proc;
  if (!args.includes('start-dev')) return false;
  return args.some((a, i) => a === '--db-filename' && dbFiles.includes(path.resolve(args[i + 1] ?? '')));
}

/** Pragmas of the dev server's SQLite file (see the comment where they are passed). */
const SQLITE_PRAGMAS = ['journal_mode=wal', 'synchronous=normal'];

/**
 * Runs `temporal server start-dev` (frontend, persistence in DATA_DIR/temporal.db, Web UI) with the
 * campaign search attributes registered, and waits until its frontend accepts connections.
 */
export async function startTemporalDevServer(opts: DevServerOptions): Promise<DevServer> {
  for (const [name, port] of [['TEMPORAL_DEV_PORT', opts.port], ['TEMPORAL_UI_PORT', opts.uiPort]] as const) {
    if (!(await portIsFree('127.0.0.1', port))) {
      throw new Error(`Port ${port} (${name}) is in use: another Temporal server runs there. Set ${name}, or PORT, to run side by side.`);
    }
  }
  const cli = await ensureTemporalCli();
  await fs.mkdir(opts.dataDir, { recursive: true });
  const args = [
    'server',
    'start-dev',
    '--ip', '127.0.0.1',
    '--port', String(opts.port),
    '--ui-port', String(opts.uiPort),
    '--db-filename', devServerDbFile(opts.dataDir),
    // A write-ahead log synced at checkpoints rather than at every commit: a workflow task, a signal
    // or an Update is committed without an fsync of its own (a pause answered in a third of the
    // time on disk, docs/performance.md). A process killed at any moment loses nothing (the log is
    // in the OS's page cache); a power cut may lose the last commits of the embedded server, which
    // is a development default (production runs its own Temporal cluster).
    ...SQLITE_PRAGMAS.flatMap((p) => ['--sqlite-pragma', p]),
    '--namespace', opts.namespace,
    '--log-level', 'error',
    ...CAMPAIGN_SEARCH_ATTRIBUTES.flatMap((a) => ['--search-attribute', `${a.name}=${CLI_TYPE[a.type]}`]),
  ];
  const child = spawn(cli, args, { stdio: ['ignore', 'ignore', 'pipe'], 
    // Own process group: Ctrl-C reaches only us, and we stop the server after the worker has drained.
    detached: true });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-4000);
  });
  const alive = (): boolean => child.exitCode === null && child.signalCode === null;
  try {
    const abortReason = (): string | undefined => (alive() ? undefined : 'the dev server exited during start');
    await waitForPort(opts.port, { timeoutMs: 60_000, abortReason });
    await waitForPort(opts.uiPort, { timeoutMs: 30_000, abortReason });
  } catch (err) {
    await stopProcess(child, 'SIGTERM', 5_000);
    throw new Error(`Temporal dev server did not start: ${(err as Error).message}\n${stderr.trim()}`);
  }
  opts.log(`Temporal dev server ready on 127.0.0.1:${opts.port} (pid ${child.pid})`);
  return {
    address: `127.0.0.1:${opts.port}`,
    uiUrl: `http://localhost:${opts.uiPort}`,
    pid: child.pid,
    stop: async () => {
      await stopProcess(child, 'SIGTERM', 15_000);
      opts.log('Temporal dev server stopped');
    },
  };
}

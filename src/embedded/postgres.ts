import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { stopProcess } from './child-process';
import { postgresBinaries } from './postgres-binaries';
import { postgresRunAs, type RunAs } from './run-as';

const EMBEDDED_DB_NAME = 'outreach';
const SUPERUSER = 'outreach';

export interface EmbeddedPostgresOptions {
  /** The service's DATA_DIR; the cluster lives in `<dataDir>/postgres`. */
  readonly dataDir: string;
  readonly port: number;
  readonly log: (msg: string) => void;
}

export interface EmbeddedPostgres {
  readonly url: string;
  /** True when this process started the server and so must stop it. */
  readonly owned: boolean;
  /** Pid of the postmaster when this process started it. */
  readonly pid?: number;
  stop(): Promise<void>;
}

interface Layout {
  readonly clusterDir: string;
  readonly passwordFile: string;
}

function layout(dataDir: string): Layout {
  return { clusterDir: path.join(dataDir, 'postgres'), passwordFile: path.join(dataDir, 'postgres.password') };
}

function urlFor(port: number, password: string): string {
  return `postgres://${SUPERUSER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${EMBEDDED_DB_NAME}`;
}

/** The pid and port of a live postmaster on this cluster, from its postmaster.pid file. */
export async function runningPostmaster(dataDir: string): Promise<{ pid: number; port: number } | undefined> {
  const pidFile = path.join(layout(dataDir).clusterDir, 'postmaster.pid');
  let text: string;
  try {
    text = await fs.readFile(pidFile, 'utf8');
  } catch {
    return undefined;
  }
  const lines = text.split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  try {
    process.kill(pid, 0);
  } catch {
    return undefined; // stale file from a crash; postgres itself will clean it up at start
  }
  return { pid, port };
}

async function ensurePassword(file: string): Promise<string> {
  try {
    return (await fs.readFile(file, 'utf8')).trim();
  } catch {
    const password = randomBytes(18).toString('base64url');
    await fs.writeFile(file, password + '\n', { mode: 0o600, flag: 'wx' }).catch(async (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EEXIST') throw err;
    });
    return (await fs.readFile(file, 'utf8')).trim();
  }
}

function run(cmd: string, args: string[], runAs: RunAs, log: (msg: string) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { ...runAs, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const collect = (chunk: Buffer): void => {
      output += chunk.toString('utf8');
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) {
        log(`${path.basename(cmd)} finished`);
        resolve();
      } else reject(new Error(`${path.basename(cmd)} failed with code ${code}: ${output.trim().slice(-2000)}`));
    });
  });
}

async function initCluster(l: Layout, password: string, runAs: RunAs, log: (msg: string) => void): Promise<void> {
  const { initdb } = await postgresBinaries();
  log(`initialising PostgreSQL cluster in ${l.clusterDir}`);
  await fs.mkdir(l.clusterDir, { recursive: true, mode: 0o700 });
  // initdb reads the password from a file the cluster's user can read; it is removed right after.
  const pwfile = path.join(l.clusterDir, '..', `.pwfile-${process.pid}`);
  await fs.writeFile(pwfile, password + '\n', { mode: 0o600 });
  if (runAs.uid !== undefined && runAs.gid !== undefined) {
    await fs.chown(l.clusterDir, runAs.uid, runAs.gid);
    await fs.chown(pwfile, runAs.uid, runAs.gid);
  }
  try {
    await run(
      initdb,
      [`--pgdata=${l.clusterDir}`, '--auth=scram-sha-256', `--username=${SUPERUSER}`, `--pwfile=${pwfile}`, '--encoding=UTF8', '--locale=C'],
      runAs,
      log,
    );
  } finally {
    await fs.rm(pwfile, { force: true });
  }
}

async function waitUntilAccepting(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const adminUrl = url.replace(new RegExp(`/${EMBEDDED_DB_NAME}$`), '/postgres');
  for (;;) {
    if (child.exitCode !== null) throw new Error(`PostgreSQL exited with code ${child.exitCode} during start`);
    const client = new pg.Client({ connectionString: adminUrl });
    try {
      await client.connect();
      const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [EMBEDDED_DB_NAME]);
      if (rowCount === 0) await client.query(`CREATE DATABASE ${EMBEDDED_DB_NAME}`);
      return;
    } catch (err) {
      if (Date.now() > deadline) throw new Error(`PostgreSQL did not accept connections within ${timeoutMs} ms: ${(err as Error).message}`);
      await new Promise((r) => setTimeout(r, 100));
    } finally {
      await client.end().catch(() => undefined);
    }
  }
}

// SIGINT is PostgreSQL's "fast" shutdown (sessions ended, data flushed); SIGQUIT its immediate one.
async function stopChild(child: ChildProcess, log: (msg: string) => void): Promise<void> {
  await stopProcess(child, 'SIGINT', 30_000, 'SIGQUIT');
  log('PostgreSQL stopped');
}

/**
 * Starts this DATA_DIR's own PostgreSQL (initialising the cluster the first time) and creates the
 * service's database. The data stays in DATA_DIR across restarts.
 */
export async function startEmbeddedPostgres(opts: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  const l = layout(opts.dataDir);
  const running = await runningPostmaster(opts.dataDir);
  if (running) {
    throw new Error(
      `Another PostgreSQL (pid ${running.pid}) is already running on ${l.clusterDir}: another copy of the service uses DATA_DIR=${opts.dataDir}. ` +
        `Stop it, or give this copy its own DATA_DIR and PORT.`,
    );
  }
  await fs.mkdir(opts.dataDir, { recursive: true });
  const runAs = postgresRunAs();
  const password = await ensurePassword(l.passwordFile);
  if (!existsSync(path.join(l.clusterDir, 'PG_VERSION'))) await initCluster(l, password, runAs, opts.log);

  const { postgres } = await postgresBinaries();
  const child = spawn(
    postgres,
    ['-D', l.clusterDir, '-p', String(opts.port), '-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'max_connections=200'],
    { ...runAs, stdio: ['ignore', 'ignore', 'pipe'], 
    // Own process group: Ctrl-C reaches only us, and we stop the server after the worker has drained.
    detached: true },
  );
  let lastLines = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    lastLines = (lastLines + chunk.toString('utf8')).slice(-4000);
  });
  const url = urlFor(opts.port, password);
  try {
    await waitUntilAccepting(url, child, 60_000);
  } catch (err) {
    await stopChild(child, opts.log);
    throw new Error(`${(err as Error).message}\n${lastLines.trim()}`);
  }
  opts.log(`PostgreSQL ready on 127.0.0.1:${opts.port}`);
  return { url, owned: true, pid: child.pid, stop: () => stopChild(child, opts.log) };
}

/**
 * For the operator CLI: use the embedded PostgreSQL a running `npm start` owns, or start it just
 * for this command when nothing is running on DATA_DIR.
 */
export async function attachEmbeddedPostgres(opts: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  const running = await runningPostmaster(opts.dataDir);
  if (running) {
    const password = await ensurePassword(layout(opts.dataDir).passwordFile);
    return { url: urlFor(running.port, password), owned: false, stop: () => Promise.resolve() };
  }
  return startEmbeddedPostgres(opts);
}

import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { portIsFree } from '../net/ports';
import { stopProcess } from './child-process';
import { postgresBinaries } from './postgres-binaries';
import { processInfo, type ProcessInfo } from './process-table';
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

/** Where initdb builds a new cluster before it is moved into place: `<dataDir>/postgres.init-<pid>`. */
const STAGING_PREFIX = 'postgres.init-';
/** initdb takes seconds; a staging directory this old is a leftover even if its pid is in use again. */
const STAGING_STALE_MS = 10 * 60_000;

function urlFor(port: number, password: string): string {
  return `postgres://${SUPERUSER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${EMBEDDED_DB_NAME}`;
}

/**
 * Whether a process is a server of this cluster: its postmaster (started with `-D <clusterDir>`),
 * or one of the postmaster's children, which show `postgres: ...` as their command and keep the
 * cluster as their working directory. Another PostgreSQL, or anything else, is not.
 */
export function isPostgresOf(proc: ProcessInfo, clusterDirs: readonly string[]): 'postmaster' | 'child' | undefined {
  const argv0 = proc.args[0] ?? '';
  if (!path.basename(argv0).startsWith('postgres')) return undefined;
  if (proc.args.some((a, i) => a === '-D' && clusterDirs.includes(path.resolve(proc.args[i + 1] ?? '')))) return 'postmaster';
  if (argv0.startsWith('postgres:') && proc.cwd !== undefined && clusterDirs.includes(proc.cwd)) return 'child';
  return undefined;
}

/** The cluster directory of a DATA_DIR as given and with symlinks resolved (as /proc shows a working directory). */
export async function clusterDirsOf(dataDir: string): Promise<string[]> {
  const dir = layout(dataDir).clusterDir;
  const real = await fs.realpath(dir).catch(() => dir);
  return real === dir ? [dir] : [dir, real];
}

interface PidFile {
  readonly pid: number;
  readonly port: number;
}

async function readPidFile(clusterDir: string): Promise<PidFile | undefined> {
  let text: string;
  try {
    text = await fs.readFile(path.join(clusterDir, 'postmaster.pid'), 'utf8');
  } catch {
    return undefined;
  }
  const lines = text.split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  return { pid, port };
}

/**
 * The pid and port of a live postmaster on this cluster, from its postmaster.pid file. A file whose
 * pid is gone, or now belongs to another program (pids are reused, and a restarted container hands
 * out the same small ones again), names no running server.
 */
export async function runningPostmaster(dataDir: string): Promise<{ pid: number; port: number } | undefined> {
  const file = await readPidFile(layout(dataDir).clusterDir);
  if (file === undefined) return undefined;
  const proc = await processInfo(file.pid);
  if (proc === undefined || isPostgresOf(proc, await clusterDirsOf(dataDir)) !== 'postmaster') return undefined;
  return file;
}

/**
 * A postmaster.pid left by a crash whose pid now belongs to another program: PostgreSQL would take
 * that program for a server still running on the cluster and refuse to start, so the file goes.
 * One whose pid is gone stays: PostgreSQL removes it itself, after checking that no process of the
 * crashed server still uses its shared memory (a check the file is needed for).
 */
async function removePidFileOfAnotherProgram(dataDir: string, log: (msg: string) => void): Promise<void> {
  const clusterDir = layout(dataDir).clusterDir;
  const file = await readPidFile(clusterDir);
  if (file === undefined) return;
  const proc = await processInfo(file.pid);
  if (proc === undefined || isPostgresOf(proc, await clusterDirsOf(dataDir)) !== undefined) return;
  await fs.rm(path.join(clusterDir, 'postmaster.pid'), { force: true });
  log(`removed a stale postmaster.pid: its pid ${file.pid} is now another program (${path.basename(proc.args[0] ?? '?')})`);
}

/**
 * The cluster's password, created once. Written to a temporary file, flushed and then linked into
 * place, so a crash never leaves an empty or half-written password (and two processes starting at
 * once agree on one).
 */
async function ensurePassword(file: string, clusterExists: boolean): Promise<string> {
  const existing = await fs.readFile(file, 'utf8').then(
    (text) => text.trim(),
    () => '',
  );
  if (existing !== '') return existing;
  if (clusterExists) {
    throw new Error(`${file} is missing or empty, but the cluster next to it was initialised with the password it held: restore the file, or move the postgres folder away to start with a new database.`);
  }
  await fs.rm(file, { force: true }); // empty: left by a crash before this file was written atomically
  const password = randomBytes(18).toString('base64url');
  const tmp = `${file}.${process.pid}.tmp`;
  const handle = await fs.open(tmp, 'w', 0o600);
  try {
    await handle.writeFile(password + '\n');
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await fs.link(tmp, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    await fs.rm(tmp, { force: true });
  }
  return (await fs.readFile(file, 'utf8')).trim();
}

/**
 * What an interrupted first start may have left: initdb's staging directories, a password not yet
 * moved into place, initdb's password file of the older layout that ran initdb in place, and a
 * cluster directory initdb never finished (no PG_VERSION: a cluster that ever ran has one).
 */
async function removeUnfinishedInit(dataDir: string, l: Layout, log: (msg: string) => void): Promise<void> {
  for (const name of await fs.readdir(dataDir)) {
    const full = path.join(dataDir, name);
    if (name.startsWith('.pwfile-') || (name.startsWith(`${path.basename(l.passwordFile)}.`) && name.endsWith('.tmp'))) {
      await fs.rm(full, { force: true });
    } else if (name.startsWith(STAGING_PREFIX)) {
      const owner = await processInfo(Number(name.slice(STAGING_PREFIX.length)));
      const mtimeMs = (await fs.stat(full).catch(() => undefined))?.mtimeMs;
      if (mtimeMs === undefined) continue; // removed meanwhile
      if (owner !== undefined && owner.pid !== process.pid && Date.now() - mtimeMs < STAGING_STALE_MS) continue; // another process's initdb, under way
      await fs.rm(full, { recursive: true, force: true });
      log(`removed ${name}, an initdb an earlier start did not finish`);
    }
  }
  if (existsSync(l.clusterDir) && !existsSync(path.join(l.clusterDir, 'PG_VERSION'))) {
    await fs.rm(l.clusterDir, { recursive: true, force: true });
    log(`removed ${l.clusterDir}: an initdb an earlier start did not finish`);
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

/**
 * initdb into a staging directory beside the cluster's place, then one rename: a crash during
 * initdb leaves a staging directory the next start removes, never a half-made cluster.
 */
async function initCluster(dataDir: string, l: Layout, password: string, runAs: RunAs, log: (msg: string) => void): Promise<void> {
  const { initdb } = await postgresBinaries();
  log(`initialising PostgreSQL cluster in ${l.clusterDir}`);
  const staging = path.join(dataDir, `${STAGING_PREFIX}${process.pid}`);
  await fs.rm(staging, { recursive: true, force: true });
  await fs.mkdir(staging, { mode: 0o700 });
  // initdb reads the password from a file the cluster's user can read, outside the new cluster.
  const pwfile = path.join(staging, 'pwfile');
  await fs.writeFile(pwfile, password + '\n', { mode: 0o600 });
  if (runAs.uid !== undefined && runAs.gid !== undefined) {
    await fs.chown(staging, runAs.uid, runAs.gid);
    await fs.chown(pwfile, runAs.uid, runAs.gid);
  }
  const cluster = path.join(staging, 'cluster');
  try {
    await run(
      initdb,
      [`--pgdata=${cluster}`, '--auth=scram-sha-256', `--username=${SUPERUSER}`, `--pwfile=${pwfile}`, '--encoding=UTF8', '--locale=C'],
      runAs,
      log,
    );
    await fs.rename(cluster, l.clusterDir);
  } finally {
    await fs.rm(staging, { recursive: true, force: true });
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
  await removeUnfinishedInit(opts.dataDir, l, opts.log);
  await removePidFileOfAnotherProgram(opts.dataDir, opts.log);
  const runAs = postgresRunAs();
  const clusterExists = existsSync(path.join(l.clusterDir, 'PG_VERSION'));
  const password = await ensurePassword(l.passwordFile, clusterExists);
  if (!clusterExists) await initCluster(opts.dataDir, l, password, runAs, opts.log);

  if (!(await portIsFree('127.0.0.1', opts.port))) {
    throw new Error(`Port ${opts.port} (EMBEDDED_PG_PORT) is in use: another program listens there. Set EMBEDDED_PG_PORT, or PORT, to run side by side.`);
  }
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
    const password = await ensurePassword(layout(opts.dataDir).passwordFile, true);
    return { url: urlFor(running.port, password), owned: false, stop: () => Promise.resolve() };
  }
  return startEmbeddedPostgres(opts);
}

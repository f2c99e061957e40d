import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { freePort, waitForPort } from '../../net/ports';
import type { ProgressFn } from './progress';
import { captureCommand } from './run';

export const TEST_SERVER_MAIN = 'io.temporal.testserver.TestServer';

/**
 * Start-up oriented JVM flags for a short-lived test server: C1 only (no C2 compile threads competing with the tests
 * on a 2-core machine) and the serial GC (no GC worker threads, smallest footprint).
 */
export const JVM_FLAGS: readonly string[] = ['-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC'];

const ARCHIVE = 'app.jsa';
/** First start of the server while recording; generous because the machine may be busy building other things. */
const DUMP_START_TIMEOUT_MS = 180_000;

export type CdsResult = { ok: true } | { ok: false; reason: string };

/**
 * Creates an AppCDS (class-data-sharing) archive of the classes the test server loads during start-up, roughly halving
 * its start time, which matters because the SDK gives an `existing-path` test server only 5 s to accept connections.
 *
 * Uses a dynamic archive (`-XX:ArchiveClassesAtExit`, JDK >= 13) because it works the same on every such JDK:
 * start the server once, wait until it listens, stop it with SIGTERM so the JVM exits normally and writes the
 * archive. (`-XX:+AutoCreateSharedArchive` would do this lazily, but only from JDK 19.)
 *
 * The archive is then verified with `-Xshare:on`, which makes the JVM fail instead of silently ignoring an unusable
 * archive; on any failure the archive is removed and the caller runs without it.
 */
export async function createCdsArchive(opts: {
  dir: string;
  java: string;
  javaMajor: number;
  onProgress: ProgressFn;
}): Promise<CdsResult> {
  const { dir, java, javaMajor, onProgress } = opts;
  if (javaMajor < 13) return { ok: false, reason: `dynamic CDS archives need JDK >= 13, found ${javaMajor}` };
  const tmpArchive = `${ARCHIVE}.tmp`;
  try {
    onProgress('test server: recording a class-data-sharing archive (one start/stop of the server)');
    await recordArchive(dir, java, tmpArchive);
    const verified = await verifyArchive(dir, java, tmpArchive);
    if (!verified.ok) return verified;
    await fs.rename(path.join(dir, tmpArchive), path.join(dir, ARCHIVE));
    return { ok: true };
  } catch (err) {
    return { ok: false, reason: err instanceof Error ? err.message : String(err) };
  } finally {
    await fs.rm(path.join(dir, tmpArchive), { force: true });
  }
}

async function recordArchive(dir: string, java: string, archive: string): Promise<void> {
  const port = await freePort();
  // Relative class path and archive name, cwd = dir: see the wrapper script for why.
  const child = spawn(java, [...JVM_FLAGS, `-XX:ArchiveClassesAtExit=${archive}`, '-cp', 'lib/*', TEST_SERVER_MAIN, String(port)], {
    cwd: dir,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr = (stderr + c.toString('utf8')).slice(-4_000)));
  let exited: string | undefined;
  const exit = new Promise<void>((resolve) => {
    child.once('error', (err) => {
      exited = err.message;
      resolve();
    });
    child.once('exit', (code, signal) => {
      exited = `exited early (code ${String(code)}, signal ${String(signal)}): ${stderr.trim().slice(-500)}`;
      resolve();
    });
  });
  try {
    await waitForPort(port, { timeoutMs: DUMP_START_TIMEOUT_MS, abortReason: () => exited });
  } catch (err) {
    child.kill('SIGKILL');
    throw err;
  }
  // SIGTERM, not SIGKILL: the archive is written by the JVM's orderly exit path.
  child.kill('SIGTERM');
  const killer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  await exit;
  clearTimeout(killer);
  await fs.access(path.join(dir, archive)).catch(() => {
    throw new Error(`the JVM did not write ${archive}: ${stderr.trim().slice(-500)}`);
  });
}

async function verifyArchive(dir: string, java: string, archive: string): Promise<CdsResult> {
  // Without a port the server prints its usage and exits: enough to prove the main class comes from the archive.
  const run = await captureCommand(
    java,
    [...JVM_FLAGS, '-Xshare:on', `-XX:SharedArchiveFile=${archive}`, '-Xlog:class+load=info', '-cp', 'lib/*', TEST_SERVER_MAIN],
    { cwd: dir, timeoutMs: 60_000 },
  );
  if (!run || run.code !== 0) {
    return { ok: false, reason: `archive rejected by the JVM: ${run?.output.trim().split('\n').slice(-3).join(' ') ?? ''}` };
  }
  const fromArchive = new RegExp(`${TEST_SERVER_MAIN.replace(/\./g, '\\.')} source: shared objects file`);
  if (!fromArchive.test(run.output)) return { ok: false, reason: 'archive loaded but does not contain the test server' };
  return { ok: true };
}

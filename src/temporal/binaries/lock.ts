import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { formatElapsed, type ProgressFn } from './progress';

interface LockOwner {
  pid: number;
  host: string;
  token: string;
  since: string;
}

export interface LockOptions {
  /** What the holder is doing, for "waiting for ..." messages. */
  what: string;
  onProgress?: ProgressFn;
  /** A lock whose heartbeat is older than this is considered abandoned (holder frozen, or on another host). */
  staleMs?: number;
  pollMs?: number;
}

const OWNER_FILE = 'owner.json';

/**
 * Cross-process mutual exclusion around a cache build, so two processes (two test runs, `npm start` + the CLI) never
 * build into the same cache entry at once. The second one waits and then finds the entry already built.
 *
 * Implemented as an atomic `mkdir` rather than a flock because Node has no portable flock and mkdir is atomic on
 * every local filesystem. The holder refreshes the directory's mtime as a heartbeat; a lock is broken when its owner
 * process is gone (same host) or its heartbeat is older than `staleMs` (a crashed or Ctrl-C'ed build must not block
 * every later run).
 */
export async function withLock<T>(lockDir: string, fn: () => Promise<T>, opts: LockOptions): Promise<T> {
  const staleMs = opts.staleMs ?? 120_000;
  const pollMs = opts.pollMs ?? 250;
  const heartbeatMs = Math.max(1_000, Math.floor(staleMs / 4));
  const token = randomBytes(8).toString('hex');
  await fs.mkdir(path.dirname(lockDir), { recursive: true });

  const waitStarted = Date.now();
  let lastReport = 0;
  for (;;) {
    if (await tryAcquire(lockDir, token)) break;
    const stale = await staleReason(lockDir, staleMs);
    if (stale) {
      opts.onProgress?.(`removing stale lock ${lockDir} (${stale.reason})`);
      await breakLock(lockDir, stale.token);
      continue;
    }
    if (opts.onProgress && Date.now() - lastReport >= 10_000) {
      lastReport = Date.now();
      const owner = await readOwner(lockDir);
      opts.onProgress(
        `waiting for another process${owner ? ` (pid ${owner.pid})` : ''} that is ${opts.what} ` +
          `(${formatElapsed(Date.now() - waitStarted)})`,
      );
    }
    await new Promise((r) => setTimeout(r, pollMs));
  }

  const heartbeat = setInterval(() => {
    const now = new Date();
    fs.utimes(lockDir, now, now).catch(() => undefined);
  }, heartbeatMs);
  heartbeat.unref();
  try {
    return await fn();
  } finally {
    clearInterval(heartbeat);
    // Only remove the lock if it is still ours: if we were considered stale and someone broke it, deleting theirs
    // would let a third process in.
    const owner = await readOwner(lockDir);
    if (owner?.token === token) await fs.rm(lockDir, { recursive: true, force: true });
  }
}

async function tryAcquire(lockDir: string, token: string): Promise<boolean> {
  try {
    await fs.mkdir(lockDir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
  const owner: LockOwner = { pid: process.pid, host: os.hostname(), token, since: new Date().toISOString() };
  await fs.writeFile(path.join(lockDir, OWNER_FILE), JSON.stringify(owner));
  return true;
}

async function readOwner(lockDir: string): Promise<LockOwner | undefined> {
  try {
    return JSON.parse(await fs.readFile(path.join(lockDir, OWNER_FILE), 'utf8')) as LockOwner;
  } catch {
    // Missing (holder is between mkdir and writeFile, or the lock was just released) or torn: unknown owner.
    return undefined;
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: exists but belongs to another user, so it is alive.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

interface Stale {
  token: string | undefined;
  reason: string;
}

async function staleReason(lockDir: string, staleMs: number): Promise<Stale | undefined> {
  let mtimeMs: number;
  try {
    mtimeMs = (await fs.stat(lockDir)).mtimeMs;
  } catch {
    return undefined; // released meanwhile; the next tryAcquire will tell
  }
  const owner = await readOwner(lockDir);
  if (owner && owner.host === os.hostname() && !processAlive(owner.pid)) {
    return { token: owner.token, reason: `owner pid ${owner.pid} is gone` };
  }
  const age = Date.now() - mtimeMs;
  if (age > staleMs) {
    return { token: owner?.token, reason: `no heartbeat for ${formatElapsed(age)}` };
  }
  return undefined;
}

/**
 * Removes an abandoned lock. Renaming first makes the removal atomic, and re-checking the owner token right before
 * narrows the window in which a lock freshly taken by a third process could be removed by mistake.
 */
async function breakLock(lockDir: string, expectedToken: string | undefined): Promise<void> {
  const current = await readOwner(lockDir);
  if (current?.token !== expectedToken) return; // changed hands meanwhile: re-evaluate
  const grave = `${lockDir}.stale-${randomBytes(4).toString('hex')}`;
  try {
    await fs.rename(lockDir, grave);
  } catch {
    return; // someone else broke or released it first
  }
  await fs.rm(grave, { recursive: true, force: true });
}

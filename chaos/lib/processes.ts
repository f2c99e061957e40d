import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** Root of the repository: the service's entry points run from here. */
export const REPO_ROOT = path.resolve(__dirname, '..', '..');

/** One OS process of the service this run started (a role, or `npm start`), with its own process group. */
export interface ServiceProcess {
  readonly name: string;
  readonly child: ChildProcess;
  readonly pid: number;
  /** Resolves when the process has exited (code, or the signal that ended it). */
  readonly exited: Promise<string>;
  /** The last 20,000 characters it wrote (stdout and stderr); the whole output is in its log file. */
  tail(): string;
  /** Whether its output has contained `mark` (one of the marks it was started with) at some point. */
  saw(mark: string): boolean;
  alive(): boolean;
}

/**
 * Starts `args` (a command and its arguments) from the repository in a process group of its own
 * (`detached`), so that a kill -9 can reach everything it runs, with stdout and stderr appended to
 * `logFile`.
 */
export function startProcess(name: string, command: string, args: readonly string[], env: NodeJS.ProcessEnv, logFile: string, marks: readonly string[] = []): ServiceProcess {
  const log = fs.openSync(logFile, 'a');
  fs.writeSync(log, `\n=== ${new Date().toISOString()} ${name}: ${[command, ...args].join(' ')}\n`);
  const child = spawn(command, args, { cwd: REPO_ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  fs.closeSync(log);
  const out = fs.createWriteStream(logFile, { flags: 'a' });
  let tail = '';
  const seen = new Set<string>();
  const keep = (c: Buffer): void => {
    out.write(c);
    // The tail before and after this chunk covers a mark split across two chunks.
    tail = (tail + c.toString('utf8')).slice(-20_000);
    for (const m of marks) if (!seen.has(m) && tail.includes(m)) seen.add(m);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<string>((resolve) => {
    child.once('error', (err) => resolve(`could not start: ${err.message}`));
    child.once('exit', (code, signal) => {
      resolve(signal ?? `code ${code}`);
    });
  });
  void exited.then(() => out.end());
  if (child.pid === undefined) throw new Error(`${name} did not start (${command})`);
  return { name, child, pid: child.pid, exited, tail: () => tail, saw: (m) => seen.has(m), alive: () => child.exitCode === null && child.signalCode === null };
}

/** A service entry point (`src/entry/<entry>.ts`) as its own Node process, without a launcher in between. */
export function startEntry(entry: 'api' | 'worker' | 'start', env: NodeJS.ProcessEnv, logFile: string, marks: readonly string[] = []): ServiceProcess {
  return startProcess(entry, process.execPath, ['--import', 'tsx', `src/entry/${entry}.ts`], env, logFile, marks);
}

/** Every live process whose parent chain leads to `root` (Linux /proc), root excluded. */
export function descendants(root: number): number[] {
  const parents = new Map<number, number>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      // The fields after the command name, which is in parentheses and may hold spaces.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(Number(entry), ppid);
    } catch {
      // gone between readdir and read
    }
  }
  const found: number[] = [];
  let frontier = [root];
  while (frontier.length > 0) {
    const next = [...parents].filter(([, ppid]) => frontier.includes(ppid)).map(([pid]) => pid);
    found.push(...next);
    frontier = next;
  }
  return found;
}

function signal(target: number, sig: NodeJS.Signals): void {
  try {
    process.kill(target, sig);
  } catch {
    // already gone
  }
}

/**
 * kill -9 of a process and everything under it at the same instant, as when a container is killed:
 * its process group, every descendant (servers it started in groups of their own, and their
 * children), and their groups. Resolves once `root` has exited.
 */
export async function killTree(p: ServiceProcess): Promise<void> {
  const all = [p.pid, ...descendants(p.pid)];
  for (const pid of all) signal(-pid, 'SIGKILL');
  for (const pid of all) signal(pid, 'SIGKILL');
  await p.exited;
  await waitGone(all, 30_000);
}

/**
 * Waits until none of `pids` exists any more. A killed process stays a zombie until its new parent
 * (init) reaps it, and a zombie still answers `kill(pid, 0)`, which is how the service tells a live
 * postmaster from a stale pid file: so this waits for the reaping too. Zombies still there at the
 * deadline are left (they hold nothing); a process that is still running is an error.
 */
export async function waitGone(pids: readonly number[], timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const state = (pid: number): 'gone' | 'zombie' | 'running' => {
    try {
      return /^\S+ \(.*\) Z/.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8')) ? 'zombie' : 'running';
    } catch {
      return 'gone';
    }
  };
  for (;;) {
    const left = pids.filter((pid) => state(pid) !== 'gone');
    if (left.length === 0) return;
    if (Date.now() > deadline) {
      const running = left.filter((pid) => state(pid) === 'running');
      if (running.length > 0) throw new Error(`processes still running after kill -9: ${running.join(', ')}`);
      return;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** SIGTERM, then SIGKILL of its group after `graceMs`. Resolves once it has exited. */
export async function stopProcess(p: ServiceProcess, graceMs: number): Promise<void> {
  if (!p.alive()) return;
  signal(p.pid, 'SIGTERM');
  const timer = setTimeout(() => {
    signal(-p.pid, 'SIGKILL');
    signal(p.pid, 'SIGKILL');
  }, graceMs);
  await p.exited;
  clearTimeout(timer);
}

/** Resolves when `ready()` holds (checked every 200 ms); throws after `timeoutMs` or when `p` exits first. */
export async function waitUntilReady(p: ServiceProcess, what: string, ready: () => boolean | Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await Promise.resolve(ready()).catch(() => false)) return;
    if (!p.alive()) throw new Error(`${p.name} exited before ${what}:\n${p.tail().slice(-3_000)}`);
    if (Date.now() > deadline) throw new Error(`${p.name}: no ${what} within ${Math.round(timeoutMs / 1000)} s:\n${p.tail().slice(-3_000)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import { promisify } from 'node:util';

/**
 * What the system says about a running process: enough to decide whether a pid found in a pid
 * file, or a process left running by a crashed run, is one of this service's own servers. After a
 * crash (a container restarted, SIGKILL) a pid in a file may long since belong to another program.
 */
export interface ProcessInfo {
  readonly pid: number;
  readonly ppid: number;
  /** Its argv. Without /proc (macOS) the command line split on spaces. */
  readonly args: readonly string[];
  /** Its working directory, when the system tells (Linux, for our own user or as root). */
  readonly cwd: string | undefined;
  /** When it started, in the system's own terms: the same pid with another value is another process. */
  readonly startedAt: string;
}

const PROC = '/proc';

async function hasProc(): Promise<boolean> {
  try {
    await fs.access(`${PROC}/self/stat`);
    return true;
  } catch {
    return false;
  }
}

/** The process with this pid, or undefined when there is none (a zombie counts as none). */
export async function processInfo(pid: number): Promise<ProcessInfo | undefined> {
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  if (await hasProc()) return procInfo(pid);
  return (await psTable(['-p', String(pid)])).find((p) => p.pid === pid);
}

/** Every process this user can see. */
export async function listProcesses(): Promise<ProcessInfo[]> {
  if (await hasProc()) {
    const pids = (await fs.readdir(PROC)).filter((d) => /^\d+$/.test(d)).map(Number);
    const infos = await Promise.all(pids.map(procInfo));
    return infos.filter((p): p is ProcessInfo => p !== undefined);
  }
  return psTable(['-A']);
}

/** Waits until the process is gone; false when it is still there after `timeoutMs`. */
export async function waitUntilGone(pid: number, startedAt: string, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const now = await processInfo(pid);
    if (now === undefined || now.startedAt !== startedAt) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function procInfo(pid: number): Promise<ProcessInfo | undefined> {
  try {
    const stat = await fs.readFile(`${PROC}/${pid}/stat`, 'utf8');
    // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so split after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const state = fields[0];
    if (state === 'Z' || state === 'X') return undefined;
    const cmdline = await fs.readFile(`${PROC}/${pid}/cmdline`, 'utf8');
    const args = cmdline.split('\0');
    if (args.at(-1) === '') args.pop();
    const cwd = await fs.readlink(`${PROC}/${pid}/cwd`).catch(() => undefined);
    // Field 22 of stat (the 20th after the comm): start time in clock ticks since boot.
    return { pid, ppid: Number(fields[1]), args, cwd, startedAt: fields[19] ?? '' };
  } catch {
    return undefined; // gone meanwhile, or not ours to read
  }
}

const exec = promisify(execFile);

async function psTable(select: string[]): Promise<ProcessInfo[]> {
  let stdout: string;
  try {
    ({ stdout } = await exec('ps', [...select, '-o', 'pid=,ppid=,lstart=,command='], { maxBuffer: 16 * 1024 * 1024 }));
  } catch {
    return []; // `ps -p` exits non-zero when the pid does not exist
  }
  const rows: ProcessInfo[] = [];
  for (const line of stdout.split('\n')) {
    // lstart is five words: "Mon Nov 25 11:44:00 2026".
    const m = /^\s*(\d+)\s+(\d+)\s+(\S+\s+\S+\s+\S+\s+\S+\s+\S+)\s+(.*)$/.exec(line);
    if (!m) continue;
    const args = (m[4] ?? '').split(' ').filter((a) => a !== '');
    rows.push({ pid: Number(m[1]), ppid: Number(m[2]), args, cwd: undefined, startedAt: m[3] ?? '' });
  }
  return rows;
}

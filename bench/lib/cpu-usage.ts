import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

/**
 * CPU time (user + system) of processes, from /proc (Linux). On 2 cores the load generator, the
 * server and PostgreSQL compete: CPU per request says where the machine's time went, which req/s
 * alone cannot. Elsewhere everything reads as undefined and the columns show "-".
 */
let ticksPerSecond: number | undefined;
function clockTicks(): number {
  if (ticksPerSecond === undefined) {
    try {
      ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return ticksPerSecond;
}

interface ProcStat {
  readonly ppid: number;
  readonly cpuMs: number;
}

function readStat(pid: number): ProcStat | undefined {
  let text: string;
  try {
    text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // Fields after the parenthesised command name (which may contain spaces): state ppid ... utime(14) stime(15).
  const rest = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const ppid = Number(rest[1]);
  const utime = Number(rest[11]);
  const stime = Number(rest[12]);
  if (![ppid, utime, stime].every(Number.isFinite)) return undefined;
  return { ppid, cpuMs: ((utime + stime) * 1000) / clockTicks() };
}

/** CPU ms of one process, all its threads (undefined when unreadable). */
export function processCpuMs(pid: number): number | undefined {
  return readStat(pid)?.cpuMs;
}

/** CPU ms of a process and its direct children (a postmaster and its backends). */
export function processTreeCpuMs(rootPid: number): number | undefined {
  const root = readStat(rootPid);
  if (!root) return undefined;
  let total = root.cpuMs;
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = readStat(Number(entry));
    if (stat && stat.ppid === rootPid) total += stat.cpuMs;
  }
  return total;
}

/** This process (the load generator), user + system. */
export function selfCpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/**
 * Busy CPU ms of the whole machine, every core (/proc/stat: all but idle and iowait). Set against
 * the processes' own figures it shows whether something else competed for the cores during a run.
 */
export function machineBusyMs(): number | undefined {
  try {
    const line = fs.readFileSync('/proc/stat', 'utf8').split('\n', 1)[0] as string;
    const [user, nice, system, , , irq, softirq, steal] = line.trim().split(/\s+/).slice(1).map(Number) as number[];
    const busy = [user, nice, system, irq, softirq, steal].reduce<number>((sum, v) => sum + (v ?? 0), 0);
    return Number.isFinite(busy) ? (busy * 1000) / clockTicks() : undefined;
  } catch {
    return undefined;
  }
}

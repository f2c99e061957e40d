import fs from 'node:fs';

/**
 * Resident memory of processes, from /proc/<pid>/status (Linux; elsewhere everything reads as
 * undefined and the scenarios print "-"). VmRSS is now; VmHWM is the kernel's own high-water mark
 * of VmRSS since the process started, so a peak between two samples is not missed.
 */
export interface ProcessMemory {
  readonly rssBytes: number;
  readonly peakRssBytes: number;
}

function kbField(status: string, name: string): number | undefined {
  const m = new RegExp(`^${name}:\\s+(\\d+) kB$`, 'm').exec(status);
  return m ? Number(m[1]) * 1024 : undefined;
}

export function processMemory(pid: number): ProcessMemory | undefined {
  let status: string;
  try {
    status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return undefined;
  }
  const rssBytes = kbField(status, 'VmRSS');
  const peakRssBytes = kbField(status, 'VmHWM');
  return rssBytes === undefined || peakRssBytes === undefined ? undefined : { rssBytes, peakRssBytes };
}

/** Pids whose parent is `pid` (a launcher's real server, e.g. the Temporal CLI under its Node wrapper). */
export function childPids(pid: number): number[] {
  const out: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid) out.push(Number(entry));
    } catch {
      // gone between readdir and read
    }
  }
  return out;
}

/**
 * Samples a process's VmRSS every `intervalMs` until stopped: the highest sample within a phase
 * (VmHWM covers the whole life, start-up included, e.g. bundling the workflows).
 */
export class RssSampler {
  private maxBytes = 0;
  private samples = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly pid: number,
    intervalMs = 500,
  ) {
    this.sample();
    this.timer = setInterval(() => this.sample(), intervalMs);
    this.timer.unref();
  }

  private sample(): void {
    const m = processMemory(this.pid);
    if (m === undefined) return;
    this.samples++;
    if (m.rssBytes > this.maxBytes) this.maxBytes = m.rssBytes;
  }

  /** Highest VmRSS seen so far (bytes), undefined when /proc could not be read. */
  max(): number | undefined {
    return this.samples === 0 ? undefined : this.maxBytes;
  }

  stop(): number | undefined {
    clearInterval(this.timer);
    this.sample();
    return this.max();
  }
}

export const mib = (bytes: number | undefined): string => (bytes === undefined ? '-' : `${(bytes / 2 ** 20).toFixed(0)} MiB`);

import { performance } from 'node:perf_hooks';
import { processTreeCpuMs } from './cpu-usage';

/**
 * One-at-a-time timing, for scenarios that measure the time of a request or a call rather than
 * throughput: each call's latency, the wall time of the blocks, and the CPU spent meanwhile by the
 * process that does the work (`cpuNow`: the server's, or this process's) and by PostgreSQL.
 */
export interface TimedSample {
  readonly latencies: number[];
  wallMs: number;
  cpuMs: number;
  /** Negative when a backend closed during the run took its CPU time with it: then unknown. */
  pgCpuMs: number;
}

export const emptySample = (): TimedSample => ({ latencies: [], wallMs: 0, cpuMs: 0, pgCpuMs: 0 });

/** Runs `once` n times, one after the other, adding to `sample` (null: a warm-up, nothing kept). */
export async function timedBlock(sample: TimedSample | null, n: number, once: () => Promise<unknown>, cpuNow: () => number | undefined, pgPid: number | undefined): Promise<void> {
  const cpu0 = cpuNow();
  const pg0 = pgPid === undefined ? undefined : processTreeCpuMs(pgPid);
  const t0 = performance.now();
  for (let i = 0; i < n; i++) {
    const s = performance.now();
    await once();
    sample?.latencies.push(performance.now() - s);
  }
  if (sample === null) return;
  sample.wallMs += performance.now() - t0;
  const cpu1 = cpuNow();
  const pg1 = pgPid === undefined ? undefined : processTreeCpuMs(pgPid);
  if (cpu0 !== undefined && cpu1 !== undefined) sample.cpuMs += cpu1 - cpu0;
  if (pg0 !== undefined && pg1 !== undefined) sample.pgCpuMs += pg1 - pg0;
}

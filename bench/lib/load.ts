import autocannon from 'autocannon';
import type { IncomingHttpHeaders } from 'node:http';

/** One HTTP request shape to fire repeatedly. */
export interface LoadTarget {
  readonly url: string;
  readonly method?: autocannon.Request['method'];
  readonly headers?: IncomingHttpHeaders;
  readonly body?: string;
  /** When set, every response body must equal it exactly (counted as a mismatch otherwise). */
  readonly expectBody?: string;
}

export interface LoadOptions {
  readonly durationS: number;
  readonly connections: number;
  readonly pipelining: number;
}

export interface Measurement {
  readonly label: string;
  readonly requestsPerSec: number;
  readonly latencyP50Ms: number;
  readonly latencyP99Ms: number;
  readonly latencyMaxMs: number;
  readonly total: number;
  readonly non2xx: number;
  readonly errors: number;
  readonly timeouts: number;
  readonly mismatches: number;
  readonly statusCodes: Record<string, number>;
  /**
   * CPU microseconds per response of the server process, PostgreSQL, and the load generator (when
   * known), and of the whole machine (all processes, these included).
   */
  readonly cpuUsPerRequest?: { readonly server?: number; readonly postgres?: number; readonly loadgen?: number; readonly machine?: number };
}

/** Fires load at one target with autocannon (in this process) and reduces the result. */
export async function runLoad(label: string, target: LoadTarget, opts: LoadOptions): Promise<Measurement> {
  const result = await autocannon({
    url: target.url,
    method: target.method ?? 'GET',
    headers: target.headers,
    body: target.body,
    expectBody: target.expectBody,
    connections: opts.connections,
    pipelining: opts.pipelining,
    duration: opts.durationS,
    timeout: 10,
  });
  return toMeasurement(label, result);
}

/** Reduces an autocannon result to the row the report prints (shared by scenarios with their own load shape). */
export function toMeasurement(label: string, result: autocannon.Result): Measurement {
  const statusCodes: Record<string, number> = {};
  for (const [code, stat] of Object.entries(result.statusCodeStats ?? {})) statusCodes[code] = stat.count ?? 0;
  return {
    label,
    requestsPerSec: result.requests.average,
    latencyP50Ms: result.latency.p50,
    latencyP99Ms: result.latency.p99,
    latencyMaxMs: result.latency.max,
    total: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    mismatches: result.mismatches,
    statusCodes,
  };
}

export class BadResponses extends Error {
  override readonly name = 'BadResponses';
}

/**
 * A fast wrong answer (a 401, a connection reset) must never pass for a result: any non-2xx,
 * error, timeout or body mismatch fails the run.
 */
export function assertClean(m: Measurement): void {
  const problems: string[] = [];
  if (m.total === 0) problems.push('no responses at all');
  if (m.non2xx > 0) problems.push(`${m.non2xx} non-2xx responses (status codes: ${JSON.stringify(m.statusCodes)})`);
  if (m.errors > 0) problems.push(`${m.errors} connection errors (${m.timeouts} timeouts)`);
  if (m.mismatches > 0) problems.push(`${m.mismatches} responses whose body differs from the expected one`);
  if (problems.length > 0) throw new BadResponses(`${m.label}: ${problems.join('; ')}`);
}

/** Samples CPU counters before and after the measured run; each returns ms or undefined. */
export type CpuProbes = Partial<Record<'server' | 'postgres' | 'loadgen' | 'machine', () => number | undefined>>;

/**
 * Warms the server up (result checked, not reported), then measures it, reading the CPU probes
 * around the measured run only.
 */
export async function warmAndMeasure(
  label: string,
  target: LoadTarget,
  opts: LoadOptions & { readonly warmupS: number; readonly cpu?: CpuProbes },
): Promise<Measurement & { readonly warmupTotal: number }> {
  let warmupTotal = 0;
  if (opts.warmupS > 0) {
    const w = await runLoad(`${label} (warm-up)`, target, { ...opts, durationS: opts.warmupS });
    assertClean(w);
    warmupTotal = w.total;
  }
  const probes = Object.entries(opts.cpu ?? {}) as [keyof CpuProbes, () => number | undefined][];
  const before = probes.map(([, read]) => read());
  const m = await runLoad(label, target, opts);
  assertClean(m);
  const cpu: Record<string, number> = {};
  probes.forEach(([name, read], i) => {
    const a = before[i];
    const b = read();
    if (a !== undefined && b !== undefined && m.total > 0) cpu[name] = ((b - a) * 1000) / m.total;
  });
  return { ...m, cpuUsPerRequest: cpu, warmupTotal };
}

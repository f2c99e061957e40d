import type { IncomingHttpHeaders } from 'node:http';
import type { BenchContext } from './context';
import { machineBusyMs, processCpuMs, processTreeCpuMs, selfCpuMs } from './cpu-usage';
import { warmAndMeasure, type Measurement } from './load';
import type { ServerSpec } from './child-server';

export interface ServerRequest {
  readonly path: string;
  readonly method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  readonly headers?: IncomingHttpHeaders;
  readonly body?: string;
}

export interface MeasuredServer {
  readonly measurement: Measurement;
  /** Requests answered in all: probe, warm-up and measured run (in-flight ones at the end aside). */
  readonly served: number;
  /** Status and body of one request made before the load, as a check and for reference. */
  readonly probe: { readonly status: number; readonly body: string };
}

/**
 * Starts a server child, makes one request (it must answer `expect.status`, default 200, and `expect.body` when
 * given), warms it up, measures it with every body checked, and stops it, whatever happens.
 * Servers are measured one at a time, so each gets the machine to itself.
 */
export async function measureServer(
  ctx: BenchContext,
  spec: Omit<ServerSpec, 'stdoutFile' | 'cpuProfileDir'> & { readonly logToFile?: boolean },
  request: ServerRequest,
  expect: { readonly status?: number; readonly body?: string } = {},
): Promise<MeasuredServer> {
  const server = await ctx.startServer(spec);
  try {
    const url = `${server.url}${request.path}`;
    const res = await fetch(url, { method: request.method ?? 'GET', headers: request.headers as Record<string, string>, body: request.body });
    const probe = { status: res.status, body: await res.text() };
    const wanted = expect.status ?? 200;
    if (probe.status !== wanted) throw new Error(`${spec.name}: ${request.method ?? 'GET'} ${request.path} answered ${probe.status}, expected ${wanted}: ${probe.body.slice(0, 500)}`);
    if (expect.body !== undefined && probe.body !== expect.body) {
      throw new Error(`${spec.name}: body differs from the reference\n  got:      ${probe.body}\n  expected: ${expect.body}`);
    }
    const { durationS, warmupS, connections, pipelining } = ctx.settings;
    const pgPid = await ctx.postgresPid();
    const measurement = await warmAndMeasure(
      spec.name,
      { url, method: request.method, headers: request.headers, body: request.body, expectBody: probe.body },
      {
        durationS,
        warmupS,
        connections,
        pipelining,
        cpu: {
          server: () => processCpuMs(server.pid),
          postgres: () => (pgPid === undefined ? undefined : processTreeCpuMs(pgPid)),
          loadgen: selfCpuMs,
          machine: machineBusyMs,
        },
      },
    );
    return { measurement, probe, served: 1 + measurement.warmupTotal + measurement.total };
  } finally {
    await server.stop();
  }
}

/**
 * Collects one measurement per server per round and reports, per server, the round with the
 * median req/s (its latencies come from that same round). Servers keep their first-seen order.
 */
export class Rounds {
  private readonly byLabel = new Map<string, Measurement[]>();

  add(m: Measurement): void {
    const list = this.byLabel.get(m.label) ?? [];
    list.push(m);
    this.byLabel.set(m.label, list);
  }

  medians(): Measurement[] {
    return [...this.byLabel.values()].map((list) => {
      const sorted = [...list].sort((a, b) => a.requestsPerSec - b.requestsPerSec);
      return sorted[Math.floor((sorted.length - 1) / 2)] as Measurement;
    });
  }

  /** One line per server with every round's req/s, when there was more than one round. */
  notes(): string[] {
    const lines: string[] = [];
    const width = Math.max(...[...this.byLabel.keys()].map((l) => l.length));
    for (const [label, list] of this.byLabel) {
      if (list.length > 1) lines.push(`  ${label.padEnd(width)}  req/s per round: ${list.map((m) => m.requestsPerSec.toFixed(0)).join(', ')}`);
    }
    return lines.length > 0 ? ['rounds (median reported):', ...lines] : [];
  }
}

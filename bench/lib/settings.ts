import path from 'node:path';

/**
 * Knobs of a bench run, all from the environment so `npm run bench` needs no flags:
 *
 *   BENCH_DURATION     seconds measured per server (default 10)
 *   BENCH_WARMUP       seconds of unmeasured load before each measurement (default 2)
 *   BENCH_CONNECTIONS  concurrent keep-alive connections (default 50)
 *   BENCH_PIPELINING   requests in flight per connection (default 1)
 *   BENCH_LOG_LEVEL    LOG_LEVEL of the real service under test (default info: logging is part of the cost)
 *   BENCH_CPU_PROF     comma-separated server names to run with --cpu-prof (e.g. `stack`), summarised after the run
 *   BENCH_ROUNDS       rounds of measurement; servers are measured in turn each round and the round with
 *                      the median req/s is reported per server (default 1; more = steadier on a busy machine)
 *   BENCH_COMPARE      comma-separated paths of other checkouts of this repository (e.g. a `git worktree`
 *                      with a candidate change): their real stack is measured too, as `stack@<dir name>`,
 *                      in the same rounds, against the same PostgreSQL and baselines
 *   BENCH_DIAG         1: scenarios add their diagnostic variants (e.g. floor through Sequelize, stack without logs)
 *   BENCH_KEEP         1: keep the run's temporary directory (service logs, profiles) instead of deleting it
 *   BENCH_STRICT       1: exit with code 3 when a ratio misses its target
 */
export interface BenchSettings {
  readonly durationS: number;
  readonly warmupS: number;
  readonly connections: number;
  readonly pipelining: number;
  readonly serviceLogLevel: string;
  readonly cpuProfile: ReadonlySet<string>;
  readonly rounds: number;
  readonly compareDirs: readonly string[];
  readonly diagnostics: boolean;
  readonly keepTmp: boolean;
}

/** A scenario's own whole-number knob from the environment, range-checked (a typo fails the run). */
export function intFromEnv(name: string, fallback: number, min: number, max: number): number {
  const n = num(process.env, name, fallback, min, max);
  if (!Number.isInteger(n)) throw new Error(`${name}=${process.env[name]}: expected a whole number between ${min} and ${max}`);
  return n;
}

function num(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < min || n > max) throw new Error(`${name}=${raw}: expected a number between ${min} and ${max}`);
  return n;
}

export function loadSettings(env: NodeJS.ProcessEnv = process.env): BenchSettings {
  const level = env.BENCH_LOG_LEVEL || 'info';
  if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(level)) throw new Error(`BENCH_LOG_LEVEL=${level}: not a pino level`);
  return {
    durationS: num(env, 'BENCH_DURATION', 10, 1, 600),
    warmupS: num(env, 'BENCH_WARMUP', 2, 0, 120),
    connections: Math.round(num(env, 'BENCH_CONNECTIONS', 50, 1, 2000)),
    pipelining: Math.round(num(env, 'BENCH_PIPELINING', 1, 1, 100)),
    serviceLogLevel: level,
    cpuProfile: new Set((env.BENCH_CPU_PROF ?? '').split(',').map((s) => s.trim()).filter((s) => s !== '')),
    rounds: Math.round(num(env, 'BENCH_ROUNDS', 1, 1, 20)),
    compareDirs: (env.BENCH_COMPARE ?? '').split(',').map((s) => s.trim()).filter((s) => s !== '').map((d) => path.resolve(d)),
    diagnostics: ['1', 'true'].includes(env.BENCH_DIAG ?? ''),
    keepTmp: ['1', 'true'].includes(env.BENCH_KEEP ?? ''),
  };
}

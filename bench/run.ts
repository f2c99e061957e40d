/**
 * `npm run bench [-- <scenario>...]`: runs the named scenarios (all when none is named) and prints
 * one table per scenario. `npm run bench -- --list` lists them. Settings: bench/lib/settings.ts.
 *
 * Each server under test runs in its own Node process; autocannon runs in this one. Everything
 * started here (server children, the embedded PostgreSQL, the temporary directory) is released at
 * the end, on error, and on Ctrl-C / SIGTERM.
 */
import os from 'node:os';
import { BenchContext } from './lib/context';
import { formatResult, targetsMet } from './lib/report';
import { loadSettings } from './lib/settings';
import { SCENARIOS } from './scenarios';

function usage(): string {
  return ['usage: npm run bench [-- <scenario>...]', 'scenarios:', ...SCENARIOS.map((s) => `  ${s.name.padEnd(12)} ${s.description}`)].join('\n');
}

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  if (args.includes('--list') || args.includes('-h') || args.includes('--help')) {
    console.log(usage());
    return 0;
  }
  const unknown = args.filter((a) => !SCENARIOS.some((s) => s.name === a));
  if (unknown.length > 0) {
    console.error(`Unknown scenario(s): ${unknown.join(', ')}\n${usage()}`);
    return 2;
  }
  const selected = args.length === 0 ? SCENARIOS : SCENARIOS.filter((s) => args.includes(s.name));
  const settings = loadSettings();
  const ctx = await BenchContext.create(settings);

  // First signal: stop everything cleanly, then exit. Signals arrive in bursts (the terminal's
  // Ctrl-C reaches npm, tsx and us; tsx relays it again), so repeats are ignored for 3 s; after that,
  // another one exits at once and the watchdog (bench/lib/watchdog.ts) stops PostgreSQL.
  let firstSignalAt: number | undefined;
  const onSignal = (signal: NodeJS.Signals): void => {
    if (firstSignalAt === undefined) {
      firstSignalAt = Date.now();
      console.error(`\n${signal}: stopping servers and PostgreSQL...`);
      void ctx.close().finally(() => process.exit(130));
    } else if (Date.now() - firstSignalAt > 3_000) {
      process.exit(130);
    }
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  const settingsLine =
    `${settings.connections} connections, pipelining ${settings.pipelining}, ${settings.warmupS} s warm-up + ${settings.durationS} s per server, ` +
    `${os.cpus().length} CPUs, node ${process.version}`;
  let failed = false;
  let missed = false;
  try {
    for (const scenario of selected) {
      console.log(`Running ${scenario.name}: ${scenario.description}`);
      const started = Date.now();
      const result = await scenario.run(ctx);
      console.log(formatResult(scenario.name, result, settingsLine));
      console.log(`(${((Date.now() - started) / 1000).toFixed(0)} s)`);
      if (!targetsMet(result)) missed = true;
    }
  } catch (err) {
    failed = true;
    console.error(`\nBench failed: ${(err as Error).stack ?? String(err)}`);
  } finally {
    await ctx.close();
  }
  if (failed) return 1;
  // A missed target is reported, not fatal, unless asked: benchmarks on shared machines are noisy.
  return missed && ['1', 'true'].includes(process.env.BENCH_STRICT ?? '') ? 3 : 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);

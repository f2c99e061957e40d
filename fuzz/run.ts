/**
 * `npm run fuzz`: fuzzing of both surfaces from /openapi.json, in two phases (phases.ts): hostile
 * mutations of every member and parameter (fuzz/mutation-*.ts), then schemathesis.
 *
 * Here, with the network: the Python venv with schemathesis (once, cached outside the repository;
 * only when that phase runs) and the Temporal CLI (the same cache as `npm start`). Then
 * fuzz/session.ts does the run, inside a network namespace that has only a loopback interface
 * (see isolation.ts), and its exit code is ours. Environment: FUZZ_PHASES, FUZZ_MUTATION_CASES,
 * FUZZ_MAX_EXAMPLES, FUZZ_SEED, FUZZ_WORKERS, FUZZ_TIMEOUT_MINUTES, FUZZ_ISOLATION, FUZZ_PYTHON
 * (see docs/testing.md).
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { ensureTemporalCli } from '../src/temporal/binaries';
import { assertCanIsolate, isolatedCommand, isolationFromEnv } from './isolation';
import { phasesFromEnv } from './phases';
import { ensureSchemathesis } from './venv';

const ROOT = path.resolve(__dirname, '..');
const TSX = path.join(ROOT, 'node_modules', '.bin', 'tsx');

const log = (line: string): void => {
  process.stderr.write(`${line}\n`);
};

async function main(): Promise<number> {
  const isolation = isolationFromEnv();
  if (isolation === 'netns') assertCanIsolate();
  // Without schemathesis, the system's Python still brings up the namespace's loopback interface.
  const tools = phasesFromEnv().includes('schemathesis') ? await ensureSchemathesis(log) : { python: process.env['FUZZ_PYTHON'] ?? 'python3', schemathesis: '' };
  // The dev server is started inside the namespace, where a missing CLI could not be fetched.
  await ensureTemporalCli();

  const session = path.join(ROOT, 'fuzz', 'session.ts');
  const { cmd, args } = isolation === 'netns' ? isolatedCommand(TSX, [session]) : { cmd: TSX, args: [session] };
  if (isolation === 'none') log('fuzz: FUZZ_ISOLATION=none: the service runs with this machine\'s network');
  const child = spawn(cmd, args, {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, FUZZ_PYTHON_BIN: tools.python, FUZZ_SCHEMATHESIS_BIN: tools.schemathesis, FUZZ_IN_NETNS: isolation === 'netns' ? '1' : '0' },
  });
  // Ctrl-C in a terminal reaches the session too (same process group); a SIGTERM sent to us alone is passed on.
  const forward = (signal: NodeJS.Signals): void => {
    child.kill(signal);
  };
  process.on('SIGINT', () => forward('SIGINT'));
  process.on('SIGTERM', () => forward('SIGTERM'));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) => resolve(code ?? (signal === 'SIGINT' ? 130 : 1)));
  });
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    log(`fuzz: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Pinned: a newer schemathesis may generate other cases for the same seed, or check more. */
export const SCHEMATHESIS_VERSION = '4.32.5';

/**
 * Where the fuzzer's Python environment lives: outside the repository, next to the Temporal
 * binaries (see src/temporal/binaries/cache-dir.ts), so `git clean` and a second checkout keep it.
 * `OUTREACH_CACHE_DIR` holds every cached artifact in versioned folders; without it the XDG cache's
 * `campaign-outreach/` folder holds `temporal/` and this one side by side.
 */
export function fuzzVenvDir(env: NodeJS.ProcessEnv = process.env): string {
  const name = `schemathesis-${SCHEMATHESIS_VERSION}`;
  const explicit = env['OUTREACH_CACHE_DIR'];
  if (explicit) return path.join(path.resolve(explicit), name);
  const xdg = env['XDG_CACHE_HOME'];
  const base = xdg && path.isAbsolute(xdg) ? xdg : path.join(os.homedir(), '.cache');
  return path.join(base, 'campaign-outreach', name);
}

export interface FuzzTools {
  /** The venv's python (also used to bring up the loopback interface of the fuzz namespace). */
  readonly python: string;
  readonly schemathesis: string;
}

function run(cmd: string, args: readonly string[], log: (line: string) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    log(`$ ${[cmd, ...args].join(' ')}`);
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const keep = (c: Buffer): void => {
      output = (output + c.toString('utf8')).slice(-8000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      if (code === 0) resolve();
      else reject(new Error(`${path.basename(cmd)} ${args[0] ?? ''} failed (${signal ?? `exit ${code}`}):\n${output}`));
    });
  });
}

function toolsIn(dir: string): FuzzTools {
  return { python: path.join(dir, 'bin', 'python'), schemathesis: path.join(dir, 'bin', 'schemathesis') };
}

/**
 * The venv with schemathesis, created on first use. A marker written last makes a half-finished
 * install (interrupted download) count as absent, so the next run starts it over.
 */
export async function ensureSchemathesis(log: (line: string) => void, env: NodeJS.ProcessEnv = process.env): Promise<FuzzTools> {
  const dir = fuzzVenvDir(env);
  const tools = toolsIn(dir);
  const marker = path.join(dir, '.installed');
  if (fs.existsSync(marker) && fs.existsSync(tools.schemathesis)) return tools;
  const python = env['FUZZ_PYTHON'] ?? 'python3';
  log(`fuzz: installing schemathesis ${SCHEMATHESIS_VERSION} into ${dir} (once)`);
  await fs.promises.rm(dir, { recursive: true, force: true });
  await fs.promises.mkdir(path.dirname(dir), { recursive: true });
  try {
    await run(python, ['-m', 'venv', dir], log);
  } catch (err) {
    throw new Error(
      `${(err as Error).message}\n` +
        'The fuzzer needs Python 3.9+ with its venv module (Debian: the python3-venv package). ' +
        'FUZZ_PYTHON names another interpreter.',
    );
  }
  await run(tools.python, ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', `schemathesis==${SCHEMATHESIS_VERSION}`], log);
  await fs.promises.writeFile(marker, `schemathesis==${SCHEMATHESIS_VERSION}\n`);
  return tools;
}

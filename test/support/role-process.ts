import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

const ROOT = path.join(__dirname, '..', '..');

export interface RoleProcess {
  readonly child: ChildProcess;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
}

/** A production role (`src/entry/api.ts` or `worker.ts`) as its own process, as `npm run start:api` runs it. */
export function startRole(entry: 'api' | 'worker', env: NodeJS.ProcessEnv): RoleProcess {
  const child = spawn(path.join(ROOT, 'node_modules', '.bin', 'tsx'), [`src/entry/${entry}.ts`], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout?.on('data', (c: Buffer) => (out += c.toString('utf8')));
  child.stderr?.on('data', (c: Buffer) => (out += c.toString('utf8')));
  return { child, output: () => out };
}

/** SIGTERM, then the exit code once the process has exited. */
export function stopRole(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve(child.exitCode);
    child.once('exit', (code) => resolve(code));
    child.kill('SIGTERM');
  });
}

/** Polls `probe` every 200 ms until it gives a value (errors count as "not yet"). */
export async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe().catch(() => undefined);
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

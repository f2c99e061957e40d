import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** Root of the repository: children run from here so `--import tsx` and relative imports resolve. */
export const REPO_ROOT = path.resolve(__dirname, '..', '..');

export interface ServerSpec {
  /** Short name, used in messages and to select servers for BENCH_CPU_PROF. */
  readonly name: string;
  /** Script under bench/servers/, relative to `cwd`. */
  readonly script: string;
  /** Checkout to run the script from (default: this repository); see BENCH_COMPARE. */
  readonly cwd?: string;
  /** Extra environment for the child (merged over this process's environment). */
  readonly env?: Record<string, string>;
  /** File that receives the child's stdout (the service's pino output); /dev/null when absent. */
  readonly stdoutFile?: string;
  /** Directory for a V8 CPU profile of the child (written when it exits); none when absent. */
  readonly cpuProfileDir?: string;
  readonly readyTimeoutMs?: number;
}

export interface RunningServer {
  readonly name: string;
  readonly pid: number;
  readonly url: string;
  /** SIGTERM, then SIGKILL after `graceMs`. Resolves once the child has exited. Idempotent. */
  stop(graceMs?: number): Promise<void>;
}

/** What a server child sends over IPC once it is listening. */
export interface ReadyMessage {
  readonly type: 'ready';
  readonly port: number;
}

function isReady(msg: unknown): msg is ReadyMessage {
  return typeof msg === 'object' && msg !== null && (msg as ReadyMessage).type === 'ready' && typeof (msg as ReadyMessage).port === 'number';
}

function waitForExit(child: ChildProcess, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve(true);
    const timer = setTimeout(() => resolve(false), timeoutMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

/**
 * Starts one server in its own Node process (tsx loader, IPC channel) and waits until it reports
 * its port. The child listens on 127.0.0.1 port 0, so there is no port race.
 */
export async function startServer(spec: ServerSpec): Promise<RunningServer> {
  const stdoutFd = fs.openSync(spec.stdoutFile ?? '/dev/null', 'a');
  const nodeArgs = ['--import', 'tsx'];
  // One file per thread (the tsx loader-hooks thread writes its own), default names: node 20 does not expand ${pid} in --cpu-prof-name.
  if (spec.cpuProfileDir) nodeArgs.push('--cpu-prof', `--cpu-prof-dir=${spec.cpuProfileDir}`);
  let child: ChildProcess;
  try {
    child = spawn(process.execPath, [...nodeArgs, spec.script], {
      cwd: spec.cwd ?? REPO_ROOT,
      env: { ...process.env, ...spec.env },
      stdio: ['ignore', stdoutFd, 'inherit', 'ipc'],
    });
  } finally {
    fs.closeSync(stdoutFd); // the child has its own copy
  }
  const pid = child.pid;
  if (pid === undefined) throw new Error(`${spec.name}: could not spawn ${spec.script}`);

  let stopping: Promise<void> | undefined;
  const stop = (graceMs = 10_000): Promise<void> =>
    (stopping ??= (async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      if (!(await waitForExit(child, graceMs))) {
        child.kill('SIGKILL');
        await waitForExit(child, 5_000);
      }
    })());

  const timeoutMs = spec.readyTimeoutMs ?? 60_000;
  try {
    const port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${spec.name} did not report ready within ${timeoutMs} ms`)), timeoutMs);
      const cleanup = (): void => {
        clearTimeout(timer);
        child.off('message', onMessage);
        child.off('exit', onExit);
        child.off('error', onError);
      };
      const onMessage = (msg: unknown): void => {
        if (!isReady(msg)) return;
        cleanup();
        resolve(msg.port);
      };
      const onExit = (code: number | null, signal: NodeJS.Signals | null): void => {
        cleanup();
        const where = spec.stdoutFile ? ` (its stdout is in ${spec.stdoutFile})` : '';
        reject(new Error(`${spec.name} exited before it was ready: code ${code}, signal ${signal}${where}`));
      };
      const onError = (err: Error): void => {
        cleanup();
        reject(err);
      };
      child.on('message', onMessage);
      child.on('exit', onExit);
      child.on('error', onError);
    });
    return { name: spec.name, pid, url: `http://127.0.0.1:${port}`, stop };
  } catch (err) {
    await stop(2_000);
    throw err;
  }
}

import { spawn } from 'node:child_process';
import { formatElapsed, startHeartbeat, type ProgressFn } from './progress';

/** The program itself is missing (ENOENT), as opposed to it running and failing. */
export class CommandNotFoundError extends Error {
  constructor(readonly command: string) {
    super(`\`${command}\` was not found on PATH`);
    this.name = 'CommandNotFoundError';
  }
}

export interface RunOptions {
  /** Prefix for progress lines and errors, e.g. "go install temporal CLI". */
  label: string;
  onProgress: ProgressFn;
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  heartbeatMs?: number;
}

const TAIL_LINES = 30;

/**
 * Runs a long build command (go install, mvn) to completion.
 *
 * Output is captured rather than inherited: the tools are chatty on success and the user only needs proof of life
 * (the heartbeat shows the latest line) and, on failure, the tail of the output in the thrown error.
 */
export function runCommand(command: string, args: readonly string[], opts: RunOptions): Promise<void> {
  return new Promise((resolve, reject) => {
    const tail: string[] = [];
    let partial = '';
    const onData = (chunk: Buffer): void => {
      const lines = (partial + chunk.toString('utf8')).split(/\r?\n|\r/);
      partial = lines.pop() ?? '';
      for (const line of lines) {
        if (!line.trim()) continue;
        tail.push(line);
        if (tail.length > TAIL_LINES) tail.shift();
      }
    };
    const started = Date.now();
    opts.onProgress(`${opts.label}: running \`${[command, ...args].join(' ')}\``);
    const stopHeartbeat = startHeartbeat(
      opts.label,
      opts.onProgress,
      () => {
        const last = tail[tail.length - 1];
        return last ? `last output: ${last.trim().slice(0, 160)}` : undefined;
      },
      opts.heartbeatMs,
    );

    const child = spawn(command, args, { cwd: opts.cwd, env: opts.env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('error', (err: NodeJS.ErrnoException) => {
      stopHeartbeat();
      reject(err.code === 'ENOENT' ? new CommandNotFoundError(command) : err);
    });
    child.once('close', (code, signal) => {
      stopHeartbeat();
      if (partial.trim()) tail.push(partial);
      if (code === 0) {
        opts.onProgress(`${opts.label}: done in ${formatElapsed(Date.now() - started)}`);
        resolve();
        return;
      }
      const status = signal ? `was killed by ${signal}` : `exited with code ${String(code)}`;
      reject(new Error(`${opts.label} ${status}. Last output:\n${tail.join('\n')}`));
    });
  });
}

export interface CapturedOutput {
  code: number | null;
  output: string;
}

/**
 * Runs a quick probe (`go version`, `java -version`) and returns its combined output, or `undefined` when the program
 * does not exist. Never throws: a failing probe is reported by the caller as "install X".
 */
export function captureCommand(
  command: string,
  args: readonly string[],
  opts: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {},
): Promise<CapturedOutput | undefined> {
  return new Promise((resolve) => {
    let output = '';
    const child = spawn(command, args, { cwd: opts.cwd, env: opts.env, stdio: ['ignore', 'pipe', 'pipe'] });
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 30_000);
    child.stdout.on('data', (c: Buffer) => (output += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (output += c.toString('utf8')));
    child.once('error', () => {
      clearTimeout(timer);
      resolve(undefined);
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

import type { ChildProcess } from 'node:child_process';

/**
 * Stops a child server: `signal` first, then `escalation` (SIGKILL unless the server has a gentler
 * last resort) if it has not exited after `graceMs`.
 * Resolves when the process is gone, so callers can rely on "no orphan left".
 */
export function stopProcess(child: ChildProcess, signal: NodeJS.Signals, graceMs: number, escalation: NodeJS.Signals = 'SIGKILL'): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const kill = setTimeout(() => child.kill(escalation), graceMs);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill(signal);
  });
}

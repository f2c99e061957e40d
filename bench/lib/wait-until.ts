import { setTimeout as sleep } from 'node:timers/promises';

export interface WaitOptions {
  /** Give up after this long: every wait of a bench is bounded. */
  readonly timeoutMs: number;
  readonly intervalMs?: number;
  /** What was awaited, for the timeout's message. */
  readonly what: string;
  /** Returns a reason to stop early (a server died); the wait then rejects with it. */
  readonly abortReason?: () => string | undefined;
}

/**
 * Polls `probe` until it returns something other than undefined, at most `timeoutMs`. The
 * timeout's message carries the probe's last answer (e.g. "9,412 of 10,000 running").
 */
export async function waitUntil<T>(probe: () => Promise<T | undefined>, opts: WaitOptions, describe: () => string = () => ''): Promise<T> {
  const deadline = Date.now() + opts.timeoutMs;
  for (;;) {
    const aborted = opts.abortReason?.();
    if (aborted !== undefined) throw new Error(`${opts.what}: ${aborted}`);
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() >= deadline) {
      const detail = describe();
      throw new Error(`${opts.what}: not reached within ${(opts.timeoutMs / 1000).toFixed(0)} s${detail === '' ? '' : ` (${detail})`}`);
    }
    await sleep(opts.intervalMs ?? 250);
  }
}

/** p-th percentile (nearest rank) of an ascending list; 0 when empty. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] as number;
}

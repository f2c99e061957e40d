/** Receives one human-readable status line at a time. */
export type ProgressFn = (line: string) => void;

/**
 * Default reporter. Writes to stderr so that progress never mixes with a command's real output on stdout
 * (`npm run setup:temporal` prints the resolved paths there).
 */
export const stderrProgress: ProgressFn = (line) => {
  process.stderr.write(`[temporal-setup] ${line}\n`);
};

export function formatElapsed(ms: number): string {
  const s = Math.round(ms / 1000);
  return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
}

/**
 * Reports every `intervalMs` that a long step is still alive, with its elapsed time and whatever detail the caller
 * can offer (typically the last line a build tool printed). A first build takes minutes and the tools are quiet
 * for long stretches; without this, `npm test` looks hung.
 *
 * Returns a function that stops the heartbeat. The timer is unref'd so it never keeps the process alive by itself.
 */
export function startHeartbeat(
  label: string,
  onProgress: ProgressFn,
  detail: () => string | undefined = () => undefined,
  intervalMs = 10_000,
): () => void {
  const started = Date.now();
  const timer = setInterval(() => {
    const extra = detail();
    onProgress(`${label}: still working (${formatElapsed(Date.now() - started)})${extra ? ` - ${extra}` : ''}`);
  }, intervalMs);
  timer.unref();
  return () => {
    clearInterval(timer);
  };
}

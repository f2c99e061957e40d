/**
 * `npm run setup:temporal`: obtains the Temporal CLI and the time-skipping test server ahead of time (otherwise the
 * first `npm start` / `npm test` does it) and prints where they are.
 *
 * Paths go to stdout as `NAME=path` lines (usable with `eval`/`export`); progress goes to stderr.
 */
import { ensureTemporalCli, ensureTestServer, temporalCacheDir } from '../temporal/binaries';

async function main(): Promise<number> {
  process.stderr.write(`[temporal-setup] cache: ${temporalCacheDir()}\n`);
  // In parallel: the Go build is CPU-bound, the Maven fetch mostly network-bound.
  const [cli, testServer] = await Promise.allSettled([ensureTemporalCli(), ensureTestServer()]);
  let failed = false;
  for (const [name, result] of [
    ['TEMPORAL_CLI_PATH', cli],
    ['TEMPORAL_TEST_SERVER_PATH', testServer],
  ] as const) {
    if (result.status === 'fulfilled') {
      process.stdout.write(`${name}=${result.value}\n`);
    } else {
      failed = true;
      const err: unknown = result.reason;
      process.stderr.write(`\n${err instanceof Error ? err.message : String(err)}\n`);
    }
  }
  return failed ? 1 : 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exitCode = 1;
  },
);

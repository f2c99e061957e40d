/**
 * Obtains the Temporal binaries this project runs (dev server CLI, time-skipping test server) with no manual step,
 * cached outside the repository. See ensure-binary.ts for the resolution order.
 */
export { temporalCacheDir } from './cache-dir';
export type { EnsureOptions } from './ensure-binary';
export type { ProgressFn } from './progress';
export { ensureTemporalCli, TEMPORAL_CLI_VERSION } from './temporal-cli';
export { ensureTestServer, TEST_SERVER_VERSION } from './test-server';

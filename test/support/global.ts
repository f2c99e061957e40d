/**
 * Mocha global fixtures: the Temporal binaries, and one PostgreSQL cluster for every test file that
 * needs a database. Each file creates its own database on it (see database.ts), so files never see
 * each other's rows.
 */
import { createLogger } from '../../src/log/logger';
import { ensureTemporalCli, ensureTestServer } from '../../src/temporal/binaries';
import { installTemporalRuntime } from '../../src/temporal/runtime-logging';
import { startTestPostgres, type TestPostgres } from './postgres';

let pg: TestPostgres | undefined;

export async function mochaGlobalSetup(): Promise<void> {
  // The SDK's own INFO lines (worker started, bundle built) would bury mocha's report.
  installTemporalRuntime(createLogger(process.env.TEST_LOG_LEVEL === 'debug' ? 'debug' : 'error', 'test'));
  // On a fresh machine the Temporal binaries are built here, once, with progress on stderr, before
  // any test's timeout is running; afterwards this is a cache hit of a few milliseconds.
  await Promise.all([ensureTemporalCli(), ensureTestServer()]);
  pg = await startTestPostgres();
  process.env.TEST_PG_ADMIN_URL = pg.url.replace(/\/[^/]+$/, '/postgres');
}

export async function mochaGlobalTeardown(): Promise<void> {
  await pg?.stop();
}

/**
 * Mocha global fixtures: one PostgreSQL cluster for every test file that needs a database. Each
 * file that uses it creates its own database (see database.ts), so files never see each other's rows.
 */
import { createLogger } from '../../src/log/logger';
import { installTemporalRuntime } from '../../src/temporal/runtime-logging';
import { startTestPostgres, type TestPostgres } from './postgres';

let pg: TestPostgres | undefined;

export async function mochaGlobalSetup(): Promise<void> {
  // The SDK's own INFO lines (worker started, bundle built) would bury mocha's report.
  installTemporalRuntime(createLogger(process.env.TEST_LOG_LEVEL === 'debug' ? 'debug' : 'error', 'test'));
  pg = await startTestPostgres();
  process.env.TEST_PG_ADMIN_URL = pg.url.replace(/\/[^/]+$/, '/postgres');
}

export async function mochaGlobalTeardown(): Promise<void> {
  await pg?.stop();
}

/**
 * Mocha global fixtures: the Temporal binaries, one PostgreSQL cluster for every test file that
 * needs a database (each file creates its own database on it, see database.ts, so files never see
 * each other's rows), and one local DNS server answering an MX for every name, so that address
 * verification never asks this machine's resolver (nor the internet) and every test lead's domain
 * takes mail. EMAIL_DNS_SERVERS points at it: processes the tests spawn (API, worker, `npm start`)
 * inherit it, and testConfig passes it on to in-process APIs and activities.
 */
import { createLogger } from '../../src/log/logger';
import { ensureTemporalCli, ensureTestServer } from '../../src/temporal/binaries';
import { installTemporalRuntime } from '../../src/temporal/runtime-logging';
import { MX_FOR_EVERY_NAME, startLocalDns, type LocalDns } from './local-dns';
import { startTestPostgres, type TestPostgres } from './postgres';

let pg: TestPostgres | undefined;
let dns: LocalDns | undefined;

export async function mochaGlobalSetup(): Promise<void> {
  // The SDK's own INFO lines (worker started, bundle built) would bury mocha's report.
  installTemporalRuntime(createLogger(process.env.TEST_LOG_LEVEL === 'debug' ? 'debug' : 'error', 'test'));
  // On a fresh machine the Temporal binaries are built here, once, with progress on stderr, before
  // any test's timeout is running; afterwards this is a cache hit of a few milliseconds.
  await Promise.all([ensureTemporalCli(), ensureTestServer()]);
  pg = await startTestPostgres();
  process.env.TEST_PG_ADMIN_URL = pg.url.replace(/\/[^/]+$/, '/postgres');
  dns = await startLocalDns(MX_FOR_EVERY_NAME);
  process.env.EMAIL_DNS_SERVERS = dns.server;
}

export async function mochaGlobalTeardown(): Promise<void> {
  await pg?.stop();
  await dns?.close();
}

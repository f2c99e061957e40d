import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import pino from 'pino';
import { buildApp } from '../../src/api/app';
import { RESOURCE_ROUTES } from '../../src/api/routes';
import { listen, type RunningHttpServer } from '../../src/runtime/http-server';
import { TemporalClientProvider } from '../../src/temporal/client';
import { startTracking, type Tracking } from '../../src/tracking/tracking';
import { MUTATION_KINDS } from '../../fuzz/hostile-values';
import { formatTally, type Tally } from '../../fuzz/mutation-report';
import { requestIdOf, runMutations } from '../../fuzz/mutation-run';
import { fuzzableOperations, type OpenApiDocument } from '../../fuzz/operations';
import { pathIdPool } from '../../fuzz/seeded-ids';
import { seedAccounts, type Seed } from '../../fuzz/seed';
import { serverErrorsByRequestId } from '../../fuzz/service-log';
import { testConfig } from '../support/api';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { startTestDevServer, type TestDevServer } from '../support/temporal-dev';
import { NativeConnection, Worker } from '@temporalio/worker';
import { workflowBundle } from '../support/workflow-worker';
import { FakeCampaignActivities } from '../workflows/support/fake-activities';

/**
 * The bounded run of `npm run fuzz`'s mutation phase, in the suite: every operation of
 * /openapi.json that takes JSON or parameters, with a sample of the edge cases (8,000 levels of
 * nesting, 1e400 and NaN as JSON text, lone surrogates, NUL, 100 KB strings, year 0000 and
 * 2026-02-30, null and wrong types: each value at least once, at members where it applies) and
 * a few hundred random cases from a fixed seed, a fifth of those without credentials.
 * Against the real app on a real socket, PostgreSQL and a Temporal dev server. A worker runs the
 * campaign workflows with fake activities (no scrape, no email leaves): pause, stop, resume and
 * PATCH are Updates the workflow must answer. Not one answer may be a 5xx; a failure prints each
 * request with the service's logged error.
 */
const RANDOM_CASES = 300;
const SEED = 20260101;

describe('fuzz (bounded): hostile input on every JSON route of both surfaces is never a 5xx', function () {
  this.timeout(180_000);

  let db: TestDatabase;
  let temporal: TestDevServer;
  let client: TemporalClientProvider;
  let workerConnection: NativeConnection;
  let worker: Worker;
  let workerRun: Promise<void>;
  let tracking: Tracking;
  let server: RunningHttpServer;
  let journalDir: string;
  let doc: OpenApiDocument;
  let seed: Seed;
  let baseUrl: string;
  // The app's log at error level, kept to explain a 5xx by the request id the fuzzer sent.
  const logLines: string[] = [];

  before(async () => {
    [db, temporal] = await Promise.all([createTestDatabase(), startTestDevServer()]);
    const config = testConfig({ TEMPORAL_TASK_QUEUE: `fuzz-${randomUUID()}` });
    const log = pino({ level: 'error' }, { write: (line: string) => void logLines.push(line) });
    client = new TemporalClientProvider({ address: temporal.address, namespace: 'default' });
    workerConnection = await NativeConnection.connect({ address: temporal.address });
    worker = await Worker.create({
      connection: workerConnection,
      namespace: 'default',
      taskQueue: config.temporalTaskQueue,
      workflowBundle: await workflowBundle(),
      activities: new FakeCampaignActivities().activities(),
    });
    workerRun = worker.run();
    journalDir = await fs.mkdtemp(path.join(os.tmpdir(), 'outreach-fuzz-tracking-'));
    tracking = await startTracking({ sequelize: db.sequelize, config, log, journalDir });
    const built = buildApp({ config, sequelize: db.sequelize, log, temporal: client, tracking });
    doc = built.openapi as unknown as OpenApiDocument;
    server = await listen(built.app, '127.0.0.1', 0);
    baseUrl = server.url.replace('localhost', '127.0.0.1');
    // Nothing listens on port 1: each account's webhook test event fails at once and is logged.
    seed = await seedAccounts(baseUrl, db.sequelize, { hasSurfaceBCampaigns: true, webhookTestUrl: () => 'http://127.0.0.1:1/hook' });
  });

  after(async () => {
    await server?.close(1_000);
    await tracking?.close();
    await client?.close();
    worker?.shutdown();
    await workerRun;
    await workerConnection?.close();
    await temporal?.stop();
    await db?.drop();
    if (journalDir) await fs.rm(journalDir, { recursive: true, force: true });
  });

  it('covers every route that takes a JSON body or parameters, on both surfaces', () => {
    const { fuzzed } = fuzzableOperations(doc);
    const expected = RESOURCE_ROUTES.filter((r) => !r.hidden && (r.body !== undefined || r.params !== undefined || r.query !== undefined || r.rawBody?.contentTypes.includes('application/json')))
      .map((r) => `${r.method.toUpperCase()} ${r.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}')}`)
      .sort();
    expect(fuzzed.map((op) => op.label).sort()).to.deep.equal(expected);
    expect(new Set(fuzzed.map((op) => op.surface))).to.include.members(['a', 'b']);
  });

  let tally: Tally;

  it(`edge cases and ${RANDOM_CASES} random ones (seed ${SEED}): no 5xx, a 401 for every request without a key, every refusal a JSON {"error"}`, async () => {
    const { fuzzed, skipped } = fuzzableOperations(doc);
    tally = await runMutations({ baseUrl, apiKey: seed.apiKey, operations: fuzzed, random: RANDOM_CASES, edges: 'sample', seed: SEED, pool: pathIdPool(seed), concurrency: 2 });
    const errors = serverErrorsByRequestId(logLines.join(''));
    for (const f of tally.failures) f.serverError = errors.get(requestIdOf(f.fuzzCase.index));
    const report = formatTally(tally, { seed: SEED, skipped: skipped.map((op) => op.label) }).join('\n');

    expect(tally.cases - tally.edgeCases, report).to.be.at.least(RANDOM_CASES);
    expect(tally.edgeCases, report).to.be.greaterThan(0);
    expect(tally.failures.length, `\n${report}\n`).to.equal(0);
    // Each route and each kind was really exercised, with and without a key.
    expect([...tally.byRoute.keys()].sort()).to.deep.equal(fuzzed.map((op) => op.label).sort());
    for (const kind of MUTATION_KINDS) expect(tally.byKind.get(kind)?.['4xx'], kind).to.be.greaterThan(0);
    expect(tally.withoutKey).to.be.greaterThan(RANDOM_CASES / 10);
  });

  it("afterwards the fuzzer's key still works on both surfaces (it never revoked itself)", async () => {
    expect((await fetch(`${baseUrl}/v1/me`, { headers: { 'X-API-Key': seed.apiKey } })).status).to.equal(200);
    expect((await fetch(`${baseUrl}/campaigns`, { headers: { Authorization: `Bearer ${seed.apiKey}` } })).status).to.equal(200);
  });
});

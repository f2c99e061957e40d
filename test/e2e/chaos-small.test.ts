import { expect } from 'chai';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../src/net/ports';
import { seedCampaigns, type ChaosCampaign } from '../../chaos/lib/campaigns';
import { emailFigures, emailRows } from '../../chaos/lib/figures';
import { seededRandom } from '../../chaos/lib/options';
import { killTree, stopProcess, type ServiceProcess } from '../../chaos/lib/processes';
import { waitForSendingToSettle } from '../../chaos/lib/settle';
import { SlowSmtpServer } from '../../chaos/lib/slow-smtp';
import { startWorkerProcess } from '../../chaos/lib/worker-role';
import { startTestApi, type TestApi } from '../support/api';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { pages, startFakeSite, type FakeSite } from '../support/fake-site';
import { startTestDevServer, type TestDevServer } from '../support/temporal-dev';

const LEADS = 12;
const HOME = '<html><head><title>Chaos Analytics</title></head><body><h1>Chaos Analytics</h1></body></html>';

/**
 * `npm run chaos` in small (chaos/run.ts has the whole run): one campaign sending through a slow
 * SMTP relay that counts what it accepts by Message-ID, the worker as its own process (as
 * `npm run start:worker` runs it), killed with kill -9 while an SMTP transaction is before its end
 * of data, then started again. What the relay received and what PostgreSQL recorded must agree.
 */
describe('chaos, small: the worker killed with kill -9 in the middle of a batch', function () {
  this.timeout(170_000);
  let db: TestDatabase;
  let temporal: TestDevServer;
  let smtp: SlowSmtpServer;
  let site: FakeSite;
  let api: TestApi;
  let logDir: string;
  let workerEnv: NodeJS.ProcessEnv;
  let worker: ServiceProcess | undefined;
  let keepLogs = false;
  const taskQueue = 'chaos-small';

  before(async () => {
    [db, temporal, smtp, site] = await Promise.all([
      createTestDatabase(),
      startTestDevServer(),
      // 150 ms a message (75 before the data, 75 after its end), one message at a time.
      SlowSmtpServer.start(150, seededRandom(7)),
      startFakeSite(pages({ '/': [200, { 'content-type': 'text/html' }, HOME] })),
    ]);
    logDir = await fs.mkdtemp(path.join(os.tmpdir(), 'outreach-chaos-small-'));
    const env = { TEMPORAL_TASK_QUEUE: taskQueue, SMTP_URL: smtp.url, ALLOW_LOOPBACK_EGRESS: 'true' };
    api = await startTestApi(db.sequelize, { temporalAddress: temporal.address, env });
    workerEnv = {
      ...process.env,
      ...env,
      DATABASE_URL: db.url,
      TEMPORAL_ADDRESS: temporal.address,
      PORT: String(await freePort()),
      INBOUND_SMTP_PORT: String(await freePort()),
      SMTP_SINK_PORT: String(await freePort()),
    };
    worker = await startWorkerProcess(workerEnv, path.join(logDir, 'worker.log'));
  });
  afterEach(function () {
    // The worker's log is what explains a failure: it stays in the folder the failure names.
    if (this.currentTest?.state === 'failed') keepLogs = true;
  });
  after(async () => {
    if (worker !== undefined) await stopProcess(worker, 30_000);
    await api?.close();
    await temporal?.stop();
    await Promise.allSettled([smtp?.close(), site?.close()]);
    await db?.drop();
    if (logDir !== undefined && !keepLogs) await fs.rm(logDir, { recursive: true, force: true });
  });

  it('sends again after the restart; every email is received and recorded as sent, a second copy only on a row flagged possible_duplicate', async () => {
    const [campaign] = (await seedCampaigns({ sequelize: db.sequelize, baseUrl: api.baseUrl, campaigns: 1, leads: LEADS, siteOrigin: site.origin })) as [ChaosCampaign];

    expect(await waitForAccepted(smtp, 3, 120_000), 'three emails accepted before the kill').to.equal(true);
    const inFlight = await smtp.nextStage('rcpt', 20_000);
    expect(inFlight, 'a transaction before its end of data to strike in').to.not.equal(null);
    await killTree(worker as ServiceProcess);
    worker = undefined;
    const restartAt = Date.now();
    const acceptedBeforeRestart = smtp.accepted.length;
    expect(acceptedBeforeRestart, 'emails left to send after the kill').to.be.below(LEADS);
    const next = smtp.acceptedSince(restartAt, 100_000);
    worker = await startWorkerProcess(workerEnv, path.join(logDir, 'worker.log'));
    const resumed = await next;
    expect(resumed, `an email accepted after the restart (worker log: ${logDir})`).to.not.equal(null);
    process.stdout.write(`      sending back ${(((resumed?.acceptedAt ?? 0) - restartAt) / 1000).toFixed(1)} s after the restart began\n`);

    expect(await waitForSendingToSettle(db.sequelize, [campaign], smtp, 60_000), 'every email settled').to.equal(true);
    const f = emailFigures([campaign], smtp.accepted, await emailRows(db.sequelize, [campaign.campaignId]));
    expect(f).to.deep.include({ expected: LEADS, received: LEADS, recordedSent: LEADS, lost: 0, unrecorded: 0, resentUnderNewId: 0 });
    expect(f.duplicatedFlagged, 'every duplicate flagged possible_duplicate').to.equal(f.duplicated);
  });
});

async function waitForAccepted(smtp: SlowSmtpServer, n: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (smtp.accepted.length < n) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 100));
  }
  return true;
}

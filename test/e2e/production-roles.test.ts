import { Client, Connection } from '@temporalio/client';
import { expect } from 'chai';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Campaign } from '../../src/db/models';
import { startTemporalDevServer, type DevServer } from '../../src/embedded/temporal-dev-server';
import { campaignWorkflowId } from '../../workflows/campaign/contract';
import { createAccount, request, surfaceA, surfaceB } from '../support/api';
import { pages, startFakeSite, type FakeSite } from '../support/fake-site';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { freePort } from '../../src/net/ports';
import { startRole, stopRole, until, type RoleProcess } from '../support/role-process';

/**
 * Production shape: `start:api` and `start:worker` as separate processes against an external
 * PostgreSQL and an external Temporal server (here: the suite's PostgreSQL and a dev server).
 */
describe('the API and worker roles on external PostgreSQL and Temporal', function () {
  this.timeout(5 * 60_000);
  let db: TestDatabase;
  let temporalDir: string;
  let temporal: DevServer;
  let api: RoleProcess;
  let worker: RoleProcess;
  let baseUrl: string;
  let site: FakeSite;
  const taskQueue = 'roles-test';

  before(async () => {
    db = await createTestDatabase();
    site = await startFakeSite(pages({ '/': [200, { 'content-type': 'text/html' }, '<html><head><title>Acme</title></head><body>Acme</body></html>'] }));
    temporalDir = await fs.mkdtemp(path.join(os.tmpdir(), 'outreach-temporal-'));
    temporal = await startTemporalDevServer({ dataDir: temporalDir, port: await freePort(), uiPort: await freePort(), namespace: 'default', log: () => undefined });
    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    const env = { ...process.env, DATABASE_URL: db.url, TEMPORAL_ADDRESS: temporal.address, TEMPORAL_TASK_QUEUE: taskQueue, PORT: String(port), SMTP_SINK_PORT: String(await freePort()), INBOUND_SMTP_PORT: String(await freePort()), LOG_LEVEL: 'warn', ALLOW_LOOPBACK_EGRESS: 'true' };
    worker = startRole('worker', env);
    api = startRole('api', env);
  });
  after(async () => {
    await Promise.all([api && stopRole(api.child), worker && stopRole(worker.child)]);
    await temporal?.stop();
    await fs.rm(temporalDir, { recursive: true, force: true });
    await db.drop();
    await site?.close();
  });

  it('refuses to start a single role without external services, naming the variable', async () => {
    const lone = startRole('api', { ...process.env, DATABASE_URL: '', TEMPORAL_ADDRESS: '', LOG_LEVEL: 'warn' });
    const code = await new Promise<number | null>((resolve) => lone.child.once('exit', resolve));
    expect(code).to.equal(78);
    expect(lone.output()).to.include('DATABASE_URL is required');
  });

  it('the API answers ready and authenticates against the shared database', async () => {
    await until('api ready', async () => ((await request(`${baseUrl}/readyz`)).status === 200 ? true : undefined));
    const { apiKey, accountId } = await createAccount(db.sequelize);
    const me = await request<{ account: { id: string } }>(`${baseUrl}/v1/me`, { headers: surfaceB(apiKey) });
    expect(me.body.account.id).to.equal(accountId);
  });

  it('a campaign created through the API runs on the worker, which mirrors its transitions into PostgreSQL', async () => {
    const { accountId, apiKey } = await createAccount(db.sequelize);
    const created = await request<{ id: string }>(`${baseUrl}/campaigns`, {
      method: 'POST',
      headers: { ...surfaceA(apiKey), 'content-type': 'application/json' },
      body: JSON.stringify({ mcp: 'sales_outreach', target_url: site.origin, schedule: { trial_days: 14 } }),
    });
    expect(created.status, created.text).to.equal(201);
    const id = created.body.id;
    await until('running', async () => ((await Campaign.findByPk(id))?.status === 'running' ? true : undefined));
    const paused = await request<{ status: string }>(`${baseUrl}/campaigns/${id}/pause`, { method: 'POST', headers: surfaceA(apiKey) });
    expect(paused.body.status).to.equal('paused');
    const row = await Campaign.findByPk(id);
    expect(row?.statusReason).to.equal('manual');
    expect(row?.pausedAt).to.be.instanceOf(Date);
    const connection = await Connection.connect({ address: temporal.address });
    try {
      const handle = new Client({ connection }).workflow.getHandle(campaignWorkflowId(id));
      const attributes = await until('paused in Temporal', async () => {
        const described = await handle.describe();
        return described.searchAttributes.CampaignStatus?.[0] === 'paused' ? described.searchAttributes : undefined;
      });
      expect(attributes).to.deep.include({ AccountId: [accountId], CampaignId: [id], Mcp: ['sales_outreach'] });
      await handle.terminate('test over');
    } finally {
      await connection.close();
    }
  });

  it('both roles shut down cleanly on SIGTERM', async () => {
    expect(await stopRole(worker.child), worker.output()).to.equal(0);
    expect(await stopRole(api.child), api.output()).to.equal(0);
  });
});

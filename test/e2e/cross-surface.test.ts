import { Client, Connection } from '@temporalio/client';
import { expect } from 'chai';
import { campaignWorkflowId, statusQuery } from '../../workflows/campaign/contract';
import { createAccount, request, surfaceA, surfaceB } from '../support/api';
import { useCampaignStack } from '../support/campaign-stack';
import { campaignApi, startTargetSite } from './support/campaign-api';
import type { FakeSite } from '../support/fake-site';

/** Polls `probe` every 100 ms until it returns a value, at most `ms`. */
async function until<T>(what: string, probe: () => Promise<T | undefined>, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * One campaign driven from both surfaces on the real path (PostgreSQL, Temporal dev server, the
 * worker with its real activities): made on B, paused on A, resumed on B. Each surface shows what
 * the other did, and the workflow, which owns the live status, agrees with both.
 */
describe('one campaign across both surfaces (real stack with worker)', function () {
  this.timeout(180_000);
  const t = useCampaignStack();
  const api = campaignApi(t);
  let site: FakeSite;
  let client: Client;

  before(async () => {
    site = await startTargetSite();
    client = new Client({ connection: await Connection.connect({ address: t.temporal.address }) });
  });
  after(async () => {
    await client?.connection.close();
    await site?.close();
  });

  const statusOn = async (key: string, id: string): Promise<{ a: string; b: string }> => {
    const [a, b] = await Promise.all([
      request<{ status: string }>(`${t.api.baseUrl}/campaigns/${id}`, { headers: surfaceA(key) }),
      request<{ status: string }>(`${t.api.baseUrl}/v1/campaigns/${id}`, { headers: surfaceB(key) }),
    ]);
    expect(a.status, a.text).to.equal(200);
    expect(b.status, b.text).to.equal(200);
    return { a: a.body.status, b: b.body.status };
  };

  it('made on B, paused on A, resumed on B: both surfaces and the workflow show each status', async () => {
    const { apiKey } = await createAccount(t.db.sequelize);
    // Leads keep the campaign running (without any it could have nothing left to do).
    await api.importLeads(apiKey, 'cross-surface.example', 3);
    const created = await request<{ id: string; status: string; createdVia: string }>(`${t.api.baseUrl}/v1/campaigns`, {
      method: 'POST',
      headers: { ...surfaceB(apiKey), 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Cross-surface', brandUrl: site.origin, targetAudience: 'Heads of finance' }),
    });
    expect(created.status, created.text).to.equal(201);
    expect(created.body).to.include({ status: 'starting', createdVia: 'b' });
    const id = created.body.id;
    const workflow = client.workflow.getHandle(campaignWorkflowId(id));

    await until('running on B', async () => ((await statusOn(apiKey, id)).b === 'running' ? true : undefined));
    expect(await statusOn(apiKey, id)).to.deep.equal({ a: 'running', b: 'running' });
    expect((await workflow.query(statusQuery)).status).to.equal('running');

    await api.pause(apiKey, id);
    const paused = await request<{ status: string; statusReason: string; pausedAt: string }>(`${t.api.baseUrl}/v1/campaigns/${id}`, { headers: surfaceB(apiKey) });
    expect(paused.body).to.include({ status: 'paused', statusReason: 'manual' });
    expect(await statusOn(apiKey, id)).to.deep.equal({ a: 'paused', b: 'paused' });
    await until('the workflow paused', async () => ((await workflow.query(statusQuery)).status === 'paused' ? true : undefined), 30_000);

    const resumed = await request<{ id: string; status: string; resumedAt: string }>(`${t.api.baseUrl}/v1/campaigns/${id}/resume`, { method: 'POST', headers: surfaceB(apiKey) });
    expect(resumed.status, resumed.text).to.equal(200);
    expect(resumed.body).to.include({ id, status: 'running' });
    expect(Date.parse(resumed.body.resumedAt)).to.be.greaterThan(Date.parse(paused.body.pausedAt));
    expect(await statusOn(apiKey, id)).to.deep.equal({ a: 'running', b: 'running' });
    const view = await until('the workflow running again', async () => {
      const v = await workflow.query(statusQuery);
      return v.status === 'running' ? v : undefined;
    }, 30_000);
    expect(view.reason).to.equal(null);
    // The workflow's own mirror of the resume leaves the row as the API wrote it.
    await new Promise((r) => setTimeout(r, 500));
    expect(await statusOn(apiKey, id)).to.deep.equal({ a: 'running', b: 'running' });
  });

  it('a campaign made on A sends under its brand: B\'s cost and delivery statistics count it there', async () => {
    const { apiKey } = await createAccount(t.db.sequelize);
    await api.importLeads(apiKey, 'brand-stats.example', 4);
    // The target is the local site, so the brand is its host, 127.0.0.1; sending all day (UTC).
    const id = await api.createCampaign(apiKey, { mcp: 'sales_outreach', target_url: site.origin });
    await until('4 emails in the SMTP server', async () => (t.sink.messages.filter((m) => m.to.some((to) => to.endsWith('@brand-stats.example'))).length === 4 ? true : undefined));
    const b = (path: string) => request<Record<string, unknown>>(`${t.api.baseUrl}${path}`, { headers: surfaceB(apiKey) });
    const byBrand = await until('the sends\' costs', async () => {
      const res = await b('/v1/runs/stats/costs?groupBy=brandId');
      return (res.body.totalCostUsd as number) >= 0.004 ? res.body : undefined;
    });
    expect(byBrand.groups).to.deep.equal([{ key: '127.0.0.1', totalCostUsd: 0.004, quantity: 4, events: 4 }]);
    expect((await b('/v1/runs/stats/costs?brandId=127.0.0.1&groupBy=featureSlug')).body.groups).to.deep.equal([{ key: 'email-sending', totalCostUsd: 0.004, quantity: 4, events: 4 }]);
    const gateway = (await b('/v1/email-gateway/stats?brandId=127.0.0.1')).body;
    expect(gateway).to.include({ emailsContacted: 4, emailsSent: 4, emailsBounced: 0, emailsReplied: 0 });
    expect((await b('/v1/email-gateway/stats?brandId=elsewhere.example')).body.emailsSent).to.equal(0);
    expect((await b(`/v1/campaigns/${id}`)).body).to.include({ brandId: '127.0.0.1', createdVia: 'a' });
  });
});

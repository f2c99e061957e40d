import { Client, Connection } from '@temporalio/client';
import { expect } from 'chai';
import { QueryTypes } from 'sequelize';
import { campaignWorkflowId, statusQuery } from '../../workflows/campaign/contract';
import { TEMPLATE_NAMES } from '../../src/campaigns/model/templates';
import { createAccount, request, startTestApi, surfaceA, surfaceB } from '../support/api';
import { useCampaignStack } from '../support/campaign-stack';
import { pages, startFakeSite, type FakeSite } from '../support/fake-site';

const HOME = '<html><head><title>Acme Analytics</title><meta name="description" content="Dashboards for finance teams"></head><body><h1>Acme Analytics</h1></body></html>';

interface Created {
  id: string;
  status: string;
  mcp: string;
  target_url: string;
  created_at: string;
  dashboard_url: string;
}

/** Polls `probe` every 50 ms until it returns a value, at most `ms`. */
async function eventually<T>(probe: () => Promise<T | undefined>, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('campaigns on Surface A: create, pause and resume through the workflow (real Temporal dev server)', () => {
  const t = useCampaignStack();
  let site: FakeSite;
  let client: Client;

  before(async () => {
    site = await startFakeSite(pages({ '/': [200, { 'content-type': 'text/html' }, HOME] }));
    client = new Client({ connection: await Connection.connect({ address: t.temporal.address }) });
  });
  after(async () => {
    await client?.connection.close();
    await site?.close();
  });

  const post = <T>(path: string, key: string, body?: unknown) =>
    request<T & { error?: string }>(`${t.api.baseUrl}${path}`, {
      method: 'POST',
      headers: { ...surfaceA(key), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const list = (key: string, query = '') => request<{ campaigns: Array<{ id: string; status: string }> }>(`${t.api.baseUrl}/campaigns${query}`, { headers: surfaceA(key) });
  const allDay = { send_window: { start: '00:00', end: '24:00' } };

  async function importLeads(key: string, count: number, domain: string): Promise<void> {
    const rows = Array.from({ length: count }, (_, i) => `lead${i}@${domain},Lead${i},Person,CTO,Company ${i}`);
    const res = await request(`${t.api.baseUrl}/v1/leads/import`, {
      method: 'POST',
      headers: { ...surfaceB(key), 'content-type': 'text/csv' },
      body: ['email,first_name,last_name,title,company', ...rows].join('\n'),
    });
    expect(res.status, res.text).to.equal(200);
  }

  it('creates a campaign: 201 with the spec\'s fields, status starting, and its workflow campaign-<id> running', async () => {
    const { apiKey } = await createAccount(t.db.sequelize);
    const res = await post<Created>('/campaigns', apiKey, { mcp: 'sales_outreach', target_url: site.origin, target_audience: 'CTOs', schedule: { trial_days: 14, ...allDay } });
    expect(res.status, res.text).to.equal(201);
    expect(res.body.id).to.match(/^cmp_/);
    expect(res.body).to.include({ status: 'starting', mcp: 'sales_outreach', target_url: site.origin });
    expect(res.body.dashboard_url).to.match(new RegExp(`/dashboard/campaigns/${res.body.id}$`));
    const description = await client.workflow.getHandle(campaignWorkflowId(res.body.id)).describe();
    expect(description.status.name).to.equal('RUNNING');
    expect((await list(apiKey)).body.campaigns.map((c) => c.id)).to.include(res.body.id);
  });

  it('an unknown mcp is a 400 that lists the valid templates, and nothing is stored', async () => {
    const { apiKey, accountId } = await createAccount(t.db.sequelize);
    const res = await post('/campaigns', apiKey, { mcp: 'cold_calling', target_url: 'acme.com' });
    expect(res.status).to.equal(400);
    for (const name of TEMPLATE_NAMES) expect(res.body.error).to.include(name);
    const [row] = await t.db.sequelize.query<{ n: number }>(`SELECT count(*)::int AS n FROM campaigns WHERE account_id = $1`, { bind: [accountId], type: QueryTypes.SELECT });
    expect(row?.n).to.equal(0);
  });

  it('rejects bad create requests with a clear 400', async () => {
    const { apiKey } = await createAccount(t.db.sequelize);
    const cases: Array<[unknown, RegExp]> = [
      [{ target_url: 'acme.com' }, /mcp/],
      [{ mcp: 'sales_outreach' }, /target_url/],
      [{ mcp: 'sales_outreach', target_url: 'ftp://acme.com' }, /target_url/],
      [{ mcp: 'sales_outreach', target_url: 'acme.com', budget: { max_daily_usd: -1 } }, /max_daily_usd/],
      [{ mcp: 'sales_outreach', target_url: 'acme.com', schedule: { frequency: 'hourly' } }, /frequency/],
      [{ mcp: 'sales_outreach', target_url: 'acme.com', schedule: { trial_days: 0 } }, /trial_days/],
      [{ mcp: 'sales_outreach', target_url: 'acme.com', schedule: { start_date: '2026-02-30' } }, /start_date/],
      [{ mcp: 'sales_outreach', target_url: 'acme.com', schedule: { timezone: 'Mars/Olympus' } }, /time zone/],
      [{ mcp: 'sales_outreach', target_url: 'acme.com', schedule: { send_window: { start: '17:00', end: '09:00' } } }, /send_window/],
      [{ mcp: 'sales_outreach', target_url: 'acme.com', reporting: { webhook_url: 'http://hooks.example.com/x' } }, /https/],
      [{ mcp: 'sales_outreach', target_url: 'acme.com', calendar_link: 'http://cal.example/me' }, /calendar_link/],
      [{ mcp: 'sales_outreach', target_url: 'acme.com', surprise: true }, /surprise|additional/],
    ];
    for (const [body, message] of cases) {
      const res = await post('/campaigns', apiKey, body);
      expect(res.status, JSON.stringify(body)).to.equal(400);
      expect(res.body.error, JSON.stringify(body)).to.match(message);
    }
  });

  it('a future start date: the campaign stays starting; pause and resume keep it waiting for its date', async () => {
    const { apiKey } = await createAccount(t.db.sequelize);
    const startDate = new Date(Date.now() + 10 * 86_400_000).toISOString().slice(0, 10);
    const created = await post<Created>('/campaigns', apiKey, { mcp: 'fundraising', target_url: site.origin, schedule: { start_date: startDate } });
    expect(created.status).to.equal(201);
    const paused = await post<{ id: string; status: string; paused_at: string }>(`/campaigns/${created.body.id}/pause`, apiKey);
    expect(paused.status, paused.text).to.equal(200);
    expect(paused.body.status).to.equal('paused');
    expect(Date.parse(paused.body.paused_at)).to.be.closeTo(Date.now(), 60_000);
    expect((await list(apiKey, '?status=paused')).body.campaigns.map((c) => c.id)).to.deep.equal([created.body.id]);
    const resumed = await post<{ status: string; resumed_at: string }>(`/campaigns/${created.body.id}/resume`, apiKey);
    expect(resumed.status, resumed.text).to.equal(200);
    expect(resumed.body.status).to.equal('starting');
    const handle = client.workflow.getHandle(campaignWorkflowId(created.body.id));
    await eventually(async () => ((await handle.query(statusQuery)).status === 'starting' ? true : undefined));
  });

  it('pause and resume: 200 with the timestamps, 409 where the status does not allow it, 404 for another account', async () => {
    const { apiKey } = await createAccount(t.db.sequelize);
    const other = await createAccount(t.db.sequelize);
    const created = await post<Created>('/campaigns', apiKey, { mcp: 'partnerships', target_url: site.origin, schedule: allDay });
    const id = created.body.id;
    expect((await post(`/campaigns/${id}/resume`, apiKey)).status).to.equal(409); // starting or running: nothing to resume
    expect((await post(`/campaigns/${id}/pause`, other.apiKey)).status).to.equal(404);
    const paused = await post<{ status: string }>(`/campaigns/${id}/pause`, apiKey);
    expect(paused.body.status).to.equal('paused');
    const again = await post<{ error: string }>(`/campaigns/${id}/pause`, apiKey);
    expect(again.status).to.equal(409);
    expect(again.body.error).to.match(/paused/);
    expect((await post(`/campaigns/${id}/resume`, other.apiKey)).status).to.equal(404);
    const resumed = await post<{ status: string }>(`/campaigns/${id}/resume`, apiKey);
    expect(resumed.status, resumed.text).to.equal(200);
    expect(['starting', 'running']).to.include(resumed.body.status);
    expect((await post(`/campaigns/cmp_doesnotexist/pause`, apiKey)).status).to.equal(404);
  });

  it('sends to imported leads into SMTP, and once pause has answered no further email leaves', async () => {
    const { apiKey } = await createAccount(t.db.sequelize);
    await importLeads(apiKey, 40, 'pause-test.example');
    const created = await post<Created>('/campaigns', apiKey, { mcp: 'sales_outreach', target_url: site.origin, schedule: allDay });
    const id = created.body.id;
    await eventually(async () => (t.sink.messages.some((m) => m.to.some((a) => a.endsWith('@pause-test.example'))) ? true : undefined));
    const paused = await post<{ status: string }>(`/campaigns/${id}/pause`, apiKey);
    expect(paused.status).to.equal(200);
    const countAtPause = t.sink.messages.filter((m) => m.to.some((a) => a.endsWith('@pause-test.example'))).length;
    expect(countAtPause).to.be.greaterThan(0);
    await new Promise((r) => setTimeout(r, 2_000));
    expect(t.sink.messages.filter((m) => m.to.some((a) => a.endsWith('@pause-test.example'))).length).to.equal(countAtPause);
    const handle = client.workflow.getHandle(campaignWorkflowId(id));
    await eventually(async () => ((await handle.query(statusQuery)).status === 'paused' ? true : undefined));
  });

  it('answers 503 when Temporal is unreachable, and stores nothing', async () => {
    const api = await startTestApi(t.db.sequelize); // its Temporal address is a closed port
    try {
      const { apiKey, accountId } = await createAccount(t.db.sequelize);
      const res = await request<{ error: string }>(`${api.baseUrl}/campaigns`, {
        method: 'POST',
        headers: { ...surfaceA(apiKey), 'content-type': 'application/json' },
        body: JSON.stringify({ mcp: 'recruiting', target_url: 'acme.com' }),
      });
      expect(res.status).to.equal(503);
      expect(res.body.error).to.match(/unavailable/);
      const [row] = await t.db.sequelize.query<{ n: number }>(`SELECT count(*)::int AS n FROM campaigns WHERE account_id = $1`, { bind: [accountId], type: QueryTypes.SELECT });
      expect(row?.n).to.equal(0);
    } finally {
      await api.close();
    }
  });
});

import { Client, Connection } from '@temporalio/client';
import { expect } from 'chai';
import { QueryTypes } from 'sequelize';
import { campaignWorkflowId } from '../../workflows/campaign/contract';
import { createAccount, request, surfaceA, surfaceB, type JsonResponse } from '../support/api';
import { seedCampaign } from '../support/campaign-seed';
import { useCampaignStack } from '../support/campaign-stack';

/**
 * Bad input on campaign creation and on the routes that take a day, over HTTP against the real
 * stack (PostgreSQL, a Temporal dev server and worker): dates outside 1970-01-01..9999-12-31 or
 * not on the calendar, blank names and impossible hosts are 400s naming the field, the same on
 * both surfaces, and nothing is stored. The values at the edges are taken, and create campaigns.
 */

const DATE_RULE = 'must be a date YYYY-MM-DD, a real day from 1970-01-01 to 9999-12-31';
const BAD_DAYS = ['0000-01-01', '1969-12-31', '2026-02-30', '2026-13-01', '2026-00-10', '2026-04-31', '2025-02-29', '10000-01-01', '2026-1-1', '2026-01-01T00:00:00Z'];
const BAD_HOSTS: ReadonlyArray<readonly [string, string]> = [
  ['https://a..example', 'a..example'],
  ['a..example', 'a..example'],
  ['https://-acme.example/', '-acme.example'],
  ['https://acme-.example', 'acme-.example'],
  ['https://ac_me.example', 'ac_me.example'],
  ['https://.example', '.example'],
  [`https://${'a'.repeat(64)}.example`, `${'a'.repeat(64)}.example`],
];
const BLANK_NAMES = ['', '   ', '\t\n', '\u00a0\u3000'];

describe('bad input: campaign creation and dates refused alike on both surfaces (real stack)', function () {
  this.timeout(120_000);
  const t = useCampaignStack();
  let client: Client;
  let accountId: string;
  let apiKey: string;

  before(async () => {
    client = new Client({ connection: await Connection.connect({ address: t.temporal.address }) });
    ({ accountId, apiKey } = await createAccount(t.db.sequelize, 'pro'));
  });
  after(async () => {
    await client?.connection.close();
  });

  const call = <T = Record<string, unknown>>(headers: Record<string, string>, method: string, path: string, body?: unknown): Promise<JsonResponse<T & { error?: string }>> =>
    request<T & { error?: string }>(`${t.api.baseUrl}${path}`, {
      method,
      headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  // Targets that do not resolve: the workflow keeps retrying its scrape, so nothing else changes the campaign.
  const createA = (body: Record<string, unknown>) => call<{ id: string }>(surfaceA(apiKey), 'POST', '/campaigns', { mcp: 'sales_outreach', target_url: 'https://acme.invalid', ...body });
  const createB = (body: Record<string, unknown>) => call<{ id: string; name: string }>(surfaceB(apiKey), 'POST', '/v1/campaigns', { name: 'Launch', brandUrl: 'https://acme.invalid', ...body });

  async function campaignCount(): Promise<number> {
    const [row] = await t.db.sequelize.query<{ n: number }>(`SELECT count(*)::int AS n FROM campaigns WHERE account_id = $1`, { bind: [accountId], type: QueryTypes.SELECT });
    return row!.n;
  }

  function expect400(res: JsonResponse<{ error?: string }>, error: string, what: string): void {
    expect(res.status, `${what}: ${res.text}`).to.equal(400);
    expect(res.body, what).to.deep.equal({ error });
  }

  describe('dates', () => {
    it('POST /campaigns: a schedule.start_date off the calendar or outside 1970-01-01..9999-12-31 is a 400, and nothing is stored', async () => {
      const before = await campaignCount();
      for (const day of BAD_DAYS) expect400(await createA({ schedule: { start_date: day } }), `body.schedule.start_date ${DATE_RULE}`, day);
      expect(await campaignCount()).to.equal(before);
    });

    it('POST /campaigns: the first and last days of the range and a leap day create campaigns that keep their start date', async () => {
      for (const day of ['1970-01-01', '2028-02-29', '9999-12-31']) {
        const res = await createA({ schedule: { start_date: day } });
        expect(res.status, `${day}: ${res.text}`).to.equal(201);
        const got = await call<{ status: string; schedule: { start_date: string } }>(surfaceA(apiKey), 'GET', `/campaigns/${res.body.id}`);
        expect(got.body.schedule.start_date, day).to.equal(day);
        expect((await client.workflow.getHandle(campaignWorkflowId(res.body.id)).describe()).status.name, day).to.equal('RUNNING');
      }
    });

    // The workflow waits for its start date with a timer; the server caps one at 100 years (the workflow waits again after it).
    it('POST /campaigns: a start date in 9999 is a timer the workflow service accepts, not a failing workflow task', async () => {
      const res = await createA({ schedule: { start_date: '9999-12-31' } });
      expect(res.status, res.text).to.equal(201);
      const handle = client.workflow.getHandle(campaignWorkflowId(res.body.id));
      let events: Awaited<ReturnType<typeof handle.fetchHistory>>['events'] = [];
      // Until the first workflow task has been answered with its commands (at most 10 s).
      for (let i = 0; i < 200 && !(events ?? []).some((e) => e.timerStartedEventAttributes || e.workflowTaskFailedEventAttributes); i++) {
        await new Promise((r) => setTimeout(r, 50));
        events = (await handle.fetchHistory()).events;
      }
      expect((events ?? []).some((e) => e.workflowTaskFailedEventAttributes), 'a failed workflow task').to.equal(false);
      const timer = (events ?? []).find((e) => e.timerStartedEventAttributes)?.timerStartedEventAttributes;
      expect(timer, 'the timer to the start date').not.to.equal(undefined);
    });

    it('GET /campaigns/:id/stats/daily: start and end off the calendar or out of range are 400s; the last days of the range are answered', async () => {
      const campaign = await seedCampaign(accountId);
      const daily = (query: string) => call<{ daily: Array<{ date: string }> }>(surfaceA(apiKey), 'GET', `/campaigns/${campaign.id}/stats/daily?${query}`);
      for (const day of BAD_DAYS) {
        expect400(await daily(`start=${encodeURIComponent(day)}`), `query.start ${DATE_RULE}`, `start=${day}`);
        expect400(await daily(`end=${encodeURIComponent(day)}`), `query.end ${DATE_RULE}`, `end=${day}`);
      }
      const last = await daily('start=9999-12-30&end=9999-12-31');
      expect(last.status, last.text).to.equal(200);
      expect(last.body.daily.map((d) => d.date)).to.deep.equal(['9999-12-30', '9999-12-31']);
      const first = await daily('start=1970-01-01&end=1970-01-02');
      expect(first.status, first.text).to.equal(200);
      expect(first.body.daily.map((d) => d.date)).to.deep.equal(['1970-01-01', '1970-01-02']);
    });

    it('GET /v1/runs/stats/costs: from and to off the calendar or out of range are 400s; the whole range is answered', async () => {
      const costs = (query: string) => call<{ from: string | null; to: string | null }>(surfaceB(apiKey), 'GET', `/v1/runs/stats/costs?${query}`);
      for (const day of BAD_DAYS) {
        expect400(await costs(`from=${encodeURIComponent(day)}`), `query.from ${DATE_RULE}`, `from=${day}`);
        expect400(await costs(`to=${encodeURIComponent(day)}`), `query.to ${DATE_RULE}`, `to=${day}`);
      }
      const whole = await costs('from=1970-01-01&to=9999-12-31');
      expect(whole.status, whole.text).to.equal(200);
      expect(whole.body).to.include({ from: '1970-01-01', to: '9999-12-31' });
    });

    it('GET /usage: a month outside 1970-01..9999-12 or not a month is a 400', async () => {
      for (const period of ['0000-01', '1969-12', '2026-13', '2026-00', '10000-01']) {
        const res = await call(surfaceA(apiKey), 'GET', `/usage?period=${period}`);
        expect(res.status, `${period}: ${res.text}`).to.equal(400);
        expect(res.body.error, period).to.match(/^query\.period /);
      }
    });
  });

  describe('names and sites: one validation for both surfaces', () => {
    it('a blank name is a 400 on A and on B, and nothing is stored', async () => {
      const before = await campaignCount();
      for (const name of BLANK_NAMES) {
        expect400(await createA({ name }), name === '' ? 'body.name must NOT have fewer than 1 characters' : 'body.name must not be blank', `A ${JSON.stringify(name)}`);
        expect400(await createB({ name }), name === '' ? 'body.name must NOT have fewer than 1 characters' : 'body.name must not be blank', `B ${JSON.stringify(name)}`);
      }
      expect(await campaignCount()).to.equal(before);
    });

    it('a target_url (A) or brandUrl (B) whose host cannot exist is a 400 naming the host, and nothing is stored', async () => {
      const before = await campaignCount();
      for (const [url, host] of BAD_HOSTS) {
        expect400(await createA({ target_url: url }), `target_url: host ${JSON.stringify(host)} is not a valid domain name`, `A ${url}`);
        expect400(await createB({ brandUrl: url }), `brandUrl: host ${JSON.stringify(host)} is not a valid domain name`, `B ${url}`);
      }
      expect(await campaignCount()).to.equal(before);
    });

    it('names are stored trimmed and valid hosts (an international name, a final dot, an IP address) are taken, on both surfaces', async () => {
      const a = await createA({ name: '  Spring launch  ', target_url: 'bücher.example.' });
      expect(a.status, a.text).to.equal(201);
      const b = await createB({ name: '  Spring launch  ', brandUrl: 'http://192.0.2.10/' });
      expect(b.status, b.text).to.equal(201);
      expect(b.body.name).to.equal('Spring launch');
      const names = await t.db.sequelize.query<{ name: string; brand_id: string }>(`SELECT name, brand_id FROM campaigns WHERE id IN ($1, $2) ORDER BY created_via`, {
        bind: [a.body.id, b.body.id],
        type: QueryTypes.SELECT,
      });
      expect(names).to.deep.equal([
        { name: 'Spring launch', brand_id: 'xn--bcher-kva.example' },
        { name: 'Spring launch', brand_id: '192.0.2.10' },
      ]);
    });
  });
});

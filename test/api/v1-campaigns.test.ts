import { findTemplate } from '../../src/campaigns/model/templates';
import { Client, Connection } from '@temporalio/client';
import { expect } from 'chai';
import { QueryTypes } from 'sequelize';
import { Campaign } from '../../src/db/models';
import { campaignWorkflowId } from '../../workflows/campaign/contract';
import { createAccount, request, startTestApi, surfaceA, surfaceB, testConfig, type JsonResponse } from '../support/api';
import { seedCampaign, seedCost, seedOutcome } from '../support/campaign-seed';
import { useCampaignStack } from '../support/campaign-stack';
import { pages, startFakeSite, type FakeSite } from '../support/fake-site';

const HOME = '<html><head><title>Acme Analytics</title></head><body><h1>Acme Analytics</h1></body></html>';

interface V1Campaign {
  id: string;
  name: string;
  status: string;
  statusReason: string | null;
  brandUrl: string;
  brandId: string | null;
  targetAudience: string | null;
  targetOutcome: string | null;
  valueForTarget: string | null;
  maxBudgetDailyUsd: number | null;
  maxBudgetWeeklyUsd: number | null;
  maxBudgetMonthlyUsd: number | null;
  spentTodayUsd: number;
  createdVia: 'a' | 'b';
  createdAt: string;
  startedAt: string | null;
  pausedAt: string | null;
  resumedAt: string | null;
  completedAt: string | null;
  dashboardUrl: string;
  stats: Record<string, number>;
  error?: string;
}

interface V1List {
  campaigns: V1Campaign[];
  pagination: { total: number; page: number; perPage: number };
  error?: string;
}

const ZERO_STATS = { emailsSent: 0, delivered: 0, opened: 0, replied: 0, meetingsBooked: 0 };

describe('campaigns on Surface B: /v1/campaigns (real Temporal dev server and worker)', () => {
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

  const call = <T>(headers: Record<string, string>, method: string, path: string, body?: unknown): Promise<JsonResponse<T>> =>
    request<T>(`${t.api.baseUrl}${path}`, {
      method,
      headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const postB = <T = V1Campaign>(key: string, path: string, body?: unknown) => call<T & { error?: string }>(surfaceB(key), 'POST', path, body);
  const getB = <T = V1Campaign>(key: string, path: string) => call<T & { error?: string }>(surfaceB(key), 'GET', path);
  const postA = <T = Record<string, unknown>>(key: string, path: string, body?: unknown) => call<T & { error?: string }>(surfaceA(key), 'POST', path, body);
  const getA = <T = Record<string, unknown>>(key: string, path: string) => call<T & { error?: string }>(surfaceA(key), 'GET', path);

  /**
   * POST /v1/campaigns. The default brand does not resolve: the workflow keeps retrying its scrape
   * for a minute, so the campaign stays starting and a test reads a status nothing else changes.
   */
  async function createB(key: string, body: Record<string, unknown> = {}): Promise<V1Campaign> {
    const res = await postB(key, '/v1/campaigns', { name: 'Spring outreach', brandUrl: 'https://acme-analytics.invalid', ...body });
    expect(res.status, res.text).to.equal(201);
    return res.body;
  }

  async function campaignCount(accountId: string): Promise<number> {
    const [row] = await t.db.sequelize.query<{ n: number }>(`SELECT count(*)::int AS n FROM campaigns WHERE account_id = $1`, { bind: [accountId], type: QueryTypes.SELECT });
    return row!.n;
  }

  it('creates a campaign: 201 with Location, every field in place, brandId from brandUrl, and its workflow running', async () => {
    const { apiKey } = await createAccount(t.db.sequelize);
    const before = Date.now();
    // A name that does not resolve: the workflow keeps retrying its scrape, so the campaign stays starting.
    const res = await postB(apiKey, '/v1/campaigns', {
      name: '  Q4 outreach  ',
      brandUrl: 'https://www.Acme-Brand.invalid/en',
      targetAudience: 'CFOs of logistics companies',
      targetOutcome: 'A 20-minute demo call',
      valueForTarget: 'Close the books two days faster',
      maxBudgetDailyUsd: 12.5,
    });
    expect(res.status, res.text).to.equal(201);
    const id = res.body.id;
    expect(id).to.match(/^cmp_/);
    expect(res.headers.get('location')).to.equal(`/v1/campaigns/${id}`);
    expect(Date.parse(res.body.createdAt)).to.be.within(before - 1_000, Date.now() + 1_000);
    expect(res.body).to.deep.equal({
      id,
      name: 'Q4 outreach',
      status: 'starting',
      statusReason: null,
      brandUrl: 'https://www.Acme-Brand.invalid/en',
      brandId: 'acme-brand.invalid',
      targetAudience: 'CFOs of logistics companies',
      // The text alone: the built-in parser reads the filters; the new account has no lead.
      audience: {
        text: 'CFOs of logistics companies',
        filters: { titles: ['cfos'], industries: ['logistics'] },
        source: 'parser',
        matchedLeads: 0,
        reason: 'No lead of the account matches: titles cfos; industries logistics',
      },
      targetOutcome: 'A 20-minute demo call',
      valueForTarget: 'Close the books two days faster',
      // No mcp and no sequence: the sales_outreach template's pace and steps, shown as they are.
      mcp: 'sales_outreach',
      sequence: {
        source: 'preset',
        preset: 'sales_outreach',
        version: 1,
        steps: findTemplate('sales_outreach')!.steps.map((s, i) => ({
          step: i + 1,
          delayDays: s.delayDays,
          variants: [{ id: 'A', weight: 1, mode: 'ai', subject: null, body: null, instructions: s.instructions }],
          autoWinner: null,
          winner: null,
        })),
      },
      tracking: { opens: true, clicks: true },
      plainTextOnly: false,
      maxBudgetDailyUsd: 12.5,
      maxBudgetWeeklyUsd: null,
      maxBudgetMonthlyUsd: null,
      spentTodayUsd: 0,
      createdVia: 'b',
      createdAt: res.body.createdAt,
      startedAt: null,
      pausedAt: null,
      resumedAt: null,
      completedAt: null,
      dashboardUrl: `${testConfig().publicBaseUrl}/dashboard/campaigns/${id}`,
      // No schedule given: A's defaults (test/api/campaign-schedule.test.ts covers every member).
      schedule: {
        frequency: 'daily',
        trialDays: null,
        startDate: null,
        daysRemaining: null,
        timezone: 'UTC',
        fallbackTimezone: null,
        sendWindow: { start: '09:00', end: '17:00' },
        days: null,
        blackoutDates: [],
        skipHolidays: false,
      },
      reporting: { frequency: null, email: null, nextReportAt: null },
      stats: ZERO_STATS,
      // No lead lists, the lead-control defaults, no lead enrolled (test/api/campaign-leads.test.ts covers them).
      sources: {
        leadListIds: [],
        audience: { text: 'CFOs of logistics companies', filters: { titles: ['cfos'], industries: ['logistics'] }, source: 'parser', matchedLeads: 0, reason: 'No lead of the account matches: titles cfos; industries logistics' },
        matchedLeads: 0,
      },
      allowDuplicateLeads: false,
      stopCompanyOnReply: true,
      maxFirstEmailsPerDomainPerDay: null,
      skipRiskyLeads: false,
      mailboxIds: null,
      mailboxesReason: null,
      leads: { queued: 0, inSequence: 0, replied: 0, meetingBooked: 0, bounced: 0, unsubscribed: 0, finished: 0, removed: 0, skipped: 0, total: 0 },
    });
    const description = await client.workflow.getHandle(campaignWorkflowId(id)).describe();
    expect(description.status.name).to.equal('RUNNING');
    // The same campaign on Surface A: the default template, A's default schedule and window, the budget.
    const onA = await getA<Record<string, unknown>>(apiKey, `/campaigns/${id}`);
    expect(onA.status, onA.text).to.equal(200);
    expect(onA.body).to.deep.include({ id, mcp: 'sales_outreach', target_url: 'https://www.Acme-Brand.invalid/en', target_audience: 'CFOs of logistics companies' });
    expect(onA.body.budget).to.deep.equal({ max_daily_usd: 12.5, max_weekly_usd: null, max_monthly_usd: null, spent_today_usd: 0 });
    expect(onA.body.schedule).to.deep.equal({
      frequency: 'daily',
      trial_days: null,
      start_date: null,
      days_remaining: null,
      timezone: 'UTC',
      fallback_timezone: null,
      send_window: { start: '09:00', end: '17:00' },
      days: null,
      blackout_dates: [],
      skip_holidays: false,
    });
    // GET answers what the create answered.
    expect((await getB(apiKey, `/v1/campaigns/${id}`)).body).to.deep.equal({ ...res.body, status: onA.body.status });
  });

  it('the optional fields default to null; blank optional text is no text', async () => {
    const { apiKey } = await createAccount(t.db.sequelize);
    const c = await createB(apiKey, { name: 'Minimal', brandUrl: site.origin, targetAudience: '   ' });
    expect(c).to.deep.include({
      name: 'Minimal',
      brandUrl: site.origin,
      brandId: '127.0.0.1',
      targetAudience: null,
      targetOutcome: null,
      valueForTarget: null,
      maxBudgetDailyUsd: null,
      createdVia: 'b',
    });
  });

  it('refuses bad create requests with a 400 naming the field, and stores nothing', async () => {
    const { apiKey, accountId } = await createAccount(t.db.sequelize);
    const ok = { name: 'X', brandUrl: 'acme.com' };
    const cases: Array<[unknown, RegExp]> = [
      [{ brandUrl: 'acme.com' }, /missing required field "name"/],
      [{ name: 'X' }, /missing required field "brandUrl"/],
      [{ ...ok, name: '' }, /name/],
      [{ ...ok, name: '   ' }, /name must not be blank/],
      [{ ...ok, name: 'n'.repeat(201) }, /name/],
      [{ ...ok, name: 42 }, /name must be string/],
      [{ ...ok, brandUrl: 'ftp://acme.com' }, /brandUrl: must be an http or https URL/],
      [{ ...ok, brandUrl: 'https://exa mple.com' }, /brandUrl: is not a valid URL/],
      [{ ...ok, brandUrl: 'acme' }, /brandUrl: has no domain/],
      [{ ...ok, brandUrl: '' }, /brandUrl/],
      [{ ...ok, maxBudgetDailyUsd: -1 }, /maxBudgetDailyUsd must be >= 0/],
      [{ ...ok, maxBudgetDailyUsd: 1e9 }, /maxBudgetDailyUsd must be <= 1000000/],
      [{ ...ok, maxBudgetDailyUsd: '10' }, /maxBudgetDailyUsd must be number/],
      [{ ...ok, targetAudience: ['CFOs'] }, /targetAudience must be string/],
      [{ ...ok, targetOutcome: 'o'.repeat(2001) }, /targetOutcome/],
      [{ ...ok, mcp: 'no_such_template' }, /unknown mcp "no_such_template": valid values are sales_outreach, partnerships/],
      [{ ...ok, target_url: 'acme.com' }, /unknown field "target_url"/],
      [{ ...ok, budget: { max_daily_usd: 5 } }, /unknown field "budget"/],
    ];
    for (const [body, message] of cases) {
      const res = await postB(apiKey, '/v1/campaigns', body);
      expect(res.status, JSON.stringify(body)).to.equal(400);
      expect(res.body.error, JSON.stringify(body)).to.match(message);
    }
    expect(await campaignCount(accountId)).to.equal(0);
  });

  it('lists newest first with pagination and a status filter, never another account\'s campaigns', async () => {
    const { apiKey } = await createAccount(t.db.sequelize);
    const other = await createAccount(t.db.sequelize);
    const first = await createB(apiKey, { name: 'First' });
    const secondRes = await postA(apiKey, '/campaigns', { mcp: 'recruiting', target_url: site.origin, name: 'Second' });
    expect(secondRes.status, secondRes.text).to.equal(201);
    const third = await createB(apiKey, { name: 'Third' });
    const theirs = await createB(other.apiKey, { name: 'Theirs' });
    expect((await postB(apiKey, `/v1/campaigns/${first.id}/stop`)).status).to.equal(200);

    const page1 = await getB<V1List>(apiKey, '/v1/campaigns?perPage=2');
    expect(page1.status, page1.text).to.equal(200);
    expect(page1.body.campaigns.map((c) => c.name)).to.deep.equal(['Third', 'Second']);
    expect(page1.body.pagination).to.deep.equal({ total: 3, page: 1, perPage: 2 });
    const page2 = await getB<V1List>(apiKey, '/v1/campaigns?perPage=2&page=2');
    expect(page2.body.campaigns.map((c) => c.id)).to.deep.equal([first.id]);
    expect(page2.body.pagination).to.deep.equal({ total: 3, page: 2, perPage: 2 });
    expect((await getB<V1List>(apiKey, '/v1/campaigns?page=3&perPage=2')).body.campaigns).to.deep.equal([]);

    const all = await getB<V1List>(apiKey, '/v1/campaigns');
    expect(all.body.pagination).to.deep.equal({ total: 3, page: 1, perPage: 20 });
    expect(all.body.campaigns.map((c) => c.id)).to.deep.equal([third.id, secondRes.body.id, first.id]);
    expect(all.body.campaigns[1]).to.deep.include({ createdVia: 'a', brandId: '127.0.0.1', name: 'Second' });

    // A stopped campaign no longer moves: its list item is exactly its GET.
    const paused = await getB<V1List>(apiKey, '/v1/campaigns?status=paused');
    expect(paused.body.pagination.total).to.equal(1);
    expect(paused.body.campaigns).to.deep.equal([(await getB(apiKey, `/v1/campaigns/${first.id}`)).body]);
    expect(paused.body.campaigns[0]).to.deep.include({ status: 'paused', statusReason: 'manual' });
    expect((await getB<V1List>(apiKey, '/v1/campaigns?status=completed')).body).to.deep.equal({ campaigns: [], pagination: { total: 0, page: 1, perPage: 20 } });

    expect((await getB<V1List>(other.apiKey, '/v1/campaigns')).body.campaigns.map((c) => c.id)).to.deep.equal([theirs.id]);

    for (const [query, message] of [
      ['perPage=0', /perPage/],
      ['perPage=101', /perPage/],
      ['page=0', /page/],
      ['status=archived', /must be one of "draft", "starting", "running", "paused", "budget_paused", "completed", "failed"/],
      ['per_page=5', /unknown field "per_page"/],
    ] as const) {
      const res = await getB<V1List>(apiKey, `/v1/campaigns?${query}`);
      expect(res.status, query).to.equal(400);
      expect(res.body.error, query).to.match(message);
    }
  });

  it('GET and stats of another account\'s campaign, or of none, are 404 like a missing one', async () => {
    const { apiKey } = await createAccount(t.db.sequelize);
    const other = await createAccount(t.db.sequelize);
    const theirs = await createB(other.apiKey);
    for (const path of [`/v1/campaigns/${theirs.id}`, `/v1/campaigns/${theirs.id}/stats`, '/v1/campaigns/cmp_doesnotexist', '/v1/campaigns/cmp_doesnotexist/stats']) {
      const res = await getB(apiKey, path);
      expect(res.status, path).to.equal(404);
      expect(res.body, path).to.deep.equal({ error: 'Campaign not found' });
    }
  });

  it('stats: the figures of Surface A\'s /stats, in camelCase', async () => {
    const { apiKey, accountId } = await createAccount(t.db.sequelize);
    const created = await createB(apiKey);
    const c = (await Campaign.findByPk(created.id))!;
    // 4 sent: 1 hard bounce, 3 delivered; 2 opened (one by a click), 1 replied, 1 booked a meeting.
    await seedOutcome(c, { hardBounce: true });
    await seedOutcome(c, { opened: true, replied: true });
    await seedOutcome(c, { clicks: 1, meetings: 1 });
    await seedOutcome(c);
    await seedCost(accountId, 0.02, { campaignId: c.id, category: 'ai_generation' });
    await seedCost(accountId, 0.004, { campaignId: c.id });

    const res = await getB<Record<string, unknown>>(apiKey, `/v1/campaigns/${c.id}/stats`);
    expect(res.status, res.text).to.equal(200);
    const a = (await getA<{ status: string; period: { start: string; end: string } }>(apiKey, `/campaigns/${c.id}/stats`)).body;
    expect(res.body).to.deep.equal({
      campaignId: c.id,
      status: a.status,
      period: { start: a.period.start, end: (res.body.period as { end: string }).end },
      stats: { emailsSent: 4, delivered: 3, bounced: 1, opened: 2, clicked: 1, replied: 1, unsubscribed: 0, meetingsBooked: 1 },
      rates: { deliveryRate: 0.75, openRate: 0.6667, clickRate: 0.3333, replyRate: 0.3333, conversionRate: 0.3333 },
      costs: { totalUsd: 0.024, breakdown: { aiGeneration: 0.02, leadEnrichment: 0, emailSending: 0.004 } },
    });
    // The headline figures of the campaign itself agree.
    expect((await getB(apiKey, `/v1/campaigns/${c.id}`)).body).to.deep.include({ stats: { emailsSent: 4, delivered: 3, opened: 2, replied: 1, meetingsBooked: 1 }, spentTodayUsd: 0.024 });
  });

  it('stop and resume: 200 with their timestamps, 409 where the status does not allow it, 404 for another account', async () => {
    const { apiKey } = await createAccount(t.db.sequelize);
    const other = await createAccount(t.db.sequelize);
    const { id } = await createB(apiKey);
    const notPaused = await postB(apiKey, `/v1/campaigns/${id}/resume`);
    expect(notPaused.status).to.equal(409);
    expect(notPaused.body.error).to.match(/only a paused or budget_paused campaign can be resumed/);
    expect((await postB(other.apiKey, `/v1/campaigns/${id}/stop`)).status).to.equal(404);

    const stopped = await postB<{ id: string; status: string; stoppedAt: string }>(apiKey, `/v1/campaigns/${id}/stop`);
    expect(stopped.status, stopped.text).to.equal(200);
    expect(Object.keys(stopped.body).sort()).to.deep.equal(['id', 'status', 'stoppedAt']);
    expect(stopped.body).to.include({ id, status: 'paused' });
    expect(Date.parse(stopped.body.stoppedAt)).to.be.closeTo(Date.now(), 60_000);
    expect((await getB(apiKey, `/v1/campaigns/${id}`)).body).to.deep.include({ status: 'paused', statusReason: 'manual', pausedAt: stopped.body.stoppedAt });

    const again = await postB(apiKey, `/v1/campaigns/${id}/stop`);
    expect(again.status).to.equal(409);
    expect(again.body.error).to.match(/is paused: only a starting, running or budget_paused campaign can be stopped/);
    expect((await postB(other.apiKey, `/v1/campaigns/${id}/resume`)).status).to.equal(404);

    const resumed = await postB<{ id: string; status: string; resumedAt: string }>(apiKey, `/v1/campaigns/${id}/resume`);
    expect(resumed.status, resumed.text).to.equal(200);
    expect(Object.keys(resumed.body).sort()).to.deep.equal(['id', 'resumedAt', 'status']);
    expect(['starting', 'running']).to.include(resumed.body.status);
    expect(Date.parse(resumed.body.resumedAt)).to.be.at.least(Date.parse(stopped.body.stoppedAt));
    expect((await getB(apiKey, `/v1/campaigns/${id}`)).body).to.deep.include({ resumedAt: resumed.body.resumedAt, statusReason: null });

    expect((await postB(apiKey, '/v1/campaigns/cmp_doesnotexist/stop')).status).to.equal(404);
    expect((await postB(apiKey, '/v1/campaigns/cmp_doesnotexist/resume')).status).to.equal(404);
  });

  it('a campaign made on either surface is on both, with the same status; a pause on one is a stop on the other', async () => {
    const { apiKey } = await createAccount(t.db.sequelize);
    const madeOnA = await postA<{ id: string; status: string }>(apiKey, '/campaigns', { mcp: 'partnerships', target_url: 'WWW.Cross-Surface.invalid', target_audience: 'Agencies' });
    expect(madeOnA.status, madeOnA.text).to.equal(201);
    const onB = await getB(apiKey, `/v1/campaigns/${madeOnA.body.id}`);
    expect(onB.status, onB.text).to.equal(200);
    expect(onB.body).to.deep.include({
      id: madeOnA.body.id,
      name: 'Partnerships for cross-surface.invalid',
      status: 'starting',
      brandUrl: 'WWW.Cross-Surface.invalid',
      brandId: 'cross-surface.invalid',
      targetAudience: 'Agencies',
      createdVia: 'a',
    });
    expect((await getB<V1List>(apiKey, '/v1/campaigns')).body.campaigns.map((c) => c.id)).to.deep.equal([madeOnA.body.id]);

    const madeOnB = await createB(apiKey, { brandUrl: 'https://cross-b.invalid' });
    const onA = await getA<{ id: string; status: string; mcp: string; target_url: string }>(apiKey, `/campaigns/${madeOnB.id}`);
    expect(onA.body).to.deep.include({ id: madeOnB.id, status: 'starting', mcp: 'sales_outreach', target_url: 'https://cross-b.invalid' });
    const listA = await getA<{ campaigns: Array<{ id: string; status: string }> }>(apiKey, '/campaigns');
    expect(listA.body.campaigns.map((c) => c.id)).to.deep.equal([madeOnB.id, madeOnA.body.id]);

    // Paused on A: stopped on B, and resumed there.
    expect((await postA(apiKey, `/campaigns/${madeOnA.body.id}/pause`)).status).to.equal(200);
    expect((await getB(apiKey, `/v1/campaigns/${madeOnA.body.id}`)).body.status).to.equal('paused');
    expect((await postB(apiKey, `/v1/campaigns/${madeOnA.body.id}/stop`)).status).to.equal(409);
    expect((await postB(apiKey, `/v1/campaigns/${madeOnA.body.id}/resume`)).status).to.equal(200);
    // Stopped on B: paused on A, and resumed there.
    expect((await postB(apiKey, `/v1/campaigns/${madeOnB.id}/stop`)).status).to.equal(200);
    expect((await getA<{ status: string }>(apiKey, `/campaigns/${madeOnB.id}`)).body.status).to.equal('paused');
    expect((await postA(apiKey, `/campaigns/${madeOnB.id}/pause`)).status).to.equal(409);
    expect((await postA(apiKey, `/campaigns/${madeOnB.id}/resume`)).status).to.equal(200);
    for (const id of [madeOnA.body.id, madeOnB.id]) {
      const [a, b] = await Promise.all([getA<{ status: string }>(apiKey, `/campaigns/${id}`), getB(apiKey, `/v1/campaigns/${id}`)]);
      expect(a.body.status).to.equal(b.body.status);
      expect(b.body.status).to.equal('starting'); // neither had started: resumed, they wait for their scrape again
    }
  });

  it('answers 503 when Temporal is unreachable: nothing is created, nothing is stopped', async () => {
    const api = await startTestApi(t.db.sequelize); // its Temporal address is a closed port
    try {
      const { apiKey, accountId } = await createAccount(t.db.sequelize);
      const res = await request<{ error: string }>(`${api.baseUrl}/v1/campaigns`, {
        method: 'POST',
        headers: { ...surfaceB(apiKey), 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Down', brandUrl: 'acme.com' }),
      });
      expect(res.status).to.equal(503);
      expect(res.body.error).to.match(/unavailable/);
      expect(await campaignCount(accountId)).to.equal(0);

      const existing = await seedCampaign(accountId, { createdVia: 'b', status: 'running' });
      const stop = await request<{ error: string }>(`${api.baseUrl}/v1/campaigns/${existing.id}/stop`, { method: 'POST', headers: surfaceB(apiKey) });
      expect(stop.status).to.equal(503);
      expect((await getB(apiKey, `/v1/campaigns/${existing.id}`)).body.status).to.equal('running');
    } finally {
      await api.close();
    }
  });
});

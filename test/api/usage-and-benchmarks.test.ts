import { expect } from 'chai';
import type { Campaign } from '../../src/db/models';
import { TEMPLATE_NAMES } from '../../src/campaigns/model/templates';
import { createAccount, request, surfaceA, useTestApi } from '../support/api';
import { seedCampaign, seedCost, seedOutcome } from '../support/campaign-seed';

interface UsageBody {
  period: string;
  usage: { campaigns_created: number; emails_sent: number; emails_remaining: number; byok_cost_usd: number };
  plan: { name: string; email_limit: number; price_usd: number };
  error?: string;
}

interface Figures {
  average: number;
  p25: number;
  p50: number;
  p75: number;
}

interface BenchmarksBody {
  mcp: string;
  sample_size: number;
  updated_at: string;
  benchmarks: { delivery_rate: Figures; open_rate: Figures; reply_rate: Figures; avg_cost_per_email_usd: Figures };
  error?: string;
}

const month = (t: Date) => t.toISOString().slice(0, 7);

/** Noon UTC on the 15th of the month `offset` months from now's. */
function midMonth(offset: number): Date {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + offset, 15, 12));
}

describe('GET /usage', () => {
  const t = useTestApi();
  let key: string;
  let accountId: string;
  let proKey: string;

  before(async () => {
    ({ apiKey: key, accountId } = await createAccount(t.db.sequelize, 'free', 'Free Co'));
    proKey = (await createAccount(t.db.sequelize, 'pro', 'Pro Co')).apiKey;
    const other = await createAccount(t.db.sequelize, 'free', 'Other');
    const now = new Date();
    const lastMonth = midMonth(-1);
    // This month: 2 campaigns, 3 emails sent (one of them by last month's campaign), costs 0.75 + 0.003 + 1.5 (no campaign).
    const current = await seedCampaign(accountId);
    await seedCampaign(accountId, { status: 'starting' });
    const old = await seedCampaign(accountId, { createdAt: lastMonth });
    await seedOutcome(current, { at: now });
    await seedOutcome(current, { at: now, hardBounce: true });
    await seedOutcome(old, { at: now });
    await seedCost(accountId, 0.75, { campaignId: current.id, category: 'ai_generation' });
    await seedCost(accountId, 0.003, { campaignId: old.id });
    await seedCost(accountId, 1.5, { campaignId: null, category: 'lead_enrichment' });
    // Last month: 1 campaign, 2 emails, 0.2.
    await seedOutcome(old, { at: lastMonth });
    await seedOutcome(old, { at: lastMonth });
    await seedCost(accountId, 0.2, { campaignId: old.id, at: lastMonth });
    // Another account's activity is not ours.
    const theirs = await seedCampaign(other.accountId);
    await seedOutcome(theirs, { at: now });
    await seedCost(other.accountId, 5, { campaignId: theirs.id });
  });

  const usage = (query = '', k = key) => request<UsageBody>(`${t.api.baseUrl}/usage${query}`, { headers: surfaceA(k) });

  it('reports the current UTC month by default, against the plan', async () => {
    const res = await usage();
    expect(res.status, res.text).to.equal(200);
    expect(res.body).to.deep.equal({
      period: month(new Date()),
      usage: { campaigns_created: 2, emails_sent: 3, emails_remaining: 997, byok_cost_usd: 2.253 },
      plan: { name: 'free', email_limit: 1000, price_usd: 0 },
    });
    expect((await usage('?period=month')).body).to.deep.equal(res.body);
  });

  it('reports a given month (YYYY-MM), and zeros for a month without activity', async () => {
    const last = await usage(`?period=${month(midMonth(-1))}`);
    expect(last.status, last.text).to.equal(200);
    expect(last.body.period).to.equal(month(midMonth(-1)));
    expect(last.body.usage).to.deep.equal({ campaigns_created: 1, emails_sent: 2, emails_remaining: 998, byok_cost_usd: 0.2 });
    const quiet = await usage('?period=2020-02');
    expect(quiet.body).to.deep.equal({ period: '2020-02', usage: { campaigns_created: 0, emails_sent: 0, emails_remaining: 1000, byok_cost_usd: 0 }, plan: quiet.body.plan });
  });

  it('shows the Pro plan of a Pro account', async () => {
    const res = await usage('', proKey);
    expect(res.body.plan).to.deep.equal({ name: 'pro', email_limit: 50_000, price_usd: 99 });
    expect(res.body.usage).to.deep.equal({ campaigns_created: 0, emails_sent: 0, emails_remaining: 50_000, byok_cost_usd: 0 });
  });

  it('refuses a period that is neither month nor YYYY-MM', async () => {
    for (const p of ['week', '2026-13', '2026-00', '2026-1', '202601', '2026-01-01', 'MONTH', '0000-01', '0099-12', '1969-12']) {
      const res = await usage(`?period=${p}`);
      expect(res.status, p).to.equal(400);
      expect(res.body.error, p).to.match(/^query\.period must match pattern/);
    }
    expect((await usage('?month=2026-01')).status).to.equal(400);
  });
});

describe('GET /usage with the plan limit set by configuration', () => {
  const t = useTestApi({ env: { FREE_PLAN_EMAIL_LIMIT: '2' } });

  it('uses the configured limit and never reports fewer than 0 emails remaining', async () => {
    const { apiKey, accountId } = await createAccount(t.db.sequelize, 'free');
    const c = await seedCampaign(accountId);
    const res0 = await request<UsageBody>(`${t.api.baseUrl}/usage`, { headers: surfaceA(apiKey) });
    expect(res0.body.plan).to.deep.equal({ name: 'free', email_limit: 2, price_usd: 0 });
    expect(res0.body.usage.emails_remaining).to.equal(2);
    // Sends already under way when the quota ran out can pass it by a few.
    for (let i = 0; i < 3; i++) await seedOutcome(c);
    const res = await request<UsageBody>(`${t.api.baseUrl}/usage`, { headers: surfaceA(apiKey) });
    expect(res.body.usage).to.include({ emails_sent: 3, emails_remaining: 0 });
  });
});

describe('GET /benchmarks', () => {
  const t = useTestApi();
  let key: string;

  /** Emails with the given outcomes, then `costUsd` spread over the campaign. */
  async function campaignWith(c: Campaign, o: { sent: number; hardBounces?: number; opened?: number; replied?: number; costUsd?: number }): Promise<void> {
    for (let i = 0; i < o.sent; i++) {
      const bounce = i < (o.hardBounces ?? 0);
      const n = i - (o.hardBounces ?? 0); // index among delivered emails
      await seedOutcome(c, { hardBounce: bounce, opened: !bounce && n < (o.opened ?? 0), replied: !bounce && n < (o.replied ?? 0) });
    }
    if (o.costUsd) await seedCost(c.accountId, o.costUsd, { campaignId: c.id });
  }

  before(async () => {
    const a = await createAccount(t.db.sequelize, 'free', 'A');
    const b = await createAccount(t.db.sequelize, 'pro', 'B');
    key = a.apiKey;
    // sales_outreach, over two accounts:
    //   C1: delivery 10/10 = 1,  open 5/10 = 0.5, reply 1/10 = 0.1, cost 0.10/10 = 0.01
    //   C2: delivery 2/4 = 0.5,  open 1/2 = 0.5,  reply 0/2 = 0,    cost 0.02/4 = 0.005
    //   C3: delivery 4/5 = 0.8,  open 4/4 = 1,    reply 2/4 = 0.5,  cost 0.03/5 = 0.006
    //   C4: delivery 2/2 = 1,    open 0,          reply 0,          cost 0
    await campaignWith(await seedCampaign(a.accountId), { sent: 10, opened: 5, replied: 1, costUsd: 0.1 });
    await campaignWith(await seedCampaign(a.accountId), { sent: 4, hardBounces: 2, opened: 1, costUsd: 0.02 });
    await campaignWith(await seedCampaign(b.accountId), { sent: 5, hardBounces: 1, opened: 4, replied: 2, costUsd: 0.03 });
    await campaignWith(await seedCampaign(b.accountId, { status: 'completed' }), { sent: 2 });
    // Not in the sample: nothing sent yet (its enrichment cost notwithstanding), or another template.
    const idle = await seedCampaign(a.accountId);
    await seedCost(a.accountId, 1, { campaignId: idle.id, category: 'lead_enrichment' });
    //   P1 (partnerships): delivery 1, open 1, reply 1, cost 0.5/1 = 0.5
    await campaignWith(await seedCampaign(b.accountId, { mcp: 'partnerships' }), { sent: 1, opened: 1, replied: 1, costUsd: 0.5 });
  });

  const bench = (query = '') => request<BenchmarksBody>(`${t.api.baseUrl}/benchmarks${query}`, { headers: surfaceA(key) });

  it('gives the average and quartiles of per-campaign figures over a template\'s campaigns of every account', async () => {
    const before = Date.now();
    const res = await bench('?mcp=sales_outreach');
    expect(res.status, res.text).to.equal(200);
    expect(res.body.mcp).to.equal('sales_outreach');
    expect(res.body.sample_size).to.equal(4);
    expect(Date.parse(res.body.updated_at)).to.be.within(before - 1000, Date.now() + 1000);
    // Continuous percentiles over n = 4 sorted values v0..v3: p25 at v0 + 0.75 (v1 - v0), p50 halfway
    // between v1 and v2, p75 at v2 + 0.25 (v3 - v2).
    expect(res.body.benchmarks).to.deep.equal({
      // 0.5, 0.8, 1, 1
      delivery_rate: { average: 0.825, p25: 0.725, p50: 0.9, p75: 1 },
      // 0, 0.5, 0.5, 1
      open_rate: { average: 0.5, p25: 0.375, p50: 0.5, p75: 0.625 },
      // 0, 0, 0.1, 0.5
      reply_rate: { average: 0.15, p25: 0, p50: 0.05, p75: 0.2 },
      // 0, 0.005, 0.006, 0.01
      avg_cost_per_email_usd: { average: 0.00525, p25: 0.00375, p50: 0.0055, p75: 0.007 },
    });
  });

  it('covers every template without mcp (or with mcp=all)', async () => {
    const res = await bench();
    expect(res.status, res.text).to.equal(200);
    expect(res.body.mcp).to.equal('all');
    expect(res.body.sample_size).to.equal(5);
    // 0.5, 0.8, 1, 1, 1: average 4.3 / 5; p25 at index 1, p50 at index 2, p75 at index 3.
    expect(res.body.benchmarks.delivery_rate).to.deep.equal({ average: 0.86, p25: 0.8, p50: 1, p75: 1 });
    // 0, 0, 0.1, 0.5, 1
    expect(res.body.benchmarks.reply_rate).to.deep.equal({ average: 0.32, p25: 0, p50: 0.1, p75: 0.5 });
    expect((await bench('?mcp=all')).body.benchmarks).to.deep.equal(res.body.benchmarks);
  });

  it('answers zeros for a template no campaign has sent with yet', async () => {
    const res = await bench('?mcp=fundraising');
    expect(res.status, res.text).to.equal(200);
    const zero = { average: 0, p25: 0, p50: 0, p75: 0 };
    expect(res.body).to.deep.include({ mcp: 'fundraising', sample_size: 0, benchmarks: { delivery_rate: zero, open_rate: zero, reply_rate: zero, avg_cost_per_email_usd: zero } });
  });

  it('refuses an unknown template, naming the valid ones', async () => {
    const res = await bench('?mcp=cold_calling');
    expect(res.status).to.equal(400);
    expect(res.body.error).to.equal(`query.mcp must be one of ${[...TEMPLATE_NAMES, 'all'].map((n) => `"${n}"`).join(', ')}`);
    expect(res.body.error).to.include('"sales_outreach"');
  });
});

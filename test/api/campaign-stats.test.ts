import { expect } from 'chai';
import type { Campaign } from '../../src/db/models';
import { createAccount, request, surfaceA, useTestApi } from '../support/api';
import { seedCampaign, seedCost, seedEmail, seedFact, seedLead, seedOutcome, seedReply } from '../support/campaign-seed';

const DAY = 86_400_000;

interface StatsBody {
  campaign_id: string;
  status: string;
  period: { start: string; end: string };
  stats: Record<string, number>;
  rates: Record<string, number>;
  costs: { total_byok_usd: number; breakdown: Record<string, number> };
}

interface DailyBody {
  campaign_id: string;
  daily: Array<{ date: string; emails_sent: number; opened: number; replied: number; cost_usd: number }>;
  error?: string;
}

interface RepliesBody {
  campaign_id: string;
  replies: Array<{ id: string; email: string; name: string | null; company: string | null; sentiment: string; preview: string; received_at: string }>;
  pagination: { total: number; page: number; per_page: number };
  error?: string;
}

const utcDay = (t: Date | number): string => new Date(t).toISOString().slice(0, 10);

describe('campaign statistics (GET /campaigns/:id/stats, /stats/daily, /replies)', () => {
  const t = useTestApi();
  let key: string;
  let accountId: string;
  let otherKey: string;

  before(async () => {
    ({ apiKey: key, accountId } = await createAccount(t.db.sequelize, 'free', 'Owner'));
    otherKey = (await createAccount(t.db.sequelize, 'free', 'Other')).apiKey;
  });

  const get = <T>(path: string, k = key) => request<T>(`${t.api.baseUrl}${path}`, { headers: surfaceA(k) });

  describe('GET /campaigns/:id/stats', () => {
    it('counts facts per email, derives the rates and adds up the costs by category', async () => {
      const startedAt = new Date(Date.now() - 3 * DAY);
      const c = await seedCampaign(accountId, { startedAt });
      // 10 sent. 1 refused at SMTP, 1 delivered then bounced by a DSN: 8 delivered, 2 bounced.
      await seedOutcome(c, { hardBounce: true });
      await seedOutcome(c, { bouncedLater: true });
      // Of the 8 delivered: 4 opened (one of them by a click on 2 links, one more by a click on 1),
      // 2 replied, 1 unsubscribed, 1 booked two meetings.
      await seedOutcome(c, { opened: true, replied: true });
      await seedOutcome(c, { clicks: 2, replied: true, meetings: 2 });
      await seedOutcome(c, { clicks: 1 });
      await seedOutcome(c, { opened: true, unsubscribed: true });
      for (let i = 0; i < 4; i++) await seedOutcome(c);
      // An auto-reply is stored but is not a reply.
      const { email, lead } = await seedOutcome(c);
      await seedReply(email, lead, { kind: 'auto_reply', category: 'out_of_office', sentiment: 'neutral' });
      // ...so 11 sent, 9 delivered. Costs:
      await seedCost(accountId, 0.0123, { campaignId: c.id, category: 'ai_generation' });
      await seedCost(accountId, 0.02, { campaignId: c.id, category: 'lead_enrichment' });
      await seedCost(accountId, 0.02, { campaignId: c.id, category: 'lead_enrichment' });
      for (let i = 0; i < 11; i++) await seedCost(accountId, 0.001, { campaignId: c.id });
      await seedCost(accountId, 9, { campaignId: null }); // the account's, not the campaign's

      const before = Date.now();
      const res = await get<StatsBody>(`/campaigns/${c.id}/stats`);
      expect(res.status, res.text).to.equal(200);
      expect(res.body.campaign_id).to.equal(c.id);
      expect(res.body.status).to.equal('running');
      expect(res.body.period.start).to.equal(startedAt.toISOString());
      expect(Date.parse(res.body.period.end)).to.be.within(before - 1000, Date.now() + 1000);
      expect(res.body.stats).to.deep.equal({ emails_sent: 11, delivered: 9, bounced: 2, opened: 4, clicked: 2, replied: 2, unsubscribed: 1, meetings_booked: 2 });
      expect(res.body.rates).to.deep.equal({
        delivery_rate: 0.8182, // 9 / 11
        open_rate: 0.4444, // 4 / 9
        click_rate: 0.2222, // 2 / 9
        reply_rate: 0.2222,
        conversion_rate: 0.2222,
      });
      expect(res.body.costs).to.deep.equal({
        total_byok_usd: 0.0633,
        breakdown: { ai_generation: 0.0123, lead_enrichment: 0.04, email_sending: 0.011 },
      });
    });

    it('answers zeros, not errors, for a campaign with nothing sent yet; the period starts at creation', async () => {
      const c = await seedCampaign(accountId, { status: 'starting' });
      const res = await get<StatsBody>(`/campaigns/${c.id}/stats`);
      expect(res.status, res.text).to.equal(200);
      expect(res.body.period.start).to.equal(c.createdAt.toISOString());
      expect(Object.values(res.body.stats)).to.deep.equal([0, 0, 0, 0, 0, 0, 0, 0]);
      expect(res.body.rates).to.deep.equal({ delivery_rate: 0, open_rate: 0, click_rate: 0, reply_rate: 0, conversion_rate: 0 });
      expect(res.body.costs).to.deep.equal({ total_byok_usd: 0, breakdown: { ai_generation: 0, lead_enrichment: 0, email_sending: 0 } });
    });

    it('never reports a rate above 1 (a reply to an email whose delivery was never confirmed)', async () => {
      const c = await seedCampaign(accountId);
      await seedOutcome(c, { delivered: false, replied: true });
      await seedOutcome(c, { delivered: false, replied: true });
      await seedOutcome(c, { replied: true, opened: true });
      const res = await get<StatsBody>(`/campaigns/${c.id}/stats`);
      expect(res.body.stats).to.include({ emails_sent: 3, delivered: 1, replied: 3 });
      expect(res.body.rates).to.include({ delivery_rate: 0.3333, reply_rate: 1, open_rate: 1 });
    });

    it('ends the period when the campaign completed or failed', async () => {
      const startedAt = new Date('2026-05-01T10:00:00Z');
      const completed = await seedCampaign(accountId, { status: 'completed', startedAt, completedAt: new Date('2026-05-15T10:00:00Z') });
      const failed = await seedCampaign(accountId, { status: 'failed', statusReason: 'llm key rejected', startedAt, failedAt: new Date('2026-05-02T08:00:00Z') });
      expect((await get<StatsBody>(`/campaigns/${completed.id}/stats`)).body.period).to.deep.equal({ start: '2026-05-01T10:00:00.000Z', end: '2026-05-15T10:00:00.000Z' });
      expect((await get<StatsBody>(`/campaigns/${failed.id}/stats`)).body.period).to.deep.equal({ start: '2026-05-01T10:00:00.000Z', end: '2026-05-02T08:00:00.000Z' });
    });

    it('answers 404 for another account\'s campaign', async () => {
      const c = await seedCampaign(accountId);
      await seedOutcome(c);
      const res = await get(`/campaigns/${c.id}/stats`, otherKey);
      expect(res.status).to.equal(404);
      expect(res.body).to.deep.equal({ error: 'Campaign not found' });
    });
  });

  describe('GET /campaigns/:id/stats/daily', () => {
    let c: Campaign;

    before(async () => {
      // A completed campaign, 2026-03-01 to 2026-03-05 (UTC), with activity on the 1st, 3rd and 5th.
      c = await seedCampaign(accountId, {
        status: 'completed',
        createdAt: new Date('2026-02-27T09:00:00Z'),
        startedAt: new Date('2026-03-01T08:00:00Z'),
        completedAt: new Date('2026-03-05T18:00:00Z'),
      });
      const first = await seedOutcome(c, { at: new Date('2026-03-01T09:00:00Z') });
      await seedOutcome(c, { at: new Date('2026-03-01T23:59:59.999Z') });
      // Opened and replied on the 3rd, to an email of the 1st.
      await seedFact(first.email, 'opened', { at: new Date('2026-03-03T00:00:00Z') });
      await seedReply(first.email, first.lead, { receivedAt: new Date('2026-03-03T12:00:00Z') });
      // A follow-up on the 5th, opened the same day.
      const followUp = await seedEmail(c, first.lead, { step: 1 });
      await seedFact(followUp, 'sent', { at: new Date('2026-03-05T10:00:00Z') });
      await seedFact(followUp, 'opened', { at: new Date('2026-03-05T11:00:00Z') });
      await seedCost(accountId, 0.5, { campaignId: c.id, at: new Date('2026-03-01T00:00:00Z') });
      await seedCost(accountId, 0.125, { campaignId: c.id, at: new Date('2026-03-01T10:00:00Z') });
      await seedCost(accountId, 0.001, { campaignId: c.id, at: new Date('2026-03-05T10:00:00Z') });
      await seedCost(accountId, 1, { campaignId: c.id, at: new Date('2026-02-28T23:59:59Z') });
    });

    it('defaults to the campaign\'s first to last day, one item per day, days without activity included', async () => {
      const res = await get<DailyBody>(`/campaigns/${c.id}/stats/daily`);
      expect(res.status, res.text).to.equal(200);
      expect(res.body).to.deep.equal({
        campaign_id: c.id,
        daily: [
          { date: '2026-03-01', emails_sent: 2, opened: 0, replied: 0, cost_usd: 0.625 },
          { date: '2026-03-02', emails_sent: 0, opened: 0, replied: 0, cost_usd: 0 },
          { date: '2026-03-03', emails_sent: 0, opened: 1, replied: 1, cost_usd: 0 },
          { date: '2026-03-04', emails_sent: 0, opened: 0, replied: 0, cost_usd: 0 },
          { date: '2026-03-05', emails_sent: 1, opened: 1, replied: 0, cost_usd: 0.001 },
        ],
      });
    });

    it('takes a range, inclusive of both ends, reaching outside the campaign\'s life', async () => {
      const res = await get<DailyBody>(`/campaigns/${c.id}/stats/daily?start=2026-02-28&end=2026-03-01`);
      expect(res.status, res.text).to.equal(200);
      expect(res.body.daily).to.deep.equal([
        { date: '2026-02-28', emails_sent: 0, opened: 0, replied: 0, cost_usd: 1 },
        { date: '2026-03-01', emails_sent: 2, opened: 0, replied: 0, cost_usd: 0.625 },
      ]);
      const one = await get<DailyBody>(`/campaigns/${c.id}/stats/daily?start=2026-03-03&end=2026-03-03`);
      expect(one.body.daily).to.deep.equal([{ date: '2026-03-03', emails_sent: 0, opened: 1, replied: 1, cost_usd: 0 }]);
    });

    it('fills a default end from start, and a default start from end', async () => {
      const fromStart = await get<DailyBody>(`/campaigns/${c.id}/stats/daily?start=2026-03-04`);
      expect(fromStart.body.daily.map((d) => d.date)).to.deep.equal(['2026-03-04', '2026-03-05']);
      const toEnd = await get<DailyBody>(`/campaigns/${c.id}/stats/daily?end=2026-03-02`);
      expect(toEnd.body.daily.map((d) => d.date)).to.deep.equal(['2026-03-01', '2026-03-02']);
      // An end before the campaign's first day: the default start follows it, rather than a 400 for a start nobody gave.
      const early = await get<DailyBody>(`/campaigns/${c.id}/stats/daily?end=2026-01-10`);
      expect(early.status, early.text).to.equal(200);
      expect(early.body.daily.map((d) => d.date)).to.deep.equal(['2026-01-10']);
    });

    it('runs to today for a campaign still running, starting on the day it was created if not started', async () => {
      const running = await seedCampaign(accountId, { status: 'starting', createdAt: new Date(Date.now() - 2 * DAY) });
      const res = await get<DailyBody>(`/campaigns/${running.id}/stats/daily`);
      expect(res.body.daily.map((d) => d.date)).to.deep.equal([utcDay(Date.now() - 2 * DAY), utcDay(Date.now() - DAY), utcDay(Date.now())]);
    });

    it('allows at most 366 days, and starts a default range of an older campaign 366 days before its end', async () => {
      const full = await get<DailyBody>(`/campaigns/${c.id}/stats/daily?start=2024-01-01&end=2024-12-31`);
      expect(full.status, full.text).to.equal(200);
      expect(full.body.daily).to.have.length(366);
      expect(full.body.daily[0]!.date).to.equal('2024-01-01');
      expect(full.body.daily[365]!.date).to.equal('2024-12-31');

      const tooLong = await get<DailyBody>(`/campaigns/${c.id}/stats/daily?start=2025-01-01&end=2026-01-02`);
      expect(tooLong.status).to.equal(400);
      expect(tooLong.body.error).to.equal('the range covers 367 days; at most 366 are allowed');

      const old = await seedCampaign(accountId, { createdAt: new Date('2024-01-01T00:00:00Z'), status: 'completed', completedAt: new Date('2026-03-01T00:00:00Z') });
      const clipped = await get<DailyBody>(`/campaigns/${old.id}/stats/daily`);
      expect(clipped.status, clipped.text).to.equal(200);
      expect(clipped.body.daily).to.have.length(366);
      expect(clipped.body.daily.at(-1)!.date).to.equal('2026-03-01');
    });

    it('refuses a start after the end, and dates that are not calendar dates', async () => {
      const reversed = await get<DailyBody>(`/campaigns/${c.id}/stats/daily?start=2026-03-05&end=2026-03-04`);
      expect(reversed.status).to.equal(400);
      expect(reversed.body.error).to.equal('start (2026-03-05) is after end (2026-03-04)');
      for (const q of ['start=2026-02-30', 'end=2025-02-29', 'start=2026-3-01', 'end=yesterday', 'start=2026-03-01T00:00:00Z', 'from=2026-03-01', 'start=0000-01-01&end=0000-01-02', 'start=1969-12-31&end=1970-01-01']) {
        const res = await get<DailyBody>(`/campaigns/${c.id}/stats/daily?${q}`);
        expect(res.status, q).to.equal(400);
        expect(res.body.error, q).to.match(/^query[. ]/);
      }
      // 2024 was a leap year.
      expect((await get(`/campaigns/${c.id}/stats/daily?start=2024-02-29&end=2024-03-01`)).status).to.equal(200);
    });

    it('answers 404 for another account\'s campaign', async () => {
      const res = await get(`/campaigns/${c.id}/stats/daily`, otherKey);
      expect(res.status).to.equal(404);
      expect(res.body).to.deep.equal({ error: 'Campaign not found' });
    });
  });

  describe('GET /campaigns/:id/replies', () => {
    let c: Campaign;
    const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000);

    before(async () => {
      c = await seedCampaign(accountId);
      const grace = await seedLead(accountId, { email: 'grace@navy.example', firstName: 'Grace', lastName: 'Hopper', company: 'US Navy' });
      const toGrace = await seedEmail(c, grace);
      await seedReply(toGrace, grace, { sentiment: 'positive', preview: 'Yes, Tuesday works', receivedAt: at(50) });
      // A colleague answers Grace's email: named as the sender, under Grace's company.
      await seedReply(toGrace, grace, { fromEmail: 'alan@navy.example', fromName: 'Alan Turing', sentiment: 'neutral', preview: 'Grace is away', receivedAt: at(40), fact: false });
      const anon = await seedLead(accountId, { email: 'x@unknown.example', firstName: null, lastName: null, company: null });
      const toAnon = await seedEmail(c, anon);
      await seedReply(toAnon, anon, { sentiment: 'negative', category: 'not_interested', preview: 'No thanks', receivedAt: at(30), fromName: null });
      // Not replies: an out-of-office and a bounce.
      await seedReply(toAnon, anon, { kind: 'auto_reply', sentiment: 'neutral', category: 'out_of_office', receivedAt: at(20) });
      await seedReply(toAnon, anon, { kind: 'bounce', receivedAt: at(10) });
      for (let i = 0; i < 3; i++) {
        const lead = await seedLead(accountId, { email: `p${i}@prospect.example`, firstName: `P${i}`, lastName: null });
        await seedReply(await seedEmail(c, lead), lead, { sentiment: 'positive', preview: `positive ${i}`, receivedAt: at(100 + i) });
      }
      // Another campaign's reply is not this campaign's.
      const other = await seedCampaign(accountId);
      const lead = await seedLead(accountId);
      await seedReply(await seedEmail(other, lead), lead, { receivedAt: at(1) });
    });

    it('lists real replies newest first, with sender, name, company, sentiment and preview', async () => {
      const res = await get<RepliesBody>(`/campaigns/${c.id}/replies`);
      expect(res.status, res.text).to.equal(200);
      expect(res.body.campaign_id).to.equal(c.id);
      expect(res.body.pagination).to.deep.equal({ total: 6, page: 1, per_page: 20 });
      expect(res.body.replies.map((r) => r.preview)).to.deep.equal(['No thanks', 'Grace is away', 'Yes, Tuesday works', 'positive 0', 'positive 1', 'positive 2']);
      const [anon, colleague, grace] = res.body.replies;
      expect(grace).to.include({ email: 'grace@navy.example', name: 'Grace Hopper', company: 'US Navy', sentiment: 'positive' });
      expect(colleague).to.include({ email: 'alan@navy.example', name: 'Alan Turing', company: 'US Navy', sentiment: 'neutral' });
      expect(anon).to.include({ email: 'x@unknown.example', name: null, company: null, sentiment: 'negative' });
      expect(Date.parse(grace!.received_at)).to.be.closeTo(at(50).getTime(), 5_000);
      expect(grace!.id).to.match(/^rpl_/);
    });

    it('filters by sentiment', async () => {
      const positive = await get<RepliesBody>(`/campaigns/${c.id}/replies?sentiment=positive`);
      expect(positive.body.replies.map((r) => r.preview)).to.deep.equal(['Yes, Tuesday works', 'positive 0', 'positive 1', 'positive 2']);
      expect(positive.body.pagination.total).to.equal(4);
      const neutral = await get<RepliesBody>(`/campaigns/${c.id}/replies?sentiment=neutral`);
      expect(neutral.body.replies.map((r) => r.preview)).to.deep.equal(['Grace is away']);
      const bad = await get<RepliesBody>(`/campaigns/${c.id}/replies?sentiment=angry`);
      expect(bad.status).to.equal(400);
      expect(bad.body.error).to.equal('query.sentiment must be one of "positive", "neutral", "negative"');
    });

    it('pages with page and per_page; the total is of all matching replies', async () => {
      const page2 = await get<RepliesBody>(`/campaigns/${c.id}/replies?page=2&per_page=4`);
      expect(page2.body.replies.map((r) => r.preview)).to.deep.equal(['positive 1', 'positive 2']);
      expect(page2.body.pagination).to.deep.equal({ total: 6, page: 2, per_page: 4 });
      const beyond = await get<RepliesBody>(`/campaigns/${c.id}/replies?page=9&per_page=4&sentiment=positive`);
      expect(beyond.body.replies).to.deep.equal([]);
      expect(beyond.body.pagination).to.deep.equal({ total: 4, page: 9, per_page: 4 });
      for (const q of ['per_page=101', 'per_page=0', 'page=0', 'page=x', 'limit=5']) {
        expect((await get(`/campaigns/${c.id}/replies?${q}`)).status, q).to.equal(400);
      }
    });

    it('answers 404 for another account\'s campaign', async () => {
      const res = await get(`/campaigns/${c.id}/replies`, otherKey);
      expect(res.status).to.equal(404);
      expect(res.body).to.deep.equal({ error: 'Campaign not found' });
    });
  });
});

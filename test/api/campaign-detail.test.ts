import { expect } from 'chai';
import { nextReportEndingAfter } from '../../src/campaigns/model/report-schedule';
import { trialDaysRemaining } from '../../src/campaigns/reporting/campaign-read-model';
import { createAccount, request, surfaceA, surfaceB, testConfig, useTestApi } from '../support/api';
import { seedCampaign, seedCost, seedOutcome } from '../support/campaign-seed';

const DAY = 86_400_000;
const HOUR = 3_600_000;

describe('GET /campaigns/:id (Surface A campaign detail)', () => {
  const t = useTestApi();
  let key: string;
  let accountId: string;
  let otherKey: string;

  before(async () => {
    ({ apiKey: key, accountId } = await createAccount(t.db.sequelize, 'free', 'Owner'));
    otherKey = (await createAccount(t.db.sequelize, 'free', 'Other')).apiKey;
  });

  const get = (id: string, k = key) => request(`${t.api.baseUrl}/campaigns/${id}`, { headers: surfaceA(k) });

  it('shows settings, status, spend today and headline figures, every field in its documented place', async () => {
    const startedAt = new Date(Date.now() - 2.5 * DAY);
    const c = await seedCampaign(accountId, {
      mcp: 'partnerships',
      targetUrl: 'https://acme.example',
      targetAudience: 'Heads of partnerships at SaaS companies',
      budgetMaxDailyUsd: '5.0000',
      budgetMaxMonthlyUsd: '100.5000',
      scheduleFrequency: 'weekdays',
      scheduleTrialDays: 14,
      scheduleStartDate: '2026-11-23',
      timezone: 'Europe/Berlin',
      sendWindowStartMinute: 8 * 60 + 30,
      sendWindowEndMinute: 1440,
      reportingFrequency: 'daily',
      reportingEmail: 'reports@acme.example',
      reportingWebhookUrl: 'https://hooks.acme.example/outreach',
      status: 'paused',
      statusReason: 'manual',
      startedAt,
      pausedAt: new Date(Date.now() - HOUR),
    });
    // 3 sent: 2 delivered (one opened and replied, one booked a meeting), 1 hard bounce.
    await seedOutcome(c, { opened: true, replied: true });
    await seedOutcome(c, { meetings: 1 });
    await seedOutcome(c, { hardBounce: true });
    // Spend today counts from 00:00 UTC; yesterday's cost is not today's.
    await seedCost(accountId, 0.25, { campaignId: c.id, category: 'ai_generation' });
    await seedCost(accountId, 0.003, { campaignId: c.id });
    await seedCost(accountId, 7, { campaignId: c.id, at: new Date(new Date().setUTCHours(0, 0, 0, 0) - 1) });
    await seedCost(accountId, 3, { campaignId: null });

    const res = await get(c.id);
    expect(res.status, res.text).to.equal(200);
    expect(res.body).to.deep.equal({
      id: c.id,
      status: 'paused',
      status_reason: 'manual',
      mcp: 'partnerships',
      target_url: 'https://acme.example',
      target_audience: 'Heads of partnerships at SaaS companies',
      // Seeded without an audience: every lead (as campaigns stored before audiences), not counted yet.
      audience: { text: 'Heads of partnerships at SaaS companies', filters: null, source: 'all_leads', matched_leads: null, reason: null },
      target_outcome: null,
      value_for_target: null,
      // Seeded without a stored sequence (as campaigns were before sequences): none to show.
      sequence: null,
      tracking: { opens: true, clicks: true },
      plain_text_only: false,
      created_at: c.createdAt.toISOString(),
      dashboard_url: `${testConfig().publicBaseUrl}/dashboard/campaigns/${c.id}`,
      budget: { max_daily_usd: 5, max_weekly_usd: null, max_monthly_usd: 100.5, spent_today_usd: 0.253 },
      schedule: {
        frequency: 'weekdays',
        trial_days: 14,
        start_date: '2026-11-23',
        days_remaining: 12, // 11.5 days left: a day begun counts
        timezone: 'Europe/Berlin',
        fallback_timezone: null,
        send_window: { start: '08:30', end: '24:00' },
        // Seeded without the schedule rules (as campaigns were before them): none.
        days: null,
        blackout_dates: [],
        skip_holidays: false,
      },
      // The next daily report: 08:00 in Berlin after now (report-schedule.ts; tested in test/unit/report-schedule.test.ts).
      reporting: {
        frequency: 'daily',
        email: 'reports@acme.example',
        webhook_url: 'https://hooks.acme.example/outreach',
        // The first daily report covers a whole local day after the campaign's creation (past 23:00
        // UTC, Berlin's today began before it was created: that day's report is the one after).
        next_report_at: new Date(nextReportEndingAfter('daily', 'Europe/Berlin', Date.now(), c.createdAt.getTime())).toISOString(),
      },
      stats: { emails_sent: 3, delivered: 2, opened: 1, replied: 1, meetings_booked: 1 },
      // No lead lists, the lead-control defaults, no lead enrolled (test/api/campaign-leads.test.ts covers them).
      sources: { lead_list_ids: [], audience: { text: 'Heads of partnerships at SaaS companies', filters: null, source: 'all_leads', matched_leads: null, reason: null }, matched_leads: null },
      allow_duplicate_leads: false,
      stop_company_on_reply: true,
      max_first_emails_per_domain_per_day: null,
      skip_risky_leads: false,
      mailbox_ids: null,
      mailboxes_reason: null,
      leads: { queued: 0, in_sequence: 0, replied: 0, meeting_booked: 0, bounced: 0, unsubscribed: 0, finished: 0, removed: 0, skipped: 0, total: 0 },
      started_at: startedAt.toISOString(),
      paused_at: c.pausedAt!.toISOString(),
      resumed_at: null,
      completed_at: null,
    });
  });

  it('shows the defaults of a campaign created with only mcp and target_url', async () => {
    const c = await seedCampaign(accountId, { status: 'starting' });
    const res = await get(c.id);
    expect(res.status, res.text).to.equal(200);
    expect(res.body).to.deep.include({
      status: 'starting',
      status_reason: null,
      target_audience: null,
      budget: { max_daily_usd: null, max_weekly_usd: null, max_monthly_usd: null, spent_today_usd: 0 },
      schedule: {
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
      },
      reporting: { frequency: null, email: null, webhook_url: null, next_report_at: null },
      stats: { emails_sent: 0, delivered: 0, opened: 0, replied: 0, meetings_booked: 0 },
      started_at: null,
    });
  });

  it('counts a trial from its start: all of it before, 0 once over or the campaign ended', async () => {
    const notStarted = await seedCampaign(accountId, { status: 'starting', scheduleTrialDays: 7 });
    const over = await seedCampaign(accountId, { scheduleTrialDays: 3, startedAt: new Date(Date.now() - 4 * DAY) });
    const done = await seedCampaign(accountId, { status: 'completed', statusReason: 'schedule_complete', scheduleTrialDays: 30, startedAt: new Date(Date.now() - DAY), completedAt: new Date() });
    const days = async (id: string) => ((await get(id)).body as { schedule: { days_remaining: number | null } }).schedule.days_remaining;
    expect(await days(notStarted.id)).to.equal(7);
    expect(await days(over.id)).to.equal(0);
    expect(await days(done.id)).to.equal(0);
  });

  it('rounds the days left up to whole days, and never exceeds the trial', () => {
    const startedAt = new Date('2026-03-01T12:00:00Z');
    const c = { trialDays: 3, startedAt, status: 'running' as const };
    expect(trialDaysRemaining(c, new Date('2026-03-01T12:00:00Z'))).to.equal(3);
    expect(trialDaysRemaining(c, new Date('2026-03-02T11:00:00Z'))).to.equal(3);
    expect(trialDaysRemaining(c, new Date('2026-03-02T13:00:00Z'))).to.equal(2);
    expect(trialDaysRemaining(c, new Date('2026-03-04T11:59:59Z'))).to.equal(1);
    expect(trialDaysRemaining(c, new Date('2026-03-04T12:00:00Z'))).to.equal(0);
    // A clock behind the recorded start (another machine) does not add days.
    expect(trialDaysRemaining(c, new Date('2026-02-27T00:00:00Z'))).to.equal(3);
  });

  it('answers 404 for another account\'s campaign and for an unknown id, without telling them apart', async () => {
    const c = await seedCampaign(accountId);
    const theirs = await get(c.id, otherKey);
    expect(theirs.status).to.equal(404);
    expect(theirs.body).to.deep.equal({ error: 'Campaign not found' });
    const unknown = await get('cmp_doesnotexist0000');
    expect(unknown.status).to.equal(404);
    expect(unknown.body).to.deep.equal({ error: 'Campaign not found' });
  });

  it('answers 404 for an id of another shape, and 400 for one too long to be an id', async () => {
    for (const id of ['lead_abc', 'cmp_', 'cmp_a%20b', 'x']) {
      const res = await get(id);
      expect(res.status, id).to.equal(404);
      expect(res.body).to.deep.equal({ error: 'Campaign not found' });
    }
    const long = await get(`cmp_${'a'.repeat(200)}`);
    expect(long.status).to.equal(400);
    expect(long.body.error).to.equal('params.id must NOT have more than 100 characters');
  });

  it('takes Surface A\'s Bearer key only', async () => {
    const c = await seedCampaign(accountId);
    expect((await request(`${t.api.baseUrl}/campaigns/${c.id}`)).status).to.equal(401);
    expect((await request(`${t.api.baseUrl}/campaigns/${c.id}`, { headers: surfaceB(key) })).status).to.equal(401);
  });
});

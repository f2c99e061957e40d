import { expect } from 'chai';
import { simpleParser, type ParsedMail } from 'mailparser';
import { QueryTypes } from 'sequelize';
import { insertOnDemandReport, reservePeriodReport } from '../../src/campaigns/reporting/report-repository';
import { count, percent, usd } from '../../src/campaigns/reporting/report-view';
import { markPeriodReportFailed, sendCampaignReport } from '../../src/campaigns/reporting/send-report';
import type { Campaign } from '../../src/db/models';
import { scoreMessage, spamAssassinAvailable } from '../../src/deliverability/spamassassin';
import { createLogger } from '../../src/log/logger';
import { createAccount, request, surfaceA, surfaceB, testConfig } from '../support/api';
import { seedCampaign, seedCost, seedOutcome, seedReply } from '../support/campaign-seed';
import { useCampaignStack } from '../support/campaign-stack';

const MINUTE = 60_000;
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

interface Report {
  id: string;
  kind: string;
  status: string;
  recipient: string | null;
  period: { start: string; end: string };
}
interface StatsA {
  stats: Record<string, number>;
  rates: Record<string, number>;
  costs: { total_byok_usd: number; breakdown: Record<string, number> };
}

/**
 * Emailed reports through the API, the worker's report workflow and the SMTP sink (the real stack:
 * PostgreSQL, a Temporal dev server, the worker, the API): what the report says is checked against
 * GET /campaigns/:id/stats and /v1/campaigns/:id/stats, read from the received email with mailparser.
 */
describe('campaign reports (POST/GET /campaigns/:id/reports, /v1/..., preview; the email through the SMTP sink)', function () {
  this.timeout(120_000);
  const s = useCampaignStack();
  let key: string;
  let accountId: string;
  let otherKey: string;
  let campaign: Campaign;
  const owner = `owner.${Date.now()}@client.example`;
  const NAME = 'Spring <script>alert("x")</script> & "friends"';

  before(async () => {
    ({ apiKey: key, accountId } = await createAccount(s.db.sequelize, 'pro', 'Report Co'));
    otherKey = (await createAccount(s.db.sequelize, 'free', 'Other')).apiKey;
    // Monthly: the report so far runs from the 1st (in Berlin) or the creation, whichever is later,
    // so with the campaign created 10 minutes ago it covers the whole campaign (but in the first
    // 10 minutes of a month).
    campaign = await seedCampaign(accountId, {
      name: NAME,
      reportingEmail: owner,
      reportingFrequency: 'monthly',
      timezone: 'Europe/Berlin',
      createdAt: new Date(Date.now() - 10 * MINUTE),
      startedAt: new Date(Date.now() - 10 * MINUTE),
    });
    const at = new Date(Date.now() - 5 * MINUTE);
    // 13 sent: 1 refused, 1 bounced later; 4 opened (2 by clicks), 2 replied (both interested), 1 unsubscribed, 1 with 2 meetings.
    await seedOutcome(campaign, { at, hardBounce: true });
    await seedOutcome(campaign, { at, bouncedLater: true });
    const { email, lead } = await seedOutcome(campaign, { at, opened: true });
    await seedReply(email, lead, { receivedAt: at, category: 'interested', sentiment: 'positive' });
    await seedOutcome(campaign, { at, clicks: 2, replied: true, meetings: 2 });
    await seedOutcome(campaign, { at, clicks: 1 });
    await seedOutcome(campaign, { at, opened: true, unsubscribed: true });
    for (let i = 0; i < 7; i++) await seedOutcome(campaign, { at });
    await seedCost(accountId, 0.0123, { campaignId: campaign.id, category: 'ai_generation', at });
    for (let i = 0; i < 13; i++) await seedCost(accountId, 0.001, { campaignId: campaign.id, at });
  });

  const api = <T>(path: string, init: RequestInit & { b?: boolean; k?: string } = {}) =>
    request<T>(`${s.api.baseUrl}${path}`, { ...init, headers: { 'Content-Type': 'application/json', ...(init.b ? surfaceB(init.k ?? key) : surfaceA(init.k ?? key)) } });

  async function mailsTo(address: string, n: number): Promise<ParsedMail[]> {
    const deadline = Date.now() + 60_000;
    while (s.sink.to(address).length < n && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(s.sink.to(address), `mails to ${address}`).to.have.length(n);
    return Promise.all(s.sink.to(address).map((m) => s.sink.parse(m)));
  }

  let mail: ParsedMail;

  it('POST /campaigns/:id/reports answers 202 with the pending on-demand report; the worker emails it to reporting.email', async () => {
    const res = await api<Report>(`/campaigns/${campaign.id}/reports`, { method: 'POST', body: '{}' });
    expect(res.status, res.text).to.equal(202);
    expect(res.body).to.include({ kind: 'on_demand', status: 'pending', recipient: owner });
    expect(Date.parse(res.body.period.start)).to.equal(campaign.createdAt.getTime());
    mail = (await mailsTo(owner, 1))[0]!;
    expect(mail!.subject).to.match(/^Report so far: Spring <script>alert\("x"\)<\/script> & "friends", \d{1,2} \w{3} \d{4}$/);
    expect((mail!.from?.value[0])).to.deep.include({ name: 'Report Co' });
    expect(mail!.headers.get('auto-submitted')).to.equal('auto-generated');
  });

  it('the email says every figure GET /campaigns/:id/stats and /v1/campaigns/:id/stats give, in the HTML and the text part', async () => {
    const a = await api<StatsA>(`/campaigns/${campaign.id}/stats`);
    const b = await api<{ stats: Record<string, number> }>(`/v1/campaigns/${campaign.id}/stats`, { b: true });
    expect(a.body.stats).to.deep.equal({ emails_sent: 13, delivered: 11, bounced: 2, opened: 4, clicked: 2, replied: 2, unsubscribed: 1, meetings_booked: 2 });
    expect(b.body.stats.emailsSent).to.equal(a.body.stats.emails_sent);
    const st = a.body.stats;
    const r = a.body.rates;
    const expected = [
      `Emails sent: ${count(st.emails_sent!)}`,
      `Delivered: ${count(st.delivered!)} (${percent(r.delivery_rate!)})`,
      `Bounced: ${count(st.bounced!)}`,
      `Opened: ${count(st.opened!)} (${percent(r.open_rate!)})`,
      `Clicked: ${count(st.clicked!)} (${percent(r.click_rate!)})`,
      `Replied: ${count(st.replied!)} (${percent(r.reply_rate!)})`,
      `Unsubscribed: ${count(st.unsubscribed!)}`,
      `Meetings booked: ${count(st.meetings_booked!)} (${percent(r.conversion_rate!)})`,
      `Total: ${usd(a.body.costs.total_byok_usd)}`,
      `AI generation: ${usd(a.body.costs.breakdown.ai_generation!)}`,
      `Email sending: ${usd(a.body.costs.breakdown.email_sending!)}`,
      'Interested: 2',
      'Best: Step 1: 18.2% replied, 36.4% opened, 18.2% clicked (11 delivered)',
    ];
    const text = mail.text ?? '';
    for (const line of expected) expect(text, line).to.include(line);
    expect(expected[1]).to.equal('Delivered: 11 (84.6%)');
    // The HTML has the same values in its table cells.
    const html = mail.html as string;
    for (const v of [count(st.emails_sent!), percent(r.delivery_rate!), percent(r.open_rate!), percent(r.reply_rate!), usd(a.body.costs.total_byok_usd)]) expect(html).to.include(`>${v}<`);
    expect(html).to.include(`/dashboard/campaigns/${campaign.id}`);
  });

  it('the chart is an inline PNG attachment the HTML refers to by Content-ID', async () => {
    // mailparser turns cid: links into data: URIs unless told not to: read the HTML as sent.
    const html = (await simpleParser(s.sink.to(owner)[0]!.raw, { skipImageLinks: true })).html as string;
    const cid = /<img src="cid:([^"]+)"/.exec(html)?.[1];
    expect(cid, 'img src=cid:').to.be.a('string');
    const chart = mail.attachments.find((x) => x.cid === cid);
    expect(chart, 'attachment with that Content-ID').to.not.equal(undefined);
    expect(chart!.contentType).to.equal('image/png');
    expect(chart!.contentDisposition).to.equal('inline');
    expect(chart!.content.subarray(0, 8).equals(PNG_SIGNATURE)).to.equal(true);
    // 2x a 640x300 chart: width and height from the IHDR chunk.
    expect(chart!.content.readUInt32BE(16)).to.be.within(1000, 1600);
    expect(chart!.content.readUInt32BE(20)).to.be.within(400, 800);
    expect(chart!.size).to.be.within(5_000, 300_000);
  });

  it('a campaign name with <script> is escaped in the HTML part', () => {
    const html = mail.html as string;
    expect(html).to.not.include('<script>');
    expect(html).to.include('Spring &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &quot;friends&quot;');
  });

  it('GET /campaigns/:id/reports and /v1/... list it, sent, newest first, in each surface\'s casing', async () => {
    const deadline = Date.now() + 20_000;
    let list = await api<{ reports: Array<Report & { sent_at: string | null }>; pagination: { total: number } }>(`/campaigns/${campaign.id}/reports`);
    while (list.body.reports[0]?.status !== 'sent' && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
      list = await api(`/campaigns/${campaign.id}/reports`);
    }
    expect(list.status, list.text).to.equal(200);
    expect(list.body.pagination.total).to.equal(1);
    expect(list.body.reports[0]).to.include({ kind: 'on_demand', status: 'sent', recipient: owner });
    expect(Date.parse(list.body.reports[0]!.sent_at!)).to.be.within(Date.now() - 60_000, Date.now());
    const b = await api<{ campaignId: string; reports: Array<{ sentAt: string; status: string }>; pagination: { perPage: number } }>(`/v1/campaigns/${campaign.id}/reports`, { b: true });
    expect(b.status, b.text).to.equal(200);
    expect(b.body.campaignId).to.equal(campaign.id);
    expect(b.body.reports[0]).to.include({ status: 'sent', sentAt: list.body.reports[0]!.sent_at });
    expect(b.body.pagination.perPage).to.equal(20);
  });

  it('a second report within a minute is a 429 with Retry-After', async () => {
    const res = await api<{ error: string }>(`/v1/campaigns/${campaign.id}/reports`, { method: 'POST', body: '{}', b: true });
    expect(res.status, res.text).to.equal(429);
    expect(Number(res.headers.get('retry-after'))).to.be.within(1, 60);
    expect(res.body.error).to.match(/less than a minute ago/);
  });

  it('POST /v1/campaigns/:id/reports with an email sends there; a period without activity says so plainly', async () => {
    const quiet = await seedCampaign(accountId, { name: 'Quiet one', createdAt: new Date(Date.now() - MINUTE) });
    const to = `someone.${Date.now()}@client.example`;
    const res = await api<Report>(`/v1/campaigns/${quiet.id}/reports`, { method: 'POST', body: JSON.stringify({ email: to }), b: true });
    expect(res.status, res.text).to.equal(202);
    expect(res.body).to.include({ kind: 'on_demand', status: 'pending', recipient: to });
    const [m] = await mailsTo(to, 1);
    expect(m!.text).to.include('No activity in this period');
    expect(m!.text).to.include('Emails sent: 0');
    expect(m!.html).to.include('No activity in this period');
  });

  it('GET /campaigns/:id/reports/preview renders the HTML with the chart as a data: PNG, and sends and records nothing', async () => {
    const before = s.sink.messages.length;
    const res = await fetch(`${s.api.baseUrl}/campaigns/${campaign.id}/reports/preview`, { headers: surfaceA(key) });
    const html = await res.text();
    expect(res.status, html).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^text\/html/);
    expect(res.headers.get('content-security-policy')).to.include("default-src 'none'");
    expect(html).to.match(/<img src="data:image\/png;base64,iVBORw0KGgo[^"]+"/);
    expect(html).to.include('>13<');
    expect(html).to.not.include('<script>');
    const v1 = await fetch(`${s.api.baseUrl}/v1/campaigns/${campaign.id}/reports/preview`, { headers: surfaceB(key) });
    expect(v1.status).to.equal(200);
    await v1.text();
    await new Promise((r) => setTimeout(r, 300));
    expect(s.sink.messages.length).to.equal(before);
    const [{ n }] = await s.db.sequelize.query<{ n: number }>('SELECT count(*)::int AS n FROM campaign_reports WHERE campaign_id = $1', { bind: [campaign.id], type: QueryTypes.SELECT }) as [{ n: number }];
    expect(n).to.equal(1);
  });

  it('bad input: unknown id and another account\'s campaign 404, a bad email or an unknown field 400, no recipient 400 saying so', async () => {
    const cases: Array<[string, RequestInit & { b?: boolean; k?: string }, number, RegExp]> = [
      ['/campaigns/cmp_nope/reports', { method: 'POST', body: '{}' }, 404, /not found/i],
      [`/campaigns/${campaign.id}/reports`, { method: 'POST', body: '{}', k: otherKey }, 404, /not found/i],
      [`/v1/campaigns/${campaign.id}/reports`, { method: 'GET', b: true, k: otherKey }, 404, /not found/i],
      [`/campaigns/${campaign.id}/reports/preview`, { k: otherKey }, 404, /not found/i],
      [`/campaigns/${campaign.id}/reports`, { method: 'POST', body: JSON.stringify({ email: 'not an email' }) }, 400, /email/],
      [`/v1/campaigns/${campaign.id}/reports`, { method: 'POST', body: JSON.stringify({ email: 'a@b.example', cc: 'x' }), b: true }, 400, /cc|additional/i],
    ];
    for (const [path, init, status, message] of cases) {
      const res = await api<{ error: string }>(path, init);
      expect(res.status, `${path} ${res.text}`).to.equal(status);
      expect(Object.keys(res.body)).to.deep.equal(['error']);
      expect(res.body.error).to.match(message);
    }
    const nobody = await seedCampaign(accountId, { name: 'No reporting' });
    const res = await api<{ error: string }>(`/campaigns/${nobody.id}/reports`, { method: 'POST', body: '{}' });
    expect(res.status, res.text).to.equal(400);
    expect(res.body.error).to.match(/reporting\.email/);
  });

  it('GET /campaigns/:id shows reporting.next_report_at (B: reporting.nextReportAt): the 1st at 08:00 Berlin; null once completed or without an email', async () => {
    const a = await api<{ reporting: { next_report_at: string | null } }>(`/campaigns/${campaign.id}`);
    expect(a.status, a.text).to.equal(200);
    const next = new Date(a.body.reporting.next_report_at!);
    const local = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Berlin', day: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(next);
    expect(local).to.match(/^1,? 08:00$/);
    expect(next.getTime()).to.be.within(Date.now(), Date.now() + 32 * 86_400_000);
    const b = await api<{ reporting: { nextReportAt: string | null } }>(`/v1/campaigns/${campaign.id}`, { b: true });
    expect(b.body.reporting.nextReportAt).to.equal(a.body.reporting.next_report_at);
    const done = await seedCampaign(accountId, { reportingEmail: owner, reportingFrequency: 'daily', status: 'completed', completedAt: new Date() });
    expect((await api<{ reporting: { next_report_at: string | null } }>(`/campaigns/${done.id}`)).body.reporting.next_report_at).to.equal(null);
    const none = await seedCampaign(accountId, { reportingFrequency: 'daily' });
    expect((await api<{ reporting: { nextReportAt: string | null } }>(`/v1/campaigns/${none.id}`, { b: true })).body.reporting.nextReportAt).to.equal(null);
  });

  it('sendCampaignReport: a scheduled period is reserved once and emailed once however often it is called', async () => {
    const config = testConfig({ SMTP_URL: s.sink.url });
    const deps = { sequelize: s.db.sequelize, config, log: createLogger('silent', 'test') };
    const before = s.sink.to(owner).length;
    const input = { campaignId: campaign.id, kind: 'scheduled' as const, periodStart: campaign.createdAt.getTime(), periodEnd: Date.now() };
    const first = await sendCampaignReport(deps, input);
    const again = await sendCampaignReport(deps, input);
    expect(first.status).to.equal('sent');
    expect(again).to.deep.equal(first);
    await mailsTo(owner, before + 1);
    const [m] = (await mailsTo(owner, before + 1)).slice(-1);
    expect(m!.subject).to.match(/^Monthly report: /);
    // An on-demand row already settled is not sent again either.
    const asked = await insertOnDemandReport(s.db.sequelize, { campaignId: campaign.id, accountId, periodStart: new Date(input.periodStart), periodEnd: new Date(input.periodEnd), recipient: owner }, 0);
    const id = 'report' in asked ? asked.report.id : '';
    expect((await sendCampaignReport(deps, { ...input, kind: 'on_demand', reportId: id })).status).to.equal('sent');
    expect((await sendCampaignReport(deps, { ...input, kind: 'on_demand', reportId: id })).status).to.equal('sent');
    await mailsTo(owner, before + 2);

    // A scheduled report its workflow gave up on is shown failed, with the error; a sent one stays sent.
    const stuck = { ...input, periodEnd: input.periodEnd - 60_000 };
    await reservePeriodReport(s.db.sequelize, { campaignId: campaign.id, accountId, kind: 'scheduled', periodStart: new Date(stuck.periodStart), periodEnd: new Date(stuck.periodEnd), recipient: owner });
    await markPeriodReportFailed(s.db.sequelize, { campaignId: campaign.id, kind: 'scheduled', periodEnd: stuck.periodEnd }, 'SMTP 451 for a day');
    await markPeriodReportFailed(s.db.sequelize, { campaignId: campaign.id, kind: 'scheduled', periodEnd: input.periodEnd }, 'must not apply');
    const rows = await s.db.sequelize.query<{ period_end: Date; status: string; error: string | null }>(
      "SELECT period_end, status, error FROM campaign_reports WHERE campaign_id = $1 AND kind = 'scheduled' ORDER BY period_end",
      { bind: [campaign.id], type: QueryTypes.SELECT },
    );
    expect(rows.map((r) => [r.period_end.getTime(), r.status, r.error])).to.deep.equal([
      [stuck.periodEnd, 'failed', 'SMTP 451 for a day'],
      [input.periodEnd, 'sent', null],
    ]);
  });

  it('SpamAssassin (local rules) scores the report email low', async function () {
    if (!(await spamAssassinAvailable())) this.skip();
    const raw = s.sink.to(owner)[0]!.raw;
    const report = await scoreMessage(raw);
    console.log(`      report email: SpamAssassin ${report.score} (${report.rules.map((r) => `${r.name} ${r.score}`).join(', ')})`);
    expect(report.score).to.be.below(2.5);
  });
});

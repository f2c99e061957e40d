import { expect } from 'chai';
import { createActivities } from '../../activities';
import { createLogger } from '../../src/log/logger';
import { WEBHOOK_EVENT_KINDS } from '../../src/webhooks/event-kinds';
import { setWebhookUrl, webhookSettings } from '../../src/webhooks/webhook-settings-repository';
import { normalizeWebhookUrl } from '../../src/webhooks/webhook-url';
import { createAccount, testConfig } from '../support/api';
import { useCampaignStack } from '../support/campaign-stack';
import type { FakeSite } from '../support/fake-site';
import type { ReceivedWebhook } from '../support/webhook-receiver';
import { WebhookReceiver } from '../support/webhook-receiver';
import { campaignApi, INBOUND_SECRET, startTargetSite, type ImportedLead } from './support/campaign-api';
import { arrival, envelopeOf, expectSignedWith, until, type Envelope } from './support/webhook-checks';

const CALCOM_SECRET = 'calcom-e2e-secret-0123456789abcdef';
const CALENDAR_LINK = 'https://cal.example/northwind/intro';
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** `data` has exactly these members (the spec's table, with design.md's choices for its gaps). */
function expectMembers(e: Envelope, members: readonly string[]): void {
  expect(Object.keys(e.data).sort(), `${e.event} data members`).to.deep.equal([...members].sort());
}

function expectCounts(value: unknown, members: readonly string[], what: string): Record<string, number> {
  expect(value, what).to.be.an('object');
  const counts = value as Record<string, number>;
  expect(Object.keys(counts).sort(), `${what} members`).to.deep.equal([...members].sort());
  for (const m of members) expect(Number.isInteger(counts[m]) && (counts[m] as number) >= 0, `${what}.${m} is a count`).to.equal(true);
  return counts;
}

/** budget.warning and campaign.budget_warning (design.md: both kinds, one payload). */
function expectBudgetWarning(e: Envelope, limit: number): void {
  expectMembers(e, ['budget_type', 'spent_usd', 'limit_usd', 'percentage']);
  expect(e.data.budget_type).to.equal('daily');
  expect(e.data.limit_usd).to.equal(limit);
  expect(e.data.spent_usd).to.be.a('number').and.at.least(0.8 * limit);
  expect(Number.isInteger(e.data.percentage), 'percentage is an integer').to.equal(true);
  expect(e.data.percentage).to.equal(Math.floor(((e.data.spent_usd as number) / limit) * 100 + 1e-9));
}

/**
 * Every webhook event kind of the spec, produced through the product's own paths on the real stack
 * (PostgreSQL, Temporal dev server, worker with the dispatcher, API, SMTP sink) and received by a
 * local HTTP receiver: the envelope, the members of each kind's data, the campaign it names, and
 * both signatures checked with the account's secret as a receiver would.
 *
 * Three accounts, so each campaign's figures are its own: A's campaign sends to its own
 * `reporting.webhook_url`; B's campaign has none and B's global URL receives its events; C's
 * campaign has a budget it crosses 80% of, B's one it exhausts.
 */
describe('webhook events end to end: every kind, signed with the account secret, with the spec\'s members', function () {
  this.timeout(5 * 60_000);
  const t = useCampaignStack({ INBOUND_SECRET });
  const api = campaignApi(t);
  let site: FakeSite;
  let receiver: WebhookReceiver;

  interface Account {
    accountId: string;
    apiKey: string;
    leads: ImportedLead[];
    campaignId: string;
    path: string;
  }
  const accounts: Record<'a' | 'b' | 'c', Account> = {} as Record<'a' | 'b' | 'c', Account>;
  /** What each account's secret is, read back from the settings store (the dashboard's value). */
  const secretOf = async (x: Account): Promise<string> => (await webhookSettings(t.db.sequelize, x.accountId)).secret;
  const eventsOf = (x: Account): ReceivedWebhook[] => receiver.received.filter((r) => envelopeOf(r).campaign_id === x.campaignId);
  const sentTo = (domain: string) => t.sink.messages.filter((m) => m.to.some((to) => to.endsWith(`@${domain}`)));

  before(async function () {
    this.timeout(60_000);
    [site, receiver] = await Promise.all([startTargetSite(), WebhookReceiver.start()]);
    const open = async (name: string, plan: 'free' | 'pro', leads: number, path: string): Promise<Account> => {
      const { accountId, apiKey } = await createAccount(t.db.sequelize, plan, name);
      return { accountId, apiKey, leads: await api.importLeads(apiKey, `${path.slice(1)}.example`, leads), campaignId: '', path };
    };
    [accounts.a, accounts.b, accounts.c] = await Promise.all([open('Northwind A', 'pro', 3, '/acct-a'), open('Northwind B', 'pro', 3, '/acct-b'), open('Northwind C', 'pro', 4, '/acct-c')]);
    // B configures only the account-wide URL (dashboard settings); its campaign names no URL.
    await setWebhookUrl(t.db.sequelize, accounts.b.accountId, normalizeWebhookUrl(receiver.url(accounts.b.path)));
    const [a, b, c] = [accounts.a, accounts.b, accounts.c];
    [a.campaignId, b.campaignId, c.campaignId] = await Promise.all([
      api.createCampaign(a.apiKey, {
        mcp: 'sales_outreach',
        target_url: site.origin,
        target_audience: 'Finance leaders',
        calendar_link: CALENDAR_LINK,
        budget: { max_daily_usd: 50 },
        schedule: { trial_days: 14 },
        reporting: { webhook_url: receiver.url(a.path) },
      }),
      // 3 leads at 0.001 USD an email: the batch stops at the 2nd email, on the limit.
      api.createCampaign(b.apiKey, { mcp: 'recruiting', target_url: site.origin, budget: { max_daily_usd: 0.002 } }),
      // 4 leads at 0.001 USD: 0.004 of 0.005 is exactly 80%, and the limit is not reached.
      api.createCampaign(c.apiKey, { mcp: 'partnerships', target_url: site.origin, budget: { max_daily_usd: 0.005 }, reporting: { webhook_url: receiver.url(c.path) } }),
    ]);
  });
  after(async () => {
    await receiver?.close();
    await site?.close();
  });

  it('campaign.started: {mcp, target_url} of the campaign, when it begins processing', async () => {
    for (const [x, mcp] of [[accounts.a, 'sales_outreach'], [accounts.b, 'recruiting'], [accounts.c, 'partnerships']] as const) {
      const r = await arrival(receiver, `campaign.started of ${x.campaignId}`, (e) => e.event === 'campaign.started' && e.campaign_id === x.campaignId);
      expect(r.path, 'sent to the URL the account configured').to.equal(x.path);
      const e = expectSignedWith(r, await secretOf(x));
      expectMembers(e, ['mcp', 'target_url']);
      expect(e.data).to.deep.equal({ mcp, target_url: site.origin });
      const got = await api.get<{ status: string; created_at: string }>(x.apiKey, `/campaigns/${x.campaignId}`);
      expect(['running', 'budget_paused']).to.include(got.body.status);
    }
  });

  it('budget.warning and campaign.budget_warning at 80%: {budget_type, spent_usd, limit_usd, percentage}', async () => {
    const c = accounts.c;
    await until('4 emails of campaign C', () => (sentTo('acct-c.example').length === 4 ? true : undefined));
    const warning = await arrival(receiver, 'budget.warning of C', (e) => e.event === 'budget.warning' && e.campaign_id === c.campaignId);
    const campaignWarning = await arrival(receiver, 'campaign.budget_warning of C', (e) => e.event === 'campaign.budget_warning' && e.campaign_id === c.campaignId);
    const secret = await secretOf(c);
    for (const r of [warning, campaignWarning]) {
      expect(r.path).to.equal(c.path);
      const e = expectSignedWith(r, secret);
      expectBudgetWarning(e, 0.005);
      expect(e.data).to.include({ spent_usd: 0.004, percentage: 80 });
    }
    expect(envelopeOf(warning).id, 'two events, two ids').to.not.equal(envelopeOf(campaignWarning).id);
    const got = await api.get<{ status: string; budget: { spent_today_usd: number } }>(c.apiKey, `/campaigns/${c.campaignId}`);
    expect(got.body.status, 'under its limit, C keeps running').to.equal('running');
    expect(got.body.budget.spent_today_usd).to.equal(0.004);
  });

  it('budget exhausted: campaign.paused {reason budget_exceeded, budget_spent_usd, budget_limit_usd}, campaign.budget_exceeded, and the warnings', async () => {
    const b = accounts.b;
    const secret = await secretOf(b);
    const of = (kind: string) => arrival(receiver, `${kind} of B`, (e) => e.event === kind && e.campaign_id === b.campaignId);
    const [paused, exceeded, warning, campaignWarning] = await Promise.all([of('campaign.paused'), of('campaign.budget_exceeded'), of('budget.warning'), of('campaign.budget_warning')]);
    for (const r of [paused, exceeded, warning, campaignWarning]) expect(r.path, 'B has only its account-wide URL').to.equal(b.path);

    const p = expectSignedWith(paused, secret);
    expectMembers(p, ['reason', 'budget_spent_usd', 'budget_limit_usd']);
    expect(p.data).to.deep.equal({ reason: 'budget_exceeded', budget_spent_usd: 0.002, budget_limit_usd: 0.002 });

    const x = expectSignedWith(exceeded, secret);
    expectMembers(x, ['budget_type', 'spent_usd', 'limit_usd']);
    expect(x.data).to.deep.equal({ budget_type: 'daily', spent_usd: 0.002, limit_usd: 0.002 });

    // The batch went from below 80% straight to the limit: the warning is due at the same check and says so.
    for (const r of [warning, campaignWarning]) {
      const w = expectSignedWith(r, secret);
      expectBudgetWarning(w, 0.002);
      expect(w.data).to.include({ spent_usd: 0.002, percentage: 100 });
    }
    expect(sentTo('acct-b.example'), 'the limit stopped the batch after 2 emails').to.have.length(2);
    const got = await api.get<{ status: string }>(b.apiKey, `/campaigns/${b.campaignId}`);
    expect(got.body.status).to.equal('budget_paused');
  });

  it('reply.received: the full form {reply_id, email, name, company, title, sentiment, preview, received_at}, from a MIME reply', async () => {
    const a = accounts.a;
    await until('3 emails of campaign A', () => (sentTo('acct-a.example').length === 3 ? true : undefined));
    const lead = a.leads[0] as ImportedLead;
    const sent = t.sink.messages.find((m) => m.to.includes(lead.email));
    expect(sent, `an email to ${lead.email}`).to.not.equal(undefined);
    const replyId = await api.reply(sent as (typeof t.sink.messages)[number], `${lead.name} <${lead.email}>`, 'Sounds interesting, can we talk on Thursday afternoon?');

    const r = await arrival(receiver, 'reply.received of A', (e) => e.event === 'reply.received' && e.campaign_id === a.campaignId);
    expect(r.path).to.equal(a.path);
    const e = expectSignedWith(r, await secretOf(a));
    expectMembers(e, ['reply_id', 'email', 'name', 'company', 'title', 'sentiment', 'preview', 'received_at']);
    for (const m of Object.keys(e.data)) expect(e.data[m], `reply.received data.${m} is a string`).to.be.a('string');
    expect(e.data).to.include({ reply_id: replyId, email: lead.email, name: lead.name, company: lead.company, title: lead.title, sentiment: 'positive' });
    expect(e.data.preview).to.match(/^Sounds interesting, can we talk on Thursday/);
    expect(e.data.received_at).to.match(ISO);
    const replies = await api.get<{ replies: Array<{ id: string; received_at: string }> }>(a.apiKey, `/campaigns/${a.campaignId}/replies`);
    expect(replies.body.replies.map((x) => [x.id, x.received_at]), 'the event names the reply the API lists').to.deep.equal([[replyId, e.data.received_at]]);
  });

  it('meeting.booked: {email, name, company, meeting_time, calendar_link}, from a Cal.com booking', async () => {
    const a = accounts.a;
    const lead = a.leads[1] as ImportedLead;
    await api.configureCalcom(a.apiKey, CALCOM_SECRET);
    const meetingTime = new Date(Date.now() + 3 * 86_400_000).toISOString().replace(/:\d{2}\.\d{3}Z$/, ':00.000Z');
    await api.calcomBooking(a.accountId, CALCOM_SECRET, { email: lead.email, name: 'Ada One Lovelace' }, meetingTime);

    const r = await arrival(receiver, 'meeting.booked of A', (e) => e.event === 'meeting.booked' && e.campaign_id === a.campaignId);
    expect(r.path).to.equal(a.path);
    const e = expectSignedWith(r, await secretOf(a));
    expectMembers(e, ['email', 'name', 'company', 'meeting_time', 'calendar_link']);
    expect(e.data).to.deep.equal({ email: lead.email, name: 'Ada One Lovelace', company: lead.company, meeting_time: meetingTime, calendar_link: CALENDAR_LINK });
  });

  it('campaign.paused on a manual pause: {reason manual, budget_spent_usd, budget_limit_usd} of the daily budget', async () => {
    const a = accounts.a;
    await api.pause(a.apiKey, a.campaignId);
    const r = await arrival(receiver, 'campaign.paused of A', (e) => e.event === 'campaign.paused' && e.campaign_id === a.campaignId);
    const e = expectSignedWith(r, await secretOf(a));
    expectMembers(e, ['reason', 'budget_spent_usd', 'budget_limit_usd']);
    const got = await api.get<{ status: string; budget: { max_daily_usd: number; spent_today_usd: number } }>(a.apiKey, `/campaigns/${a.campaignId}`);
    expect(got.body.status).to.equal('paused');
    expect(e.data).to.deep.equal({ reason: 'manual', budget_spent_usd: got.body.budget.spent_today_usd, budget_limit_usd: 50 });
    expect(e.data.budget_spent_usd).to.be.greaterThan(0);
  });

  // campaign.milestone (100 emails) and campaign.completed (a 14-day trial) cannot be reached in real
  // time on a dev server. They are emitted here through the real activities the campaign workflow
  // calls, with exactly the input the workflow gives them (workflows/campaign/workflow.ts:
  // celebrateMilestones and complete); that the workflow makes these calls at 100 emails and at the
  // trial's end is covered by the time-skipping tests (test/workflows/campaign-sequences and
  // campaign-lifecycle). Everything after the activity (outbox, dispatcher, signing) is the real path.
  const activities = () => createActivities({ sequelize: t.db.sequelize, config: testConfig(t.env), log: createLogger('silent', 'test') });

  it('campaign.milestone: {milestone "100_emails", stats {emails_sent, delivered, opened, replied}} with the campaign\'s figures', async () => {
    const a = accounts.a;
    const stats = (await api.get<{ stats: Record<string, number> }>(a.apiKey, `/campaigns/${a.campaignId}/stats`)).body.stats;
    await activities().emitCampaignEvents({
      campaignId: a.campaignId,
      accountId: a.accountId,
      at: new Date().toISOString(),
      events: [{ event: 'campaign.milestone', data: { milestone: '100_emails' }, fill: 'stats' }],
    });
    const r = await arrival(receiver, 'campaign.milestone of A', (e) => e.event === 'campaign.milestone' && e.campaign_id === a.campaignId);
    expect(r.path).to.equal(a.path);
    const e = expectSignedWith(r, await secretOf(a));
    expectMembers(e, ['milestone', 'stats']);
    expect(e.data.milestone).to.equal('100_emails');
    const counts = expectCounts(e.data.stats, ['emails_sent', 'delivered', 'opened', 'replied'], 'stats');
    expect(counts).to.deep.equal({ emails_sent: stats.emails_sent, delivered: stats.delivered, opened: stats.opened, replied: stats.replied });
    expect(counts).to.include({ emails_sent: 3, replied: 1 });
  });

  it('campaign.completed: {reason trial_ended, final_stats {..., meetings_booked}, total_cost_usd}, with the campaign\'s figures', async () => {
    const a = accounts.a;
    const report = (await api.get<{ stats: Record<string, number>; costs: { total_byok_usd: number } }>(a.apiKey, `/campaigns/${a.campaignId}/stats`)).body;
    const at = new Date().toISOString();
    await activities().recordCampaignTransition({
      campaignId: a.campaignId,
      accountId: a.accountId,
      status: 'completed',
      reason: 'trial_ended',
      at,
      events: [{ event: 'campaign.completed', data: { reason: 'trial_ended' }, fill: 'final_stats' }],
    });
    const r = await arrival(receiver, 'campaign.completed of A', (e) => e.event === 'campaign.completed' && e.campaign_id === a.campaignId);
    expect(r.path).to.equal(a.path);
    const e = expectSignedWith(r, await secretOf(a));
    expect(e.created_at, 'created_at is the instant of the transition').to.equal(at);
    expectMembers(e, ['reason', 'final_stats', 'total_cost_usd']);
    expect(e.data.reason).to.equal('trial_ended');
    const s = report.stats;
    const counts = expectCounts(e.data.final_stats, ['emails_sent', 'delivered', 'opened', 'replied', 'meetings_booked'], 'final_stats');
    expect(counts).to.deep.equal({ emails_sent: s.emails_sent, delivered: s.delivered, opened: s.opened, replied: s.replied, meetings_booked: s.meetings_booked });
    expect(counts).to.include({ emails_sent: 3, replied: 1, meetings_booked: 1 });
    expect(e.data.total_cost_usd).to.be.a('number').and.equal(report.costs.total_byok_usd);
    expect(e.data.total_cost_usd).to.be.greaterThan(0);
  });

  it('all nine kinds of the spec arrived, each event once, with unique ids, for the right campaign and nothing else', async () => {
    // Anything still on its way would have been posted by now: the dispatcher wakes on every commit.
    await new Promise((r) => setTimeout(r, 2_000));
    const kinds = (x: Account) => eventsOf(x).map((r) => envelopeOf(r).event).sort();
    expect(kinds(accounts.a)).to.deep.equal(['campaign.completed', 'campaign.milestone', 'campaign.paused', 'campaign.started', 'meeting.booked', 'reply.received']);
    expect(kinds(accounts.b)).to.deep.equal(['budget.warning', 'campaign.budget_exceeded', 'campaign.budget_warning', 'campaign.paused', 'campaign.started']);
    expect(kinds(accounts.c)).to.deep.equal(['budget.warning', 'campaign.budget_warning', 'campaign.started']);
    const all = receiver.events();
    expect(all, 'every request belongs to one of the three campaigns').to.have.length(6 + 5 + 3);
    expect(new Set(all.map((e) => e.id)).size, 'event ids are unique').to.equal(all.length);
    // The spec's nine; campaign.variant_winner (a variant test decided) has its own test (test/workflows/campaign-written-sequence.test.ts).
    expect(new Set(all.map((e) => e.event))).to.deep.equal(new Set(WEBHOOK_EVENT_KINDS.filter((k) => k !== 'campaign.variant_winner')));
    for (const x of [accounts.a, accounts.b, accounts.c]) for (const r of eventsOf(x)) expect(r.path, `${envelopeOf(r).event} of ${x.campaignId}`).to.equal(x.path);
    const secrets = await Promise.all([accounts.a, accounts.b, accounts.c].map(secretOf));
    expect(new Set(secrets).size, 'each account signs with its own secret').to.equal(3);
  });
});

import { expect } from 'chai';
import { parse as parseCsv } from 'csv-parse/sync';
import fs from 'node:fs/promises';
import { ensureTemporalCli } from '../../src/temporal/binaries';
import { request, surfaceA, surfaceB } from '../support/api';
import { pages, startFakeSite, type FakeSite } from '../support/fake-site';
import { TestSmtpSink } from '../support/smtp-sink';
import { runCli, startStack, stackEnv, stopStack, type RunningStack, type StackEnv } from '../support/stack';

const INBOUND_SECRET = 'e2e-inbound-secret-0123456789';
const HOME = '<html><head><title>Northwind Analytics</title><meta name="description" content="Revenue dashboards for finance teams"></head><body><h1>Northwind Analytics</h1></body></html>';

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 90_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe().catch(() => undefined);
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/**
 * One campaign's journey on the real stack as `npm start` runs it (embedded PostgreSQL, Temporal
 * dev server, worker, API), sending into a local SMTP server: leads imported from CSV, emails
 * sent, then an open, a click and a MIME reply fed back through the public endpoints, seen in
 * stats, daily stats, replies and the export; and a pause that stops sending at once.
 */
describe('a campaign end to end on the real stack', function () {
  this.timeout(10 * 60_000);
  let s: StackEnv;
  let stack: RunningStack | undefined;
  let sink: TestSmtpSink;
  let site: FakeSite;
  let apiKey = '';

  before(async () => {
    await ensureTemporalCli();
    [sink, site] = await Promise.all([TestSmtpSink.start(), startFakeSite(pages({ '/': [200, { 'content-type': 'text/html' }, HOME] }))]);
    s = await stackEnv();
    Object.assign(s.env, { SMTP_URL: sink.url, ALLOW_LOOPBACK_EGRESS: 'true', INBOUND_SECRET });
    stack = await startStack(s);
    const out = await runCli(s, ['accounts', 'create', '--name', 'Journey Ltd', '--plan', 'pro']);
    expect(out.code, out.stderr).to.equal(0);
    apiKey = (JSON.parse(out.stdout) as { api_key: string }).api_key;
  });
  after(async () => {
    if (stack) await stopStack(stack).catch(() => stack?.child.kill('SIGKILL'));
    await sink?.close();
    await site?.close();
    if (s) await fs.rm(s.dataDir, { recursive: true, force: true });
  });

  const api = (path: string, init: RequestInit = {}) => request<Record<string, unknown>>(`${s.baseUrl}${path}`, { ...init, headers: { ...surfaceA(apiKey), ...(init.headers as Record<string, string> | undefined) } });
  const postJson = (path: string, body: unknown) => api(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  /** Tracking links are built on PUBLIC_BASE_URL (localhost); the test reaches the same port on 127.0.0.1. */
  const local = (url: string): string => url.replace(/^https?:\/\/[^/]+/, s.baseUrl);

  async function importLeads(domain: string, count: number): Promise<void> {
    const rows = Array.from({ length: count }, (_, i) => `lead${i}@${domain},Ada${i},Lovelace,Head of Finance,Company ${i}`);
    const res = await request(`${s.baseUrl}/v1/leads/import`, { method: 'POST', headers: { ...surfaceB(apiKey), 'content-type': 'text/csv' }, body: ['email,first_name,last_name,title,company', ...rows].join('\n') });
    expect(res.status, res.text).to.equal(200);
  }
  const sentTo = (domain: string) => sink.messages.filter((m) => m.to.some((a) => a.endsWith(`@${domain}`)));

  let campaignId = '';

  it('sends the first emails of a campaign to the imported leads', async () => {
    await importLeads('journey.example', 5);
    const created = await postJson('/campaigns', { mcp: 'sales_outreach', target_url: site.origin, target_audience: 'Finance leaders', calendar_link: 'https://cal.example/northwind/intro', schedule: { trial_days: 14, send_window: { start: '00:00', end: '24:00' } } });
    expect(created.status, created.text).to.equal(201);
    campaignId = created.body.id as string;
    await until('5 emails in the SMTP server', async () => (sentTo('journey.example').length === 5 ? true : undefined));
    const got = await until('running', async () => {
      const r = await api(`/campaigns/${campaignId}`);
      return r.body.status === 'running' ? r.body : undefined;
    });
    expect(got).to.deep.include({ id: campaignId, mcp: 'sales_outreach' });
  });

  it('an open, a click and a MIME reply show in stats, daily stats, replies and the export', async () => {
    const [first] = sentTo('journey.example');
    const parsed = await sink.parse(first as (typeof sink.messages)[number]);
    const html = String(parsed.html);
    // The open beacon: the background image of the unsubscribe line (no <img>, see tracked-html.ts).
    const pixel = /background-image:url\(([^)]*\/t\/o\/[^)]+)\)/.exec(html)?.[1];
    const click = /href="([^"]*\/t\/c\/[^"]+)"/.exec(html)?.[1];
    expect(pixel, 'open beacon in the HTML').to.be.a('string');
    expect(click, 'tracked link in the HTML').to.be.a('string');
    expect((await fetch(local((pixel as string).replace(/&amp;/g, '&')))).status).to.equal(200);
    const redirect = await fetch(local((click as string).replace(/&amp;/g, '&')), { redirect: 'manual' });
    expect(redirect.status).to.equal(302);

    const lead = (first as (typeof sink.messages)[number]).to[0] as string;
    const mime = [
      `From: Ada Lovelace <${lead}>`,
      'To: outreach@localhost',
      `Subject: Re: ${parsed.subject ?? ''}`,
      `In-Reply-To: ${parsed.messageId ?? ''}`,
      `References: ${parsed.messageId ?? ''}`,
      `Message-ID: <reply-${Date.now()}@journey.example>`,
      `Date: ${new Date().toUTCString()}`,
      'Content-Type: text/plain; charset=utf-8',
      '',
      'Sounds interesting, can we talk on Thursday afternoon?',
      '',
    ].join('\r\n');
    const inbound = await request(`${s.baseUrl}/inbound/mime`, { method: 'POST', headers: { 'X-Inbound-Secret': INBOUND_SECRET, 'content-type': 'message/rfc822' }, body: mime });
    expect(inbound.status, inbound.text).to.be.oneOf([200, 201, 202]);

    const stats = await until('stats with the open, click and reply', async () => {
      const r = await api(`/campaigns/${campaignId}/stats`);
      const st = r.body.stats as Record<string, number> | undefined;
      return st !== undefined && st.opened === 1 && st.clicked === 1 && st.replied === 1 ? r.body : undefined;
    });
    expect(stats.stats).to.deep.include({ emails_sent: 5, delivered: 5, bounced: 0, opened: 1, clicked: 1, replied: 1 });
    const rates = stats.rates as Record<string, number>;
    expect(rates.delivery_rate).to.equal(1);
    expect(rates.open_rate).to.be.closeTo(0.2, 1e-9);
    expect(rates.reply_rate).to.be.closeTo(0.2, 1e-9);
    expect((stats.costs as { breakdown: Record<string, number> }).breakdown.email_sending).to.be.greaterThan(0);

    const today = new Date().toISOString().slice(0, 10);
    const daily = await api(`/campaigns/${campaignId}/stats/daily?start=${today}&end=${today}`);
    expect(daily.body.daily).to.deep.equal([{ date: today, emails_sent: 5, opened: 1, replied: 1, cost_usd: (daily.body.daily as Array<{ cost_usd: number }>)[0]?.cost_usd }]);
    expect((daily.body.daily as Array<{ cost_usd: number }>)[0]?.cost_usd).to.be.greaterThan(0);

    const replies = await api(`/campaigns/${campaignId}/replies`);
    const list = replies.body.replies as Array<{ email: string; sentiment: string; preview: string }>;
    expect(list).to.have.length(1);
    expect(list[0]).to.include({ email: lead, sentiment: 'positive' });
    expect(list[0]?.preview).to.match(/Thursday/);

    const exported = await fetch(`${s.baseUrl}/campaigns/${campaignId}/export?format=csv`, { headers: surfaceA(apiKey) });
    expect(exported.status).to.equal(200);
    expect(exported.headers.get('content-disposition')).to.match(/^attachment; filename=".+\.csv"/);
    const rows = parseCsv(await exported.text(), { columns: true }) as Array<Record<string, string>>;
    const events = rows.map((r) => r.event);
    expect(events.filter((e) => e === 'sent')).to.have.length(5);
    for (const e of ['opened', 'clicked', 'replied']) expect(events, e).to.include(e);
  });

  it('a pause stops sending at once, and the GET right after shows paused', async () => {
    await importLeads('pause.example', 25);
    const created = await postJson('/campaigns', { mcp: 'recruiting', target_url: site.origin, schedule: { send_window: { start: '00:00', end: '24:00' } } });
    const id = created.body.id as string;
    await until('the first email of the second campaign', async () => (sentTo('pause.example').length > 0 ? true : undefined));
    const paused = await api(`/campaigns/${id}/pause`, { method: 'POST' });
    expect(paused.status, paused.text).to.equal(200);
    const atPause = sentTo('pause.example').length;
    expect((await api(`/campaigns/${id}`)).body.status).to.equal('paused');
    await new Promise((r) => setTimeout(r, 3_000));
    expect(sentTo('pause.example').length).to.equal(atPause);
  });
});

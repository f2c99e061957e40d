import { expect } from 'chai';
import { QueryTypes } from 'sequelize';
import { AccountService } from '../../src/accounts/account-service';
import { createAccount, request, startTestApi, surfaceA, useTestApi } from '../support/api';
import { seedCampaign, seedOutcome } from '../support/campaign-seed';
import { signIn, type DashboardSession } from '../support/dashboard-session';

/**
 * The dashboard's campaign list and campaign page over plain HTTP, against the real API and
 * PostgreSQL: what a signed-in user sees, what another account or a signed-out browser gets, and
 * that the page's figures are the API's own. (Pause and resume from the page, which need the
 * workflow, are driven in a real browser on the embedded stack: test/e2e/dashboard-campaign.test.ts.)
 */
describe('dashboard: the campaign list and the campaign page (HTTP)', () => {
  const t = useTestApi();
  let key = '';
  let accountId = '';
  let other = '';
  let s: DashboardSession;
  let campaignId = '';

  before(async () => {
    ({ apiKey: key, accountId } = await createAccount(t.db.sequelize, 'free', 'Page Co'));
    const b = await createAccount(t.db.sequelize, 'free', 'Other Co');
    other = (await seedCampaign(b.accountId, { name: 'Not yours' })).id;
    const c = await seedCampaign(accountId, { name: '<script>alert("x")</script> Q4 push', targetAudience: 'CTOs in <b>Berlin</b>', audienceSource: 'parser', audienceFilters: { titles: ['CTO'], locations: ['Berlin'] }, audienceMatchedLeads: 3, reportingEmail: 'boss@page.example', reportingFrequency: 'daily' });
    campaignId = c.id;
    const day = (n: number) => new Date(Date.now() - n * 86_400_000);
    await seedOutcome(c, { at: day(2), opened: true, clicks: 1, replied: true });
    await seedOutcome(c, { at: day(2), opened: true });
    await seedOutcome(c, { at: day(1), hardBounce: true });
    await seedOutcome(c, { at: day(0), opened: true, meetings: 1 });
    for (let i = 0; i < 30; i++) await seedCampaign(accountId, { name: `Filler ${String(i).padStart(2, '0')}`, status: i % 3 === 0 ? 'paused' : 'running' });
    s = await signIn(t.api.baseUrl, key);
  });

  it('shows the campaign: its name escaped, status, figures equal to GET /campaigns/:id/stats, the chart and only the allowed controls', async () => {
    const page = await s.get(`/dashboard/campaigns/${campaignId}`);
    expect(page.status).to.equal(200);
    expect(page.headers.get('content-type')).to.match(/^text\/html/);
    expect(page.headers.get('content-security-policy')).to.include("script-src 'self'");
    expect(page.text).to.include('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; Q4 push');
    expect(page.text).to.not.include('<script>alert');
    expect(page.text).to.include('CTOs in &lt;b&gt;Berlin&lt;/b&gt;');

    const stats = await request<{ stats: Record<string, number> }>(`${t.api.baseUrl}/campaigns/${campaignId}/stats`, { headers: surfaceA(key) });
    expect(stats.status).to.equal(200);
    const figure = (label: string) => new RegExp(`<div class="muted">${label}</div><div class="value">([^<]*)</div>`).exec(page.text)?.[1];
    expect(figure('Sent')).to.equal(String(stats.body.stats.emails_sent));
    expect(figure('Delivered')).to.equal(String(stats.body.stats.delivered));
    expect(figure('Opened')).to.equal(String(stats.body.stats.opened));
    expect(figure('Clicked')).to.equal(String(stats.body.stats.clicked));
    expect(figure('Replied')).to.equal(String(stats.body.stats.replied));
    expect(figure('Meetings booked')).to.equal(String(stats.body.stats.meetings_booked));
    expect(figure('Sent')).to.equal('4');

    expect(page.text).to.match(/<figure class="chart" id="chart">\s*<svg/);
    expect(page.text).to.include('/pause"');
    expect(page.text).to.include('/stop"');
    expect(page.text).to.not.include('/resume"');
    expect(page.text).to.include('Next report:');
    expect(page.text).to.include(`/namespaces/default/workflows/campaign-${campaignId}`);
  });

  it('answers another account\'s campaign and an unknown id with a 404 page, not JSON or a trace', async () => {
    for (const id of [other, 'cmp_doesnotexist', '%3Cscript%3E']) {
      const page = await s.get(`/dashboard/campaigns/${id}`);
      expect(page.status, id).to.equal(404);
      expect(page.headers.get('content-type')).to.match(/^text\/html/);
      expect(page.text).to.include('<h1>Not found</h1>');
      expect(page.text).to.not.include('Not yours');
      expect(page.text).to.not.match(/at [A-Za-z]+ \(|\.ts:\d+/);
    }
    expect((await s.get(`/dashboard/campaigns/${other}/export?format=csv`)).status).to.equal(404);
  });

  it('refuses a change without the CSRF token (403) and changes nothing', async () => {
    for (const fields of [{}, { _csrf: 'forged' }]) {
      const answer = await s.post(`/dashboard/campaigns/${campaignId}/pause`, fields);
      expect(answer.status).to.equal(403);
      expect(answer.text).to.include('This form has expired or did not come from this dashboard');
    }
    const [row] = await t.db.sequelize.query<{ status: string }>('SELECT status FROM campaigns WHERE id = $1', { bind: [campaignId], type: QueryTypes.SELECT });
    expect(row!.status).to.equal('running');
  });

  it('lists the campaigns with a status filter, a search and pages', async () => {
    const first = await s.get('/dashboard/campaigns');
    expect(first.status).to.equal(200);
    expect(first.text).to.include('31 campaigns');
    expect(first.text).to.include('Page 1 of 2');
    expect(first.text).to.include('href="/dashboard/campaigns?page=2"');
    const second = await s.get('/dashboard/campaigns?page=2');
    expect((second.text.match(/<tr>/g) ?? []).length).to.equal(1 + 6);

    const paused = await s.get('/dashboard/campaigns?status=paused');
    expect(paused.text).to.include('10 campaigns match');
    expect(paused.text).to.not.include('Q4 push');

    const search = await s.get('/dashboard/campaigns?q=q4%20PUSH');
    expect(search.text).to.include('1 campaign match');
    expect(search.text).to.include(`href="/dashboard/campaigns/${campaignId}"`);
    // % is a character to find, not a wildcard.
    expect((await s.get('/dashboard/campaigns?q=%25')).text).to.include('0 campaigns match');

    const bad = await s.get('/dashboard/campaigns?status=sleeping');
    expect(bad.status).to.equal(400);
    expect(bad.text).to.include('status');
  });

  it('exports the campaign through the session, as the API does', async () => {
    const csv = await s.get(`/dashboard/campaigns/${campaignId}/export?format=csv`);
    expect(csv.status).to.equal(200);
    expect(csv.headers.get('content-disposition')).to.match(/^attachment; filename=".*\.csv"$/);
    const api = await fetch(`${t.api.baseUrl}/campaigns/${campaignId}/export?format=csv`, { headers: surfaceA(key) });
    expect(csv.text).to.equal(await api.text());
    expect(csv.text).to.include('@prospect.example');
  });

  it('sends a signed-out browser to sign in, and back to the page it asked for', async () => {
    const res = await fetch(`${t.api.baseUrl}/dashboard/campaigns/${campaignId}`, { redirect: 'manual' });
    expect(res.status).to.equal(303);
    expect(res.headers.get('location')).to.equal(`/dashboard?next=${encodeURIComponent(`/dashboard/campaigns/${campaignId}`)}`);
    const post = await fetch(`${t.api.baseUrl}/dashboard/campaigns/${campaignId}/pause`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '', redirect: 'manual' });
    expect(post.status).to.equal(403);
  });

  it('keeps the session in an httpOnly, SameSite=Lax cookie (Secure behind HTTPS), ends it on sign-out and after 30 idle minutes', async () => {
    const form = await fetch(`${t.api.baseUrl}/dashboard`, { redirect: 'manual' });
    const signInCookie = form.headers.getSetCookie()[0]!.split(';')[0]!;
    const token = /name="_csrf" value="([^"]+)"/.exec(await form.text())![1]!;
    const answer = await fetch(`${t.api.baseUrl}/dashboard/sign-in`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: signInCookie },
      body: new URLSearchParams({ _csrf: token, key, next: '/dashboard/campaigns' }).toString(),
    });
    expect(answer.status).to.equal(303);
    const set = answer.headers.getSetCookie().find((c) => c.startsWith('outreach_session='))!;
    expect(set).to.match(/; path=\/dashboard/i).and.match(/; httponly/i).and.match(/; samesite=lax/i);
    expect(set).to.not.match(/; secure/i);
    // The key is nowhere in what the browser gets back.
    expect(answer.headers.getSetCookie().join('\n')).to.not.include(key);

    const idle = await signIn(t.api.baseUrl, key);
    expect((await idle.get('/dashboard/campaigns')).status).to.equal(200);
    await t.db.sequelize.query("UPDATE dashboard_sessions SET last_seen_at = now() - interval '31 minutes'");
    expect((await idle.get('/dashboard/campaigns')).status).to.equal(303);
    expect((await s.get('/dashboard/campaigns')).status).to.equal(303);

    const fresh = await signIn(t.api.baseUrl, key);
    const out = await fresh.submit('/dashboard/sign-out', {}, '/dashboard/campaigns');
    expect(out.status).to.equal(303);
    expect(out.location).to.equal('/dashboard');
    const [{ n }] = (await t.db.sequelize.query<{ n: number }>('SELECT count(*)::int AS n FROM dashboard_sessions', { type: QueryTypes.SELECT })) as [{ n: number }];
    expect(n).to.equal(0);
    s = await signIn(t.api.baseUrl, key);
  });

  it('ends the sessions of a key revoked through the API, and only those', async () => {
    const second = await new AccountService(t.db.sequelize).issueKey(accountId, 'second');
    const other = await signIn(t.api.baseUrl, second.apiKey);
    expect((await other.get('/dashboard/campaigns')).status).to.equal(200);
    const revoked = await request(`${t.api.baseUrl}/v1/api-keys/${second.keyId}/revoke`, { method: 'POST', headers: { 'X-API-Key': key } });
    expect(revoked.status, revoked.text).to.equal(200);
    const after = await other.get('/dashboard/campaigns');
    expect(after.status).to.equal(303);
    expect(after.location).to.match(/^\/dashboard\?next=/);
    expect((await s.get('/dashboard/campaigns')).status).to.equal(200);
  });

  it('marks the session cookie Secure when the request came over HTTPS through a trusted proxy', async () => {
    const behindProxy = await startTestApi(t.db.sequelize, { env: { TRUST_PROXY: 'true' } });
    try {
      const https = { 'x-forwarded-proto': 'https' };
      const form = await fetch(`${behindProxy.baseUrl}/dashboard`, { redirect: 'manual', headers: https });
      const signInCookie = form.headers.getSetCookie()[0]!;
      expect(signInCookie).to.match(/; secure/i);
      const token = /name="_csrf" value="([^"]+)"/.exec(await form.text())![1]!;
      const answer = await fetch(`${behindProxy.baseUrl}/dashboard/sign-in`, {
        method: 'POST',
        redirect: 'manual',
        headers: { ...https, 'content-type': 'application/x-www-form-urlencoded', cookie: signInCookie.split(';')[0]! },
        body: new URLSearchParams({ _csrf: token, key }).toString(),
      });
      expect(answer.status).to.equal(303);
      expect(answer.headers.getSetCookie().find((c) => c.startsWith('outreach_session='))).to.match(/; secure/i).and.match(/; httponly/i);
    } finally {
      await behindProxy.close();
    }
  });

  it('refuses a sign-in without its form token, and a wrong key, saying why', async () => {
    const noToken = await fetch(`${t.api.baseUrl}/dashboard/sign-in`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ key }).toString(),
    });
    expect(noToken.status).to.equal(403);
    expect(noToken.headers.getSetCookie().some((c) => c.startsWith('outreach_session='))).to.equal(false);
    await expectRefused('ok_notakey', 'That is not an API key');
    await expectRefused(`ok_${'A'.repeat(12)}_${'b'.repeat(32)}`, 'No account has that API key');

    async function expectRefused(wrong: string, message: string) {
      const form = await fetch(`${t.api.baseUrl}/dashboard`, { redirect: 'manual' });
      const cookie = form.headers.getSetCookie()[0]!.split(';')[0]!;
      const csrf = /name="_csrf" value="([^"]+)"/.exec(await form.text())![1]!;
      const res = await fetch(`${t.api.baseUrl}/dashboard/sign-in`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
        body: new URLSearchParams({ _csrf: csrf, key: wrong }).toString(),
      });
      expect(res.status).to.equal(401);
      expect(await res.text()).to.include(message);
    }
  });
});

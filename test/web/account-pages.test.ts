import { expect } from 'chai';
import { AccountService } from '../../src/accounts/account-service';
import { campaignDeliveries } from '../../src/web/pages/account';
import { renderTemplate } from '../../src/web/render';
import { createAccount, request, surfaceA, surfaceB, useTestApi } from '../support/api';
import { seedCampaign, seedCost, seedOutcome } from '../support/campaign-seed';
import { signIn, type DashboardSession, type PageResponse } from '../support/dashboard-session';
import { WebhookReceiver } from '../support/webhook-receiver';
import { seedDelivery } from './support/seed-delivery';

/**
 * The dashboard's account pages over HTTP, against the real app and PostgreSQL: API keys, webhooks
 * and usage, signed in through the sign-in form like a browser without script. What is checked
 * is what a user sees (the page's text) and what the API then says.
 */

/** The page as a reader sees it: tags dropped, entities decoded, spaces collapsed. */
function visibleText(html: string): string {
  return html
    .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/g, ' ')
    // Inline elements run on with their neighbours; blocks and cells are apart.
    .replace(/<\/?(a|b|code|em|span|strong|time)\b[^>]*>/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The row of a table whose data attribute names `id`. */
function rowOf(html: string, attr: string, id: string): string {
  const start = html.indexOf(`${attr}="${id}"`);
  expect(start, `no row with ${attr}="${id}"`).to.be.greaterThan(-1);
  return html.slice(start, html.indexOf('</tr>', start));
}

function expectPage(res: PageResponse, status: number): void {
  expect(res.status, `${res.status} ${res.location ?? ''}\n${visibleText(res.text).slice(0, 400)}`).to.equal(status);
  if (status < 300 || status >= 400) expect(res.headers.get('content-type')).to.match(/^text\/html/);
}

const me = (baseUrl: string, key: string) => request(`${baseUrl}/v1/me`, { headers: surfaceB(key) });
const settingsOf = (baseUrl: string, key: string) =>
  request<{ url: string | null; secret: string; previousSecret: string | null }>(`${baseUrl}/v1/webhook-settings`, { headers: surfaceB(key) });
const deliveryOf = (baseUrl: string, key: string, id: string) =>
  request<{ status: string; cycle: number; error?: string }>(`${baseUrl}/v1/webhook-deliveries/${id}`, { headers: surfaceB(key) });

describe('dashboard account pages: API keys (HTTP)', () => {
  const t = useTestApi();
  let accountId = '';
  let key = '';
  let s: DashboardSession;

  before(async () => {
    ({ accountId, apiKey: key } = await createAccount(t.db.sequelize, 'free', 'Keys Co'));
    s = await signIn(t.api.baseUrl, key);
  });

  it('lists the keys with prefix, label, dates and status, the session\'s own key marked', async () => {
    const page = await s.get('/dashboard/keys');
    expectPage(page, 200);
    const prefix = key.split('_')[1]!;
    const row = visibleText(rowOf(page.text, 'data-key-id', (await new AccountService(t.db.sequelize).listKeys(accountId))[0]!.keyId));
    expect(row).to.include(`ok_${prefix}_…`).and.include('(this session)').and.include('active');
    // Used to sign in: the last use is recorded.
    expect(row).to.match(/\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/);
    expect(page.text).to.include('Revoke and sign out');
    expect(page.text).to.not.include(key);
  });

  it('creates a key shown once on the answer (no-store), usable on the API, then only its prefix', async () => {
    const answer = await s.submit('/dashboard/keys', { label: 'CI <b>deploy</b>' }, '/dashboard/keys');
    expectPage(answer, 200);
    expect(answer.headers.get('cache-control')).to.equal('no-store');
    const shown = /<code class="secret" id="new-key">(ok_[A-Za-z0-9]{12}_[A-Za-z0-9]{32})<\/code>/.exec(answer.text)?.[1];
    expect(shown, visibleText(answer.text)).to.be.a('string');
    expect(visibleText(answer.text)).to.include('Copy it now: it is shown this once.');
    // The label is text, never markup.
    expect(answer.text).to.include('CI &lt;b&gt;deploy&lt;/b&gt;').and.not.include('<b>deploy</b>');

    const viaApi = await me(t.api.baseUrl, shown!);
    expect(viaApi.status).to.equal(200);
    expect((viaApi.body as { account: { id: string } }).account.id).to.equal(accountId);

    const later = await s.get('/dashboard/keys');
    expect(later.text).to.not.include(shown!);
    expect(visibleText(later.text)).to.include(`ok_${shown!.split('_')[1]}_…`).and.include('CI <b>deploy</b>');
  });

  it('revokes a key: the API refuses it at once and the page says revoked', async () => {
    const extra = await new AccountService(t.db.sequelize).issueKey(accountId, 'to revoke');
    expect((await me(t.api.baseUrl, extra.apiKey)).status).to.equal(200);
    const answer = await s.submit(`/dashboard/keys/${extra.keyId}/revoke`, {}, '/dashboard/keys');
    expectPage(answer, 303);
    expect(answer.location).to.equal('/dashboard/keys?notice=revoked');
    expect((await me(t.api.baseUrl, extra.apiKey)).status).to.equal(401);
    const page = await s.get(answer.location!);
    expect(visibleText(page.text)).to.include('The key was revoked: requests with it are refused from now on.');
    const row = visibleText(rowOf(page.text, 'data-key-id', extra.keyId));
    expect(row).to.include('revoked').and.not.include('Revoke');
  });

  it('shows only known notices: an unknown code shows nothing of the address', async () => {
    const page = await s.get('/dashboard/keys?notice=%3Cscript%3Ealert(1)%3C%2Fscript%3E');
    expectPage(page, 200);
    expect(page.text).to.not.include('alert(1)');
    expect(page.text).to.not.include('class="notice"');
  });

  it("another account's key or an unknown id is a 404 page, and that key stays active", async () => {
    const other = await createAccount(t.db.sequelize, 'free', 'Other Co');
    for (const id of [other.keyId, 'key_unknown']) {
      const answer = await s.submit(`/dashboard/keys/${id}/revoke`, {}, '/dashboard/keys');
      expectPage(answer, 404);
      expect(visibleText(answer.text)).to.include('API key not found');
    }
    expect((await me(t.api.baseUrl, other.apiKey)).status).to.equal(200);
  });

  it('revoking the key of the session signs out: the session ends, and the page says so before', async () => {
    const own = await new AccountService(t.db.sequelize).issueKey(accountId, 'own');
    const session = await signIn(t.api.baseUrl, own.apiKey);
    const page = await session.get('/dashboard/keys');
    const row = rowOf(page.text, 'data-key-id', own.keyId);
    expect(row).to.include('You will be signed out at once');
    const oldCookie = session.cookie;
    const answer = await session.submit(`/dashboard/keys/${own.keyId}/revoke`, {}, '/dashboard/keys');
    expectPage(answer, 303);
    expect(answer.location).to.equal('/dashboard');
    expect(session.cookie).to.equal('');
    // The old cookie is dead too, not merely forgotten by this client.
    const stale = await fetch(`${t.api.baseUrl}/dashboard/keys`, { headers: { cookie: oldCookie }, redirect: 'manual' });
    expect(stale.status).to.equal(303);
    expect(stale.headers.get('location')).to.match(/^\/dashboard\?next=/);
    const again = await session.get('/dashboard/keys');
    expectPage(again, 303);
    expect(again.location).to.equal('/dashboard?next=%2Fdashboard%2Fkeys');
    expect((await me(t.api.baseUrl, own.apiKey)).status).to.equal(401);
    // The other session (another key) goes on.
    expectPage(await s.get('/dashboard/keys'), 200);
  });

  it('refuses a change without the CSRF token (403 page) and changes nothing', async () => {
    const before = await new AccountService(t.db.sequelize).listKeys(accountId);
    const victim = before.find((k) => k.revokedAt === null && k.keyId !== before[0]!.keyId) ?? before[0]!;
    for (const fields of [{}, { _csrf: 'x'.repeat(43) }]) {
      const create = await s.post('/dashboard/keys', { ...fields, label: 'forged' });
      expectPage(create, 403);
      expect(visibleText(create.text)).to.include('This form has expired or did not come from this dashboard');
      expectPage(await s.post(`/dashboard/keys/${victim.keyId}/revoke`, fields), 403);
    }
    const after = await new AccountService(t.db.sequelize).listKeys(accountId);
    expect(after).to.deep.equal(before);
    // Signed out (no cookie at all): 403 as well.
    const anonymous = await fetch(`${t.api.baseUrl}/dashboard/keys`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'label=x', redirect: 'manual' });
    expect(anonymous.status).to.equal(403);
  });
});

describe('dashboard account pages: webhooks (HTTP)', () => {
  const t = useTestApi();
  let accountId = '';
  let key = '';
  let other: { accountId: string; apiKey: string };
  let s: DashboardSession;
  let receiver: WebhookReceiver;
  const page = () => s.get('/dashboard/webhooks');

  before(async () => {
    ({ accountId, apiKey: key } = await createAccount(t.db.sequelize, 'free', 'Hooks Co'));
    other = await createAccount(t.db.sequelize, 'free', 'Other Co');
    s = await signIn(t.api.baseUrl, key);
    receiver = await WebhookReceiver.start();
  });
  after(async () => receiver?.close());

  it('refuses a URL the API refuses, with the reason on the page and the URL kept in the form; nothing stored', async () => {
    const cases: Array<[string, string]> = [
      ['https://10.0.0.7/hooks', 'The URL must point to a public address'],
      ['https://169.254.169.254/latest', 'The URL must point to a public address'],
      ['http://example.com/hooks', 'The URL must be an https URL.'],
      ['https://user:pw@example.com/', 'The URL must not carry credentials.'],
      ['not a url', 'The URL must be an absolute https URL.'],
      ['', 'The URL is empty'],
    ];
    for (const [url, message] of cases) {
      const answer = await s.submit('/dashboard/webhooks/url', { url }, '/dashboard/webhooks');
      expectPage(answer, 400);
      const error = /<p class="error" id="url-error" role="alert">([^<]*)<\/p>/.exec(answer.text)?.[1];
      expect(visibleText(error ?? ''), url).to.include(message);
      expect(answer.text).to.include(`aria-invalid="true"`);
      if (url !== '') expect(answer.text).to.include(`value="${url.replace(/&/g, '&amp;')}"`);
    }
    expect((await settingsOf(t.api.baseUrl, key)).body.url).to.equal(null);
  });

  it('sets the global URL (normalised, as the API stores it) and clears it', async () => {
    const set = await s.submit('/dashboard/webhooks/url', { url: 'https://Hooks.Example.com/in' }, '/dashboard/webhooks');
    expectPage(set, 303);
    expect(set.location).to.equal('/dashboard/webhooks?notice=url-saved');
    expect((await settingsOf(t.api.baseUrl, key)).body.url).to.equal('https://hooks.example.com/in');
    const shown = await s.get(set.location!);
    expect(visibleText(shown.text)).to.include('The global URL was saved').and.include('Events of every campaign go to https://hooks.example.com/in');
    expect(shown.text).to.include('Clear URL');

    const cleared = await s.submit('/dashboard/webhooks/url/clear', {}, '/dashboard/webhooks');
    expectPage(cleared, 303);
    expect(cleared.location).to.equal('/dashboard/webhooks?notice=url-cleared');
    expect((await settingsOf(t.api.baseUrl, key)).body.url).to.equal(null);
    expect(visibleText((await s.get(cleared.location!)).text)).to.include('No global URL is set');
  });

  it('hides the secret until "Reveal", whose answer shows it (no-store); rotation keeps the previous one for 24 hours', async () => {
    const { secret } = (await settingsOf(t.api.baseUrl, key)).body;
    const hidden = await page();
    expect(hidden.text).to.not.include(secret);
    expect(visibleText(hidden.text)).to.include('whsec_•••••••••••• (hidden)');

    const revealed = await s.submit('/dashboard/webhooks/reveal', {}, '/dashboard/webhooks');
    expectPage(revealed, 200);
    expect(revealed.headers.get('cache-control')).to.equal('no-store');
    expect(revealed.text).to.include(`<code class="secret" id="webhook-secret">${secret}</code>`);
    expect(revealed.text).to.include('data-copy="webhook-secret"');

    const rotated = await s.submit('/dashboard/webhooks/rotate', {}, '/dashboard/webhooks');
    expectPage(rotated, 303);
    expect(rotated.location).to.equal('/dashboard/webhooks?notice=rotated');
    const after = (await settingsOf(t.api.baseUrl, key)).body;
    expect(after.secret).to.not.equal(secret);
    expect(after.previousSecret).to.equal(secret);
    const notice = await s.get(rotated.location!);
    expect(visibleText(notice.text)).to.include('The signing secret was rotated').and.include('Last rotated');
    expect(notice.text).to.not.include(after.secret);
    const again = await s.submit('/dashboard/webhooks/reveal', {}, '/dashboard/webhooks');
    expect(again.text).to.include(`id="webhook-secret">${after.secret}<`).and.include(`id="previous-secret">${secret}<`);
    expect(visibleText(again.text)).to.match(/Previous secret, still signing until \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/);
  });

  it('sends a test event and shows how the endpoint answered; the log lists it, not resendable', async () => {
    const noUrl = await s.submit('/dashboard/webhooks/test', { url: '' }, '/dashboard/webhooks');
    expectPage(noUrl, 400);
    expect(visibleText(noUrl.text)).to.include('There is no global URL to send the test event to');
    const badUrl = await s.submit('/dashboard/webhooks/test', { url: 'https://192.168.1.1/x' }, '/dashboard/webhooks');
    expectPage(badUrl, 400);
    expect(visibleText(badUrl.text)).to.include('The url must point to a public address');
    expect(receiver.received).to.have.length(0);

    // The receiver is on loopback: the tests run the service with ALLOW_LOOPBACK_EGRESS, as the API's tests do.
    expectPage(await s.submit('/dashboard/webhooks/url', { url: receiver.url('/ok') }, '/dashboard/webhooks'), 303);
    const ok = await s.submit('/dashboard/webhooks/test', { url: '' }, '/dashboard/webhooks');
    expectPage(ok, 200);
    const outcome = visibleText(/<div class="test-outcome[\s\S]*?<\/div>/.exec(ok.text)?.[0] ?? '');
    expect(outcome).to.match(new RegExp(`^Delivered to ${receiver.url('/ok').replace(/[.?]/g, '\\$&')}: HTTP 200 in \\d+ ms\\.`));
    expect(receiver.received).to.have.length(1);
    const sent = receiver.events()[0]!;
    expect(sent.event).to.equal('webhook.test');
    // The log on the same answer has it, with its one attempt; a test event offers no resend.
    const deliveryId = /It is in the delivery log below \(<code>(whd_[0-9a-f]+)<\/code>\)/.exec(ok.text)?.[1];
    const row = rowOf(ok.text, 'data-delivery-id', deliveryId!);
    expect(visibleText(row)).to.include('webhook.test').and.include('delivered').and.include('1 attempt, last HTTP 200');
    expect(row).to.not.include('Resend');

    receiver.answer = () => 500;
    const failed = await s.submit('/dashboard/webhooks/test', { url: receiver.url('/broken') }, '/dashboard/webhooks');
    expectPage(failed, 200);
    expect(visibleText(/<div class="test-outcome[\s\S]*?<\/div>/.exec(failed.text)?.[0] ?? '')).to.match(/^Not delivered to .*\/broken: HTTP 500 in \d+ ms — HTTP 500\./);
    receiver.answer = () => 200;
  });

  it('shows the delivery log newest first with attempts, next retry and pages; resends a failed delivery', async () => {
    const campaign = await seedCampaign(accountId, { name: 'Log campaign' });
    const t0 = Date.parse('2026-10-01T08:00:00Z');
    const failed = await seedDelivery(t.db.sequelize, { accountId, campaignId: campaign.id, event: 'reply.received', url: 'https://a.example/hooks', status: 'failed', attempts: 6, createdAt: new Date(t0) });
    const retrying = await seedDelivery(t.db.sequelize, { accountId, campaignId: campaign.id, event: 'campaign.paused', url: 'https://a.example/hooks', status: 'retrying', attempts: 2, createdAt: new Date(t0 + 60_000) });
    const log = await page();
    const failedRow = visibleText(rowOf(log.text, 'data-delivery-id', failed));
    expect(failedRow).to.include('reply.received').and.include('https://a.example/hooks').and.include('failed').and.include('6 attempts, last HTTP 500');
    expect(failedRow).to.include('2026-10-01 08:01 UTC: HTTP 500 in 12 ms — HTTP 500').and.include(campaign.id);
    // A failed delivery waits for its URL to come back.
    expect(failedRow).to.include('failed Sent again, oldest first, when this URL next answers 2xx');
    const retryRow = visibleText(rowOf(log.text, 'data-delivery-id', retrying));
    expect(retryRow).to.include('retrying').and.include('2026-10-01 08:33 UTC').and.not.include('Resend').and.not.include('Sent again');
    // Newest first: the test events of the previous test come before the seeded (older) ones.
    expect(log.text.indexOf(retrying)).to.be.lessThan(log.text.indexOf(failed));

    const answer = await s.submit(`/dashboard/webhooks/deliveries/${failed}/resend`, { returnTo: '/dashboard/webhooks?status=failed' }, '/dashboard/webhooks');
    expectPage(answer, 303);
    expect(answer.location).to.equal('/dashboard/webhooks?status=failed&notice=resent');
    const api = await deliveryOf(t.api.baseUrl, key, failed);
    expect(api.body).to.include({ status: 'pending', cycle: 2 });
    const after = await s.get(answer.location!);
    expect(visibleText(after.text)).to.include('The delivery was resent');
    // Filtered to failed: the resent (now pending) delivery has left this view.
    expect(after.text).to.not.include(`data-delivery-id="${failed}"`);

    // Pending now: resend again says it is under way, and changes nothing.
    const twice = await s.submit(`/dashboard/webhooks/deliveries/${failed}/resend`, {}, '/dashboard/webhooks');
    expect(twice.location).to.equal('/dashboard/webhooks?notice=resend-in-flight');
    expect((await deliveryOf(t.api.baseUrl, key, failed)).body.cycle).to.equal(2);
    // A return address off the dashboard is not followed.
    const offsite = await s.submit(`/dashboard/webhooks/deliveries/${failed}/resend`, { returnTo: 'https://evil.example/' }, '/dashboard/webhooks');
    expect(offsite.location).to.equal('/dashboard/webhooks?notice=resend-in-flight');
  });

  it('"Failed, oldest first" lists what waits for its URL in the order it is sent again', async () => {
    const t0 = Date.parse('2026-06-01T08:00:00Z');
    const at = (minutes: number) => new Date(t0 + minutes * 60_000);
    // Seeded out of order: the listing sorts by the event's time.
    const later = await seedDelivery(t.db.sequelize, { accountId, campaignId: null, event: 'reply.received', url: 'https://w.example/in', status: 'failed', attempts: 6, createdAt: at(10) });
    const earliest = await seedDelivery(t.db.sequelize, { accountId, campaignId: null, event: 'reply.received', url: 'https://w.example/in', status: 'failed', attempts: 6, createdAt: at(0) });
    const delivered = await seedDelivery(t.db.sequelize, { accountId, campaignId: null, event: 'reply.received', url: 'https://w.example/in', status: 'delivered', attempts: 1, createdAt: at(5) });

    const log = await page();
    const link = /<a href="([^"]*)">Failed, oldest first<\/a>/.exec(log.text)?.[1];
    expect(link).to.equal('/dashboard/webhooks?status=failed&amp;order=oldest');
    const failedOldest = await s.get('/dashboard/webhooks?status=failed&order=oldest');
    expectPage(failedOldest, 200);
    const text = visibleText(failedOldest.text);
    expect(text).to.match(/\d+ deliver(y|ies), oldest event first\./);
    expect(failedOldest.text).to.include('<option value="failed" selected>').and.include('<option value="oldest" selected>');
    expect(failedOldest.text).to.not.include(`data-delivery-id="${delivered}"`);
    expect(failedOldest.text.indexOf(earliest)).to.be.greaterThan(-1).and.lessThan(failedOldest.text.indexOf(later));
    expect(visibleText(rowOf(failedOldest.text, 'data-delivery-id', earliest))).to.include('Sent again, oldest first, when this URL next answers 2xx');
    // Newest first (the default) has them the other way round.
    expect(log.text.indexOf(later)).to.be.greaterThan(-1).and.lessThan(log.text.indexOf(earliest));
    expectPage(await s.get('/dashboard/webhooks?order=sideways'), 400);
  });

  it('pages the log 20 at a time', async () => {
    const total = Number(/(\d+) deliveries, newest first/.exec(visibleText((await page()).text))?.[1]);
    for (let i = 0; i < 21; i++) {
      await seedDelivery(t.db.sequelize, { accountId, campaignId: null, event: 'campaign.started', url: 'https://p.example/', status: 'delivered', attempts: 1, createdAt: new Date(Date.parse('2026-09-01T00:00:00Z') + i * 1000) });
    }
    const first = await page();
    const count = (html: string) => (html.match(/data-delivery-id=/g) ?? []).length;
    expect(count(first.text)).to.equal(20);
    const pages = Math.ceil((total + 21) / 20);
    expect(visibleText(first.text)).to.include(`Page 1 of ${pages}`).and.include('Older');
    const last = await s.get(`/dashboard/webhooks?page=${pages}`);
    expect(count(last.text)).to.equal(total + 21 - 20 * (pages - 1));
    expect(visibleText(last.text)).to.include('Newer');
    expectPage(await s.get('/dashboard/webhooks?page=0'), 400);
  });

  it("another account's delivery is a 404 page, and it is left as it was", async () => {
    const foreign = await seedDelivery(t.db.sequelize, { accountId: other.accountId, campaignId: null, event: 'campaign.started', url: 'https://o.example/', status: 'failed', attempts: 1, createdAt: new Date() });
    const answer = await s.submit(`/dashboard/webhooks/deliveries/${foreign}/resend`, {}, '/dashboard/webhooks');
    expectPage(answer, 404);
    expect(visibleText(answer.text)).to.include('Webhook delivery not found');
    expect((await deliveryOf(t.api.baseUrl, other.apiKey, foreign)).body).to.include({ status: 'failed', cycle: 1 });
    expect((await page()).text).to.not.include(foreign);
  });

  it('refuses every webhook change without the CSRF token (403) and changes nothing', async () => {
    const before = (await settingsOf(t.api.baseUrl, key)).body;
    const received = receiver.received.length;
    const delivered = await seedDelivery(t.db.sequelize, { accountId, campaignId: null, event: 'campaign.started', url: 'https://c.example/', status: 'delivered', attempts: 1, createdAt: new Date() });
    const posts: Array<[string, Record<string, string>]> = [
      ['/dashboard/webhooks/url', { url: 'https://forged.example/' }],
      ['/dashboard/webhooks/url/clear', {}],
      ['/dashboard/webhooks/rotate', {}],
      ['/dashboard/webhooks/reveal', {}],
      ['/dashboard/webhooks/test', {}],
      [`/dashboard/webhooks/deliveries/${delivered}/resend`, {}],
    ];
    for (const [path, fields] of posts) {
      const answer = await s.post(path, fields);
      expectPage(answer, 403);
      expect(answer.text, path).to.not.include(before.secret);
    }
    expect((await settingsOf(t.api.baseUrl, key)).body).to.deep.equal(before);
    expect(receiver.received.length).to.equal(received);
    expect((await deliveryOf(t.api.baseUrl, key, delivered)).body).to.include({ status: 'delivered', cycle: 1 });
  });

  it("lists one campaign's deliveries for the campaign page (campaignDeliveries and its partial)", async () => {
    const mine = await seedCampaign(accountId, { name: 'Mine' });
    const theirs = await seedCampaign(other.accountId, { name: 'Theirs' });
    const t0 = Date.parse('2026-08-01T00:00:00Z');
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      ids.push(await seedDelivery(t.db.sequelize, { accountId, campaignId: mine.id, event: 'campaign.milestone', url: 'https://m.example/', status: 'failed', attempts: 1, createdAt: new Date(t0 + i * 1000) }));
    }
    await seedDelivery(t.db.sequelize, { accountId: other.accountId, campaignId: theirs.id, event: 'campaign.started', url: 'https://t.example/', status: 'failed', attempts: 1, createdAt: new Date(t0) });

    const latest = await campaignDeliveries(t.db.sequelize, accountId, mine.id, 2);
    expect(latest.total).to.equal(3);
    expect(latest.deliveries.map((d) => d.id)).to.deep.equal([ids[2], ids[1]]);
    expect(latest.deliveries[0]!.attempts).to.have.length(1);
    // Another account's campaign: nothing, whoever asks with this account.
    expect((await campaignDeliveries(t.db.sequelize, accountId, theirs.id, 10)).total).to.equal(0);

    const returnTo = `/dashboard/campaigns/${mine.id}`;
    const html = renderTemplate('account/deliveries-table', { deliveries: latest.deliveries, session: { csrfToken: 'tok' }, returnTo });
    expect(html).to.include(`action="/dashboard/webhooks/deliveries/${ids[2]}/resend"`).and.include(`name="returnTo" value="${returnTo}"`).and.include('value="tok"');
    // Its Resend comes back to the campaign page.
    const answer = await s.submit(`/dashboard/webhooks/deliveries/${ids[2]}/resend`, { returnTo }, '/dashboard/webhooks');
    expect(answer.location).to.equal(`${returnTo}?notice=resent`);
    // The webhooks page filtered to that campaign.
    const filtered = await s.get(`/dashboard/webhooks?campaign=${mine.id}`);
    expect((filtered.text.match(/data-delivery-id=/g) ?? []).length).to.equal(3);
    expect(visibleText(filtered.text)).to.include(`3 deliveries of campaign ${mine.id}`);
  });
});

describe('dashboard account pages: usage (HTTP)', () => {
  const t = useTestApi();

  it('shows the month against the plan with the figures of GET /usage and /v1/me, and a bar with a text equivalent', async () => {
    const { accountId, apiKey } = await createAccount(t.db.sequelize, 'free', 'Usage Co');
    const campaign = await seedCampaign(accountId);
    await seedCampaign(accountId);
    for (let i = 0; i < 3; i++) await seedOutcome(campaign);
    await seedCost(accountId, 1.25, { campaignId: campaign.id });
    await seedCost(accountId, 0.5, { category: 'ai_generation', campaignId: campaign.id });
    const s = await signIn(t.api.baseUrl, apiKey);

    const page = await s.get('/dashboard/usage');
    expectPage(page, 200);
    const usage = (await request<{ usage: { campaigns_created: number; emails_sent: number; emails_remaining: number; byok_cost_usd: number }; plan: { name: string; email_limit: number } }>(
      `${t.api.baseUrl}/usage`,
      { headers: surfaceA(apiKey) },
    )).body;
    const meBody = (await me(t.api.baseUrl, apiKey)).body as { organization: { plan: string; emailLimit: number } };
    expect(usage.usage).to.deep.equal({ campaigns_created: 2, emails_sent: 3, emails_remaining: 997, byok_cost_usd: 1.75 });
    expect(meBody.organization).to.include({ plan: 'free', emailLimit: 1000 });

    const text = visibleText(page.text);
    expect(text).to.include('Plan free ($0.00 a month): 1,000 emails per calendar month (UTC)');
    expect(text).to.include('3 of 1,000 emails sent (0.3%), 997 left.');
    expect(page.text).to.match(/<div class="bar " role="img" aria-label="Quota used: 3 of 1,000 emails, 0.3%"><span style="width: 0.3%"><\/span><\/div>/);
    expect(/id="campaigns-created">(\d+)</.exec(page.text)?.[1]).to.equal(String(usage.usage.campaigns_created));
    expect(/id="leads-stored">(\d+)</.exec(page.text)?.[1]).to.equal('3');
    expect(/id="cost-total">([^<]+)</.exec(page.text)?.[1]).to.equal('$1.75');
    expect(visibleText(/<tbody id="costs">[\s\S]*?<\/tbody>/.exec(page.text)?.[0] ?? '')).to.equal('Sending emails 1 $1.25 AI email writing 1 $0.50');

    const quiet = await s.get('/dashboard/usage?period=2020-02');
    expect(visibleText(quiet.text)).to.include('Emails in February 2020').and.include('0 of 1,000 emails sent (0%)').and.include('No costs recorded in February 2020');
    expectPage(await s.get('/dashboard/usage?period=2020-13'), 400);
  });

  it('signed out, every account page sends the browser to sign-in and back', async () => {
    for (const path of ['/dashboard/keys', '/dashboard/webhooks', '/dashboard/usage']) {
      const res = await fetch(`${t.api.baseUrl}${path}`, { redirect: 'manual' });
      expect(res.status).to.equal(303);
      expect(res.headers.get('location')).to.equal(`/dashboard?next=${encodeURIComponent(path)}`);
    }
  });
});

import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { createAccount, request, surfaceA, surfaceB } from '../support/api';
import { seedCampaign } from '../support/campaign-seed';
import { useCampaignStack } from '../support/campaign-stack';
import { eventually } from '../support/eventually';
import { pages, startFakeSite, type FakeSite } from '../support/fake-site';
import { launchChromium, screenshot, seriousViolations, signInWithKey } from './support/browser';

/**
 * The campaign page in a real browser (Debian's Chromium, headless) on the embedded stack: the API,
 * a Temporal dev server and the worker send a campaign's first emails into the SMTP sink, and the
 * page shows what the API says. Pause and resume go through the page's buttons to the workflow;
 * another account's campaign is a 404 page; a form without its CSRF token is refused; a campaign
 * named with a <script> shows the text and runs nothing; axe-core finds nothing serious.
 */

const HOME = '<html><head><title>Acme Analytics</title><meta name="description" content="Dashboards for finance teams"></head><body><h1>Acme Analytics</h1></body></html>';
const DOMAIN = 'page-pool.example';
const NAME = 'Q4 launch: CTOs in Germany';
/** A second campaign's name, written to run script if a page ever put it in as markup. */
const HOSTILE = '<script>window.__pwned = 1</script> Launch <img src=x onerror="window.__pwned=2">';


describe('dashboard: the campaign page in a real browser, on the embedded stack', function () {
  const t = useCampaignStack();
  let site: FakeSite;
  let browser: Browser;
  let page: Page;
  let key = '';
  let campaignId = '';
  let otherId = '';
  let hostileId = '';

  before(async () => {
    browser = await launchChromium();
    site = await startFakeSite(pages({ '/': [200, { 'content-type': 'text/html' }, HOME] }));
    let accountId: string;
    ({ apiKey: key, accountId } = await createAccount(t.db.sequelize, 'pro', 'Browser Co'));
    const other = await createAccount(t.db.sequelize, 'pro', 'Someone Else');
    otherId = (await seedCampaign(other.accountId, { name: 'Their campaign' })).id;
    hostileId = (await seedCampaign(accountId, { name: HOSTILE, targetAudience: '<b onmouseover="window.__pwned=3">CTOs</b>', audienceSource: 'parser' })).id;
    const csv = ['Email,First Name,Last Name,Job Title,Company,Country', `anna@${DOMAIN},Anna,Schmidt,CTO,Kraftwerk,Germany`, `ben@${DOMAIN},Ben,Weber,CTO,Daten,Germany`].join('\n');
    const imported = await request(`${t.api.baseUrl}/v1/leads/import`, { method: 'POST', headers: { ...surfaceB(key), 'content-type': 'text/csv' }, body: csv });
    expect(imported.status, imported.text).to.equal(200);
    const created = await request<{ id: string }>(`${t.api.baseUrl}/campaigns`, {
      method: 'POST',
      headers: { ...surfaceA(key), 'content-type': 'application/json' },
      body: JSON.stringify({
        name: NAME,
        mcp: 'sales_outreach',
        target_url: site.origin,
        target_audience: 'CTOs in Germany',
        schedule: { send_window: { start: '00:00', end: '24:00' } },
        reporting: { email: 'owner@browser.example', frequency: 'daily' },
      }),
    });
    expect(created.status, created.text).to.equal(201);
    campaignId = created.body.id;
    await eventually(async () => (t.sink.messages.filter((m) => m.to.some((a) => a.endsWith(`@${DOMAIN}`))).length >= 2 ? true : undefined));
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  });
  after(async () => {
    await browser?.close();
    await site?.close();
  });

  const apiStatus = async (): Promise<string> => (await request<{ status: string }>(`${t.api.baseUrl}/campaigns/${campaignId}`, { headers: surfaceA(key) })).body.status;

  it('signs in, lists the campaign and opens its page with the API\'s figures', async () => {
    await page.goto(`${t.api.baseUrl}/dashboard`);
    expect(await seriousViolations(page)).to.deep.equal([]);
    await screenshot(page, 'sign-in');
    await signInWithKey(page, t.api.baseUrl, key);
    // The key is nowhere the page's script could read it.
    expect(await page.evaluate<string>('JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }) + document.cookie')).to.not.include('ok_');

    const row = page.locator('#campaigns tr', { hasText: campaignId });
    await row.getByRole('link').click();
    await page.waitForURL(new RegExp(`/dashboard/campaigns/${campaignId}$`));
    expect(await page.locator('#campaign-name').innerText()).to.equal(NAME);

    const stats = await request<{ stats: Record<string, number> }>(`${t.api.baseUrl}/campaigns/${campaignId}/stats`, { headers: surfaceA(key) });
    const figure = (label: string) => page.locator('.figure', { has: page.locator('.muted', { hasText: new RegExp(`^${label}$`) }) }).locator('.value').innerText();
    expect(await figure('Sent')).to.equal(String(stats.body.stats.emails_sent));
    expect(stats.body.stats.emails_sent).to.equal(2);
    expect(await figure('Delivered')).to.equal(String(stats.body.stats.delivered));
    expect(await page.locator('#chart svg').count()).to.equal(1);
    expect(await page.locator('#matched').innerText()).to.equal('2 leads matched');
    expect(await page.locator('#next-report').innerText()).to.match(/\d{4}/);
    expect(await seriousViolations(page)).to.deep.equal([]);
    await screenshot(page, 'campaign');

    await page.goto(`${t.api.baseUrl}/dashboard/campaigns`);
    expect(await seriousViolations(page)).to.deep.equal([]);
    await screenshot(page, 'campaigns');
  });

  it('shows a name and an audience written as markup as text, in the list and on the page: no script runs', async () => {
    await page.goto(`${t.api.baseUrl}/dashboard/campaigns`);
    const row = page.locator('#campaigns tr', { hasText: hostileId });
    expect(await row.getByRole('link').innerText()).to.equal(HOSTILE);
    expect(await row.locator('td.audience').innerText()).to.include('<b onmouseover="window.__pwned=3">CTOs</b>');
    await row.getByRole('link').hover();
    await row.getByRole('link').click();
    await page.waitForURL(new RegExp(`/dashboard/campaigns/${hostileId}$`));
    expect(await page.locator('#campaign-name').innerText()).to.equal(HOSTILE);
    expect(await page.locator('img[src="x"], b[onmouseover]').count()).to.equal(0);
    expect(await page.evaluate('window.__pwned')).to.equal(undefined);
  });

  it('pauses and resumes from the page, through the workflow: the API shows each status', async () => {
    await page.goto(`${t.api.baseUrl}/dashboard/campaigns/${campaignId}`);
    expect(await page.locator('#controls button').allInnerTexts()).to.deep.equal(['Pause', 'Stop']);
    await page.getByRole('button', { name: 'Pause' }).click();
    await page.waitForURL(/notice=paused/);
    expect(await page.locator('#campaign-status').innerText()).to.equal('Paused: paused by you');
    expect(await page.locator('#controls button').allInnerTexts()).to.deep.equal(['Resume']);
    expect(await apiStatus()).to.equal('paused');

    await page.getByRole('button', { name: 'Resume' }).click();
    await page.waitForURL(/notice=resumed/);
    expect(await page.locator('#campaign-status').innerText()).to.match(/^Running/);
    expect(await apiStatus()).to.equal('running');
  });

  it('refuses a form whose CSRF token was taken out (403) and changes nothing', async () => {
    await page.goto(`${t.api.baseUrl}/dashboard/campaigns/${campaignId}`);
    await page.evaluate(`document.querySelectorAll('input[name="_csrf"]').forEach((i) => i.remove())`);
    await page.getByRole('button', { name: 'Pause' }).click();
    await page.waitForLoadState();
    expect(await page.locator('h1').innerText()).to.equal('Not allowed');
    expect(await apiStatus()).to.equal('running');
  });

  it('shows another account\'s campaign, and an unknown one, as a 404 page', async () => {
    for (const id of [otherId, 'cmp_nothere']) {
      const answer = await page.goto(`${t.api.baseUrl}/dashboard/campaigns/${id}`);
      expect(answer?.status()).to.equal(404);
      expect(await page.locator('h1').innerText()).to.equal('Not found');
      expect(await page.content()).to.not.include('Their campaign');
    }
    expect(await seriousViolations(page)).to.deep.equal([]);
  });

  it('is readable on a phone: no sideways scrolling at 375 px, and still nothing serious for axe', async () => {
    const phone = await browser.newPage({ viewport: { width: 375, height: 800 } });
    try {
      await signInWithKey(phone, t.api.baseUrl, key);
      for (const path of ['/dashboard/campaigns', `/dashboard/campaigns/${campaignId}`]) {
        await phone.goto(`${t.api.baseUrl}${path}`);
        const overflow = await phone.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');
        expect(overflow, path).to.be.at.most(0);
        expect(await seriousViolations(phone)).to.deep.equal([]);
      }
      await screenshot(phone, 'campaign-phone');
    } finally {
      await phone.close();
    }
  });

  it('sends a report now from the page: it arrives by SMTP with its chart, is listed as sent, and a second click within the minute is refused', async () => {
    const before = t.sink.messages.filter((m) => m.to.includes('owner@browser.example')).length;
    await page.goto(`${t.api.baseUrl}/dashboard/campaigns/${campaignId}`);
    await page.getByRole('button', { name: 'Send a report now' }).click();
    await page.waitForURL(/notice=report/);
    const report = await eventually(async () => t.sink.messages.filter((m) => m.to.includes('owner@browser.example'))[before]);
    expect(report.raw.toString()).to.match(/Content-Type: image\/png/i);
    await eventually(async () => {
      await page.reload();
      const cells = await page.locator('#reports tbody tr').first().locator('td').allInnerTexts();
      return cells[0] === 'on_demand' && cells[3] === 'sent' ? true : undefined;
    });
    await page.getByRole('button', { name: 'Send a report now' }).click();
    await page.waitForLoadState();
    expect(await page.locator('.error').first().innerText()).to.include('less than a minute ago');

    await page.goto(`${t.api.baseUrl}/dashboard/campaigns/${campaignId}/report-preview`);
    expect(await page.locator('img[src^="data:image/png"]').count()).to.equal(1);
  });

  it('signs out: the session ends, and the page asks for the key again', async () => {
    await page.goto(`${t.api.baseUrl}/dashboard/campaigns`);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/dashboard$/);
    await page.goto(`${t.api.baseUrl}/dashboard/campaigns/${campaignId}`);
    expect(page.url()).to.include('/dashboard?next=');
    expect(await page.getByLabel('API key').count()).to.equal(1);
  });
});

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { createAccount, request, surfaceA, surfaceB } from '../support/api';
import { useCampaignStack } from '../support/campaign-stack';
import { launchChromium, signInWithKey } from './support/browser';

/**
 * The dashboard in a real browser (Debian's Chromium, headless): a user signs in with the key by
 * typing it into the form, and the campaign list shows each campaign's audience with its matched
 * leads, the audience matching nobody marked with its reason. The campaigns are made through
 * POST /campaigns, so the counts are the API's own.
 */

/** Two CTOs in Germany, one in France, one marketer in the UK. */
const POOL = [
  'Email,First Name,Last Name,Job Title,Company,Country,Industry',
  'anna@dash-pool.example,Anna,Schmidt,CTO,Kraftwerk Software,Germany,Software',
  'ben@dash-pool.example,Ben,Weber,Chief Technology Officer,Berliner Daten,Germany,Software',
  'claire@dash-pool.example,Claire,Martin,CTO,Paris Tech,France,Software',
  'dan@dash-pool.example,Dan,Smith,Marketing Manager,London Retail,United Kingdom,Retail',
].join('\n');

// A target that never resolves: the workflow keeps retrying its scrape, so nothing is planned or sent.
const TARGET = 'https://dashboard-target.invalid';

interface ListAudience {
  text: string | null;
  source: string;
  matched_leads: number | null;
  reason: string | null;
}

describe('dashboard: campaign audiences in the list (browser)', function () {
  const t = useCampaignStack();
  let browser: Browser | undefined;
  let page: Page;
  let key = '';
  const ids: Record<'germany' | 'japan' | 'everyone', string> = { germany: '', japan: '', everyone: '' };
  let japanReason = '';
  let shotDir = '';

  before(async function () {
    ({ apiKey: key } = await createAccount(t.db.sequelize, 'free', 'Dashboard Co'));
    const imported = await request(`${t.api.baseUrl}/v1/leads/import`, { method: 'POST', headers: { ...surfaceB(key), 'content-type': 'text/csv' }, body: POOL });
    expect(imported.status, imported.text).to.equal(200);
    const create = async (body: Record<string, unknown>): Promise<{ id: string; audience: ListAudience }> => {
      const res = await request<{ id: string; audience: ListAudience }>(`${t.api.baseUrl}/campaigns`, {
        method: 'POST',
        headers: { ...surfaceA(key), 'content-type': 'application/json' },
        body: JSON.stringify({ mcp: 'sales_outreach', target_url: TARGET, ...body }),
      });
      expect(res.status, res.text).to.equal(201);
      return res.body;
    };
    ids.everyone = (await create({})).id;
    const germany = await create({ target_audience: 'CTOs in Germany' });
    expect(germany.audience).to.include({ matched_leads: 2 });
    ids.germany = germany.id;
    const japan = await create({ target_audience: 'Nurses at hospitals in Japan' });
    expect(japan.audience.matched_leads).to.equal(0);
    japanReason = japan.audience.reason ?? '';
    expect(japanReason).to.not.equal('');
    ids.japan = japan.id;

    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    shotDir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'dashboard-shot-'));
  });

  after(async () => {
    await browser?.close();
    if (shotDir !== '' && process.env.KEEP_DASHBOARD_SCREENSHOT === undefined) await fs.promises.rm(shotDir, { recursive: true, force: true });
  });

  it('lists each campaign with its audience and matched leads, zero marked', async () => {
    await signInWithKey(page, t.api.baseUrl, key);
    const rows = page.locator('#campaigns tr');
    await rows.first().waitFor({ state: 'visible', timeout: 20_000 });
    expect(await rows.count()).to.equal(3);

    const audienceOf = (id: string) => page.locator('#campaigns tr', { hasText: id }).locator('td.audience');
    expect(await audienceOf(ids.germany).innerText()).to.equal('CTOs in Germany — 2 leads');
    expect(await audienceOf(ids.everyone).innerText()).to.equal('all leads — 4 leads');

    const japan = audienceOf(ids.japan);
    expect(await japan.innerText()).to.equal(`Nurses at hospitals in Japan — 0 leads\n${japanReason}`);
    const zero = japan.locator('.zero');
    expect(await zero.innerText()).to.equal('— 0 leads');
    expect(await zero.getAttribute('title')).to.equal(japanReason);
    // Marked: a colour of its own, unlike the counts of the other rows.
    const colour = (l: ReturnType<typeof audienceOf>) => l.evaluate((el) => el.ownerDocument.defaultView?.getComputedStyle(el).color);
    expect(await colour(zero)).to.not.equal(await colour(audienceOf(ids.germany).locator('.count')));

    const shot = path.join(shotDir, 'dashboard-audience.png');
    await page.locator('#campaigns').locator('xpath=ancestor::section').screenshot({ path: shot });
    expect((await fs.promises.stat(shot)).size).to.be.greaterThan(1000);
    if (process.env.KEEP_DASHBOARD_SCREENSHOT !== undefined) console.log(`screenshot: ${shot}`);
  });
});

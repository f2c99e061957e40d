import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { createAccount, useTestApi } from '../support/api';
import { seedCampaign, seedLead } from '../support/campaign-seed';
import { launchChromium, screenshot, seriousViolations, signInWithKey } from './support/browser';

/**
 * A campaign's leads in a real browser (Debian's Chromium, headless): the user types two
 * addresses into the campaign page's enrol box, sees both queued on the leads page, removes one
 * (answering the confirmation) and sees it removed with its reason. The leads page, the lead
 * lists page and the blocklist pass axe-core without a serious or critical violation; their
 * screenshots go to docs/screenshots/ (campaign-leads.png, lead-lists.png, blocklist.png).
 */
describe('dashboard: enrol and remove a campaign\'s leads in a real browser', function () {
  const t = useTestApi();
  let browser: Browser | undefined;
  let page: Page;
  let key = '';
  let campaignId = '';

  before(async () => {
    browser = await launchChromium();
    let accountId = '';
    ({ accountId, apiKey: key } = await createAccount(t.db.sequelize, 'free', 'Browser Co'));
    campaignId = (await seedCampaign(accountId, { name: 'Spring outreach' })).id;
    await seedLead(accountId, { email: 'ada@analytical.example', firstName: 'Ada', lastName: 'Lovelace', company: 'Analytical Engines' });
    await seedLead(accountId, { email: 'grace@cobol.example', firstName: 'Grace', lastName: 'Hopper', company: 'Cobol Systems' });
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
    await signInWithKey(page, t.api.baseUrl, key);
  });

  after(async () => {
    await browser?.close();
  });

  it('enrols two leads from the campaign page and shows them queued', async () => {
    await page.goto(`${t.api.baseUrl}/dashboard/campaigns/${campaignId}`);
    await page.getByLabel('Enrol leads by email address, one per line (up to 1,000)').fill('ada@analytical.example\nGrace@Cobol.example');
    await page.getByRole('button', { name: 'Enrol' }).click();
    const outcome = page.getByRole('status').filter({ hasText: 'added' });
    await outcome.waitFor();
    expect(await outcome.innerText()).to.include('2 added of 2 addresses');
    const table = page.locator('#leads');
    expect(await table.locator('tbody tr').count()).to.equal(2);
    expect(await table.locator('tr', { hasText: 'ada@analytical.example' }).innerText()).to.include('Queued');
    expect(await table.locator('tr', { hasText: 'grace@cobol.example' }).innerText()).to.include('Queued');
    expect(await page.locator('#state-filter').innerText()).to.include('Queued (2)');
    expect(await seriousViolations(page)).to.deep.equal([]);
  });

  it('removes one after the confirmation; it shows removed with the reason', async () => {
    await page.goto(`${t.api.baseUrl}/dashboard/campaigns/${campaignId}/leads`);
    const questions: string[] = [];
    page.once('dialog', (dialog) => {
      questions.push(dialog.message());
      void dialog.accept();
    });
    await page.getByRole('button', { name: 'Remove ada@analytical.example' }).click();
    await page.getByText('The lead was removed from the campaign').waitFor();
    expect(questions).to.deep.equal(['Remove ada@analytical.example from this campaign? No further email of it is sent to them.']);
    const ada = await page.locator('#leads tr', { hasText: 'ada@analytical.example' }).innerText();
    expect(ada).to.include('Removed').and.include('removed by the user');
    expect(await page.getByRole('button', { name: 'Remove ada@analytical.example' }).count()).to.equal(0);
    expect(await page.locator('#leads tr', { hasText: 'grace@cobol.example' }).innerText()).to.include('Queued');

    await page.getByRole('link', { name: /^Removed \(1\)/ }).click();
    await page.waitForURL(/state=removed/);
    expect(await page.locator('#leads tbody tr').count()).to.equal(1);
    expect(await seriousViolations(page)).to.deep.equal([]);
    await page.goto(`${t.api.baseUrl}/dashboard/campaigns/${campaignId}/leads`);
    await screenshot(page, 'campaign-leads');
    // On a phone the table stacks: nothing scrolls sideways.
    await page.setViewportSize({ width: 375, height: 800 });
    expect(await page.evaluate('document.documentElement.scrollWidth <= document.documentElement.clientWidth')).to.equal(true);
    expect(await seriousViolations(page)).to.deep.equal([]);
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('the lead lists and blocklist pages, from the navigation, pass axe', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Lead lists' }).click();
    await page.waitForURL(/\/dashboard\/lead-lists$/);
    await page.getByLabel('New list').fill('Berlin CTOs');
    await page.getByRole('button', { name: 'Create list' }).click();
    await page.getByText('The list was created.').waitFor();
    expect(await page.locator('#lists').innerText()).to.include('Berlin CTOs');
    expect(await seriousViolations(page)).to.deep.equal([]);
    await screenshot(page, 'lead-lists');

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Blocklist' }).click();
    await page.waitForURL(/\/dashboard\/blocklist$/);
    await page.getByLabel('Address or domain').fill('not a domain');
    await page.getByRole('button', { name: 'Block' }).click();
    expect(await page.getByRole('alert').innerText()).to.include('is neither an email address nor a domain');
    await page.getByLabel('Address or domain').fill('competitor.example');
    await page.getByLabel('Reason (optional)').fill('a competitor');
    await page.getByRole('button', { name: 'Block' }).click();
    await page.getByText('Blocked: no campaign of yours emails it').waitFor();
    expect(await page.locator('#entries').innerText()).to.include('competitor.example');
    expect(await seriousViolations(page)).to.deep.equal([]);
    await screenshot(page, 'blocklist');
  });
});

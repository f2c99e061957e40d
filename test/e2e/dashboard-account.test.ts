import { expect } from 'chai';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { AccountService } from '../../src/accounts/account-service';
import { createAccount, useTestApi } from '../support/api';
import { seedCampaign, seedCost, seedOutcome } from '../support/campaign-seed';
import { WebhookReceiver } from '../support/webhook-receiver';
import { seedDelivery } from '../web/support/seed-delivery';
import { launchChromium, screenshot, seriousViolations } from './support/browser';

/**
 * The account pages of the dashboard in a real browser (Debian's Chromium, headless): a user signs
 * in by typing the key into the form, then uses the API keys, webhooks and usage pages with the
 * keyboard and the mouse. Each page, at 1280 and at 375 px wide, passes axe-core without a serious
 * or critical violation and does not scroll sideways at 375 px. A screenshot of each page goes to
 * test-output/screenshots/ and, as the current ones, to docs/screenshots/
 * (<page>.png at 1280 px, <page>-phone.png at 375 px).
 */

const WIDTHS = [1280, 375] as const;

/** The browser globals the page functions below use (the project compiles without the DOM library). */
interface InPage {
  document: { activeElement: { id: string } | null; documentElement: { scrollWidth: number; clientWidth: number }; cookie: string };
  localStorage: object;
  sessionStorage: object;
  navigator: { clipboard: { readText(): Promise<string> } };
}

describe('dashboard: account pages in a real browser (keys, webhooks, usage)', function () {
  const t = useTestApi();
  let browser: Browser | undefined;
  let context: BrowserContext;
  let page: Page;
  let receiver: WebhookReceiver | undefined;
  let key = '';
  let accountId = '';

  before(async () => {
    // Fails, saying how to get it, where Debian's Chromium is missing.
    browser = await launchChromium();
    ({ accountId, apiKey: key } = await createAccount(t.db.sequelize, 'free', 'Browser Co'));
    await new AccountService(t.db.sequelize).issueKey(accountId, 'CRM sync');
    // Figures for the usage page and rows for the delivery log.
    const campaign = await seedCampaign(accountId, { name: 'Spring outreach' });
    for (let i = 0; i < 4; i++) await seedOutcome(campaign);
    await seedCost(accountId, 0.84, { campaignId: campaign.id });
    await seedCost(accountId, 0.31, { category: 'ai_generation', campaignId: campaign.id });
    await seedDelivery(t.db.sequelize, {
      accountId,
      campaignId: campaign.id,
      event: 'reply.received',
      url: 'https://crm.example.com/hooks/outreach',
      status: 'failed',
      attempts: 6,
      createdAt: new Date(Date.now() - 30 * 3_600_000),
    });
    receiver = await WebhookReceiver.start();

    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: t.api.baseUrl });
    page = await context.newPage();
  });

  after(async () => {
    await browser?.close();
    await receiver?.close();
  });

  it('signs in through the form and lands on the page asked for', async () => {
    await page.goto(`${t.api.baseUrl}/dashboard/keys`);
    expect(new URL(page.url()).pathname).to.equal('/dashboard');
    await page.getByLabel('API key').fill(key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${t.api.baseUrl}/dashboard/keys`);
    expect(await page.getByRole('heading', { level: 1 }).innerText()).to.equal('API keys');
    // The key is nowhere the page's script could read it.
    expect(await page.evaluate(() => {
      const w = globalThis as unknown as InPage;
      return JSON.stringify({ ...w.localStorage }) + JSON.stringify({ ...w.sessionStorage }) + w.document.cookie;
    })).to.not.include(key);
  });

  it('creates a key with the keyboard alone, shows it once and copies it', async () => {
    await page.goto(`${t.api.baseUrl}/dashboard/keys`);
    // Tab from the top of the page to the label field: every control on the way is reachable.
    let reached = false;
    for (let i = 0; i < 40 && !reached; i++) {
      await page.keyboard.press('Tab');
      reached = await page.evaluate(() => (globalThis as unknown as InPage).document.activeElement?.id === 'label');
    }
    expect(reached, 'the label field is reachable with Tab').to.equal(true);
    await page.keyboard.type('Zapier');
    await page.keyboard.press('Enter');
    const shown = page.locator('#new-key');
    await shown.waitFor();
    const created = await shown.innerText();
    expect(created).to.match(/^ok_[A-Za-z0-9]{12}_[A-Za-z0-9]{32}$/);
    await page.getByRole('button', { name: 'Copy key' }).click();
    await page.locator('button[data-copy="new-key"]', { hasText: 'Copied' }).waitFor();
    expect(await page.evaluate(() => (globalThis as unknown as InPage).navigator.clipboard.readText())).to.equal(created);
    expect(await seriousViolations(page), 'axe on the new key').to.deep.equal([]);
    expect(await page.locator('#keys tr').first().innerText()).to.include('Zapier');
    // Reloading by address shows the list, never the key again.
    await page.goto(`${t.api.baseUrl}/dashboard/keys`);
    expect(await page.content()).to.not.include(created);
  });

  it('asks before revoking; for the key of this session the question says it signs out', async () => {
    await page.goto(`${t.api.baseUrl}/dashboard/keys`);
    const questions: string[] = [];
    page.once('dialog', (dialog) => {
      questions.push(dialog.message());
      void dialog.dismiss();
    });
    await page.getByRole('button', { name: /^Revoke and sign out/ }).click();
    expect(questions[0]).to.include('You will be signed out at once');
    expect(new URL(page.url()).pathname).to.equal('/dashboard/keys');

    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: /^Revoke: key .*\(CRM sync\)/ }).click();
    await page.getByText('The key was revoked').waitFor();
    expect(await page.locator('#keys tr', { hasText: 'CRM sync' }).innerText()).to.include('revoked');
  });

  it('sets the webhook URL, sends a test event and sees it delivered, resends a failed delivery, reveals the secret', async () => {
    await page.goto(`${t.api.baseUrl}/dashboard/webhooks`);
    // A private address passes the browser's URL check and is refused by the service's, with the reason.
    await page.getByLabel('Global webhook URL').fill('https://10.1.2.3/hooks');
    await page.getByRole('button', { name: 'Save URL' }).click();
    expect(await page.getByRole('alert').innerText()).to.match(/^The URL must point to a public address: /);
    expect(await page.getByLabel('Global webhook URL').getAttribute('aria-invalid')).to.equal('true');
    expect(await seriousViolations(page), 'axe on the refused URL').to.deep.equal([]);

    await page.getByLabel('Global webhook URL').fill(receiver!.url('/hooks'));
    await page.getByRole('button', { name: 'Save URL' }).click();
    await page.getByText('The global URL was saved').waitFor();
    await page.getByRole('button', { name: 'Send a test event' }).click();
    const outcome = page.locator('#test-outcome');
    await outcome.waitFor();
    expect(await outcome.innerText()).to.match(/^Delivered to http:\/\/127\.0\.0\.1:\d+\/hooks: HTTP 200 in \d+ ms\./);
    expect(receiver!.events().map((e) => e.event)).to.deep.equal(['webhook.test']);
    // The attempts open from the keyboard.
    const summary = page.locator('table.deliveries summary').first();
    await summary.focus();
    await page.keyboard.press('Enter');
    expect(await page.locator('table.deliveries ol.attempts').first().isVisible()).to.equal(true);

    // A failed delivery, with its six attempts, sent again.
    const failed = page.locator('table.deliveries tr', { hasText: 'reply.received' });
    expect(await failed.innerText()).to.include('failed').and.include('6 attempts, last HTTP 500');
    await failed.getByRole('button', { name: 'Resend: reply.received to https://crm.example.com/hooks/outreach' }).click();
    await page.getByText('The delivery was resent').waitFor();
    expect(await page.locator('table.deliveries tr', { hasText: 'reply.received' }).innerText()).to.include('pending');

    await page.getByRole('button', { name: 'Reveal secret' }).click();
    expect(await page.locator('#webhook-secret').innerText()).to.match(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(await seriousViolations(page), 'axe on the revealed secret and the test outcome').to.deep.equal([]);
  });

  for (const name of ['keys', 'webhooks', 'usage'] as const) {
    it(`${name}: no serious or critical axe-core violation at ${WIDTHS.join(' and ')} px, no sideways scrolling at 375 px; screenshots`, async () => {
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 900 });
        await page.goto(`${t.api.baseUrl}/dashboard/${name}`);
        expect(new URL(page.url()).pathname, 'still signed in').to.equal(`/dashboard/${name}`);
        expect(await seriousViolations(page), `axe at ${width} px`).to.deep.equal([]);
        const overflow = await page.evaluate(() => {
          const root = (globalThis as unknown as InPage).document.documentElement;
          return root.scrollWidth - root.clientWidth;
        });
        expect(overflow, `horizontal overflow at ${width} px`).to.be.at.most(0);
        await screenshot(page, width === 1280 ? name : `${name}-phone`);
      }
      await page.setViewportSize({ width: 1280, height: 900 });
    });
  }

  it('usage shows the month against the plan, with the bar\'s text for screen readers', async () => {
    await page.goto(`${t.api.baseUrl}/dashboard/usage`);
    expect(await page.locator('#quota-text').innerText()).to.equal('4 of 1,000 emails sent (0.4%), 996 left.');
    expect(await page.getByRole('img', { name: 'Quota used: 4 of 1,000 emails, 0.4%' }).count()).to.equal(1);
    expect(await page.locator('#cost-total').innerText()).to.equal('$1.15');
  });
});

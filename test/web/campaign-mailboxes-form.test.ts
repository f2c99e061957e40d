import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, seriousViolations, signInWithKey } from '../e2e/support/browser';
import { createAccount, request, surfaceB, useTestApi } from '../support/api';
import { seedCampaign } from '../support/campaign-seed';

/**
 * The campaign's mailboxes on the dashboard's edit form (issue 29 point 4), in a real browser
 * (Debian's Chromium, headless) against the real API and PostgreSQL. The campaigns are drafts, so
 * an edit is written directly, as the API's PATCH of a draft is (a running campaign's edit goes
 * through the workflow's Update: test/web/campaign-edit-page.test.ts). The API's GET
 * /v1/campaigns/:id is the judge of what the form changed; the campaign page shows the addresses.
 */
describe('dashboard: choosing the mailboxes a campaign sends from (real browser, HTTP)', () => {
  const t = useTestApi();
  let browser: Browser;
  let page: Page;
  let key = '';
  let accountId = '';
  /** The account's mailboxes: id and address. */
  const boxes: Array<{ id: string; address: string }> = [];

  const call = <T>(method: string, path: string, apiKey: string, body?: unknown) =>
    request<T & { error?: string }>(`${t.api.baseUrl}${path}`, {
      method,
      headers: { ...surfaceB(apiKey), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  /** The set as the API shows it, sorted (a set: its order means nothing). */
  const setOf = async (id: string): Promise<string[] | null> => {
    const res = await call<{ mailboxIds: string[] | null }>('GET', `/v1/campaigns/${id}`, key);
    expect(res.status, res.text).to.equal(200);
    return res.body.mailboxIds === null ? null : [...res.body.mailboxIds].sort();
  };
  const editPage = (id: string) => `${t.api.baseUrl}/dashboard/campaigns/${id}/edit`;
  const box = (id: string) => page.locator(`#mailbox_${id}`);
  const sendsFrom = () => page.locator('dl.facts dt', { hasText: 'Sends from' }).locator('xpath=following-sibling::dd[1]').innerText();
  const save = () => page.getByRole('button', { name: 'Save changes' }).click();

  before(async () => {
    browser = await launchChromium();
    ({ apiKey: key, accountId } = await createAccount(t.db.sequelize, 'pro', 'Mailbox Co'));
    for (const [name, address] of [['One', 'one@mailbox.example'], ['Two', 'two@mailbox.example'], ['Three', 'three@mailbox.example']] as const) {
      // Their server is never reached: these campaigns are drafts and send nothing.
      const res = await call<{ id: string }>('POST', '/v1/mailboxes', key, { fromEmail: address, fromName: name, smtpUrl: 'smtp://u:p@127.0.0.1:2525' });
      expect(res.status, res.text).to.equal(201);
      boxes.push({ id: res.body.id, address });
    }
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await signInWithKey(page, t.api.baseUrl, key);
  });
  after(async () => {
    await browser?.close();
  });

  it('chooses two of three mailboxes, refuses "Only these" with none ticked, and goes back to every mailbox: the API and the campaign page agree', async () => {
    const [one, two, three] = boxes as [(typeof boxes)[0], (typeof boxes)[0], (typeof boxes)[0]];
    const c = await seedCampaign(accountId, { name: 'Spring', status: 'draft' });
    expect(await setOf(c.id)).to.equal(null);

    await page.goto(editPage(c.id));
    expect(await page.getByLabel('Every active mailbox of the account').isChecked()).to.equal(true);
    expect(await page.locator('#mailbox-choices label').allInnerTexts()).to.deep.equal([`${one.address} (One)`, `${two.address} (Two)`, `${three.address} (Three)`]);
    expect(await seriousViolations(page)).to.deep.equal([]);
    await page.getByLabel('Only these:').check();
    await box(one.id).check();
    await box(three.id).check();
    await save();
    await page.waitForURL(/notice=edited/);
    expect(await setOf(c.id)).to.deep.equal([one.id, three.id].sort());
    expect(await sendsFrom()).to.equal(`${one.address}, ${three.address}`);

    // Nothing ticked under "Only these": the form says so, keeps what was typed, and nothing changes.
    await page.goto(editPage(c.id));
    expect(await page.getByLabel('Only these:').isChecked()).to.equal(true);
    expect([await box(one.id).isChecked(), await box(two.id).isChecked(), await box(three.id).isChecked()]).to.deep.equal([true, false, true]);
    await page.locator('#name').fill('Should not stick');
    await box(one.id).uncheck();
    await box(three.id).uncheck();
    await save();
    await page.waitForLoadState();
    expect(await page.locator('#edit-error').innerText()).to.equal(
      'Nothing was changed: mailbox_ids: tick at least one mailbox under "Only these", or choose "Every active mailbox of the account"',
    );
    expect(await page.locator('#name').inputValue()).to.equal('Should not stick');
    expect(await page.getByLabel('Only these:').isChecked()).to.equal(true);
    expect([await box(one.id).isChecked(), await box(three.id).isChecked()]).to.deep.equal([false, false]);
    expect(await seriousViolations(page)).to.deep.equal([]);
    expect(await setOf(c.id)).to.deep.equal([one.id, three.id].sort());
    expect((await call<{ name: string }>('GET', `/v1/campaigns/${c.id}`, key)).body.name).to.equal('Spring');

    // Back to every mailbox: null again, and the page says so.
    await page.goto(editPage(c.id));
    await page.getByLabel('Every active mailbox of the account').check();
    await save();
    await page.waitForURL(/notice=edited/);
    expect(await setOf(c.id)).to.equal(null);
    expect(await sendsFrom()).to.equal('every active mailbox of the account');
  });

  it('keeps a deactivated mailbox of the set when the form is saved untouched, and names it when a new choice still ticks it', async () => {
    const [one, two, three] = boxes as [(typeof boxes)[0], (typeof boxes)[0], (typeof boxes)[0]];
    const c = await seedCampaign(accountId, { name: 'Summer', status: 'draft', mailboxIds: [one.id, two.id] });
    expect((await call('DELETE', `/v1/mailboxes/${two.id}`, key)).status).to.equal(200);

    await page.goto(`${t.api.baseUrl}/dashboard/campaigns/${c.id}`);
    expect(await sendsFrom()).to.equal(`${one.address}, ${two.address} (deactivated)`);
    await page.goto(editPage(c.id));
    expect(await page.locator(`label[for="mailbox_${two.id}"]`).innerText()).to.equal(`${two.address} (Two) (deactivated)`);
    expect(await box(two.id).isChecked()).to.equal(true);
    await save();
    await page.waitForURL(/notice=unchanged/);
    expect(await setOf(c.id)).to.deep.equal([one.id, two.id].sort());

    await page.goto(editPage(c.id));
    await box(three.id).check();
    await save();
    await page.waitForLoadState();
    expect(await page.locator('#edit-error').innerText()).to.include(`Nothing was changed: mailbox_ids: ${two.address} is deactivated`);
    expect(await box(three.id).isChecked()).to.equal(true);
    expect(await setOf(c.id)).to.deep.equal([one.id, two.id].sort());

    await box(two.id).uncheck();
    await save();
    await page.waitForURL(/notice=edited/);
    expect(await setOf(c.id)).to.deep.equal([one.id, three.id].sort());
    expect(await sendsFrom()).to.equal(`${one.address}, ${three.address}`);
  });

  it('says the account has no mailbox and offers nothing; the untouched form changes nothing', async () => {
    const other = await createAccount(t.db.sequelize, 'pro', 'No Mailbox Co');
    const c = await seedCampaign(other.accountId, { name: 'Autumn', status: 'draft' });
    const own = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    try {
      await signInWithKey(own, t.api.baseUrl, other.apiKey);
      await own.goto(editPage(c.id));
      expect(await own.locator('#no-mailboxes').innerText()).to.match(/^The account has no active mailbox, so there is none to choose/);
      expect(await own.locator('input[name="mailboxes"]').count()).to.equal(0);
      await own.getByRole('button', { name: 'Save changes' }).click();
      await own.waitForURL(/notice=unchanged/);
      const got = await call<{ mailboxIds: unknown }>('GET', `/v1/campaigns/${c.id}`, other.apiKey);
      expect(got.body.mailboxIds).to.equal(null);
    } finally {
      await own.close();
    }
  });
});

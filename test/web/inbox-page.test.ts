import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { QueryTypes } from 'sequelize';
import { newId } from '../../src/accounts/ids';
import { serviceSecret } from '../../src/config/service-secret-repository';
import { Email, Mailbox, type Campaign, type Lead } from '../../src/db/models';
import { suppressAddress } from '../../src/suppressions/suppression-repository';
import { launchChromium, screenshot, seriousViolations, signInWithKey } from '../e2e/support/browser';
import { createAccount, request, surfaceB } from '../support/api';
import { seedCampaign, seedLead } from '../support/campaign-seed';
import { useCampaignStack } from '../support/campaign-stack';
import { eventually } from '../support/eventually';

/** What the tests read of GET /v1/replies/:id: the API is the judge of what the page changed. */
interface ReplyB {
  id: string;
  category: string | null;
  modelCategory: string | null;
  userCategory: string | null;
  read: boolean;
}

/**
 * The inbox, the thread, the category correction and the answer box in a real browser (Debian's
 * Chromium, headless) on the real stack: PostgreSQL, a Temporal dev server, the worker with the
 * real activities (the answer's workflow sends it), the API, and a local SMTP server as the
 * mailbox's. Replies arrive through the inbound endpoint as raw MIME, so the model's label is the
 * built-in classifier's. axe-core on every page.
 */
describe('dashboard: the inbox, the thread and the answer box (browser)', function () {
  this.timeout(180_000);
  const s = useCampaignStack();
  let browser: Browser;
  let page: Page;
  let key = '';
  let accountId = '';
  let spring: Campaign;
  let autumn: Campaign;
  let ada: Lead;
  let bob: Lead;
  let gone: Lead;
  const replyIds: Record<string, string> = {};
  const MAILBOX = 'maria@sender.example';

  const base = (): string => s.api.baseUrl;
  const replyB = async (id: string): Promise<ReplyB> => {
    const res = await request<ReplyB>(`${base()}/v1/replies/${id}`, { headers: surfaceB(key) });
    expect(res.status).to.equal(200);
    return res.body;
  };

  /** A campaign email from the mailbox to the lead, as the batch leaves it once SMTP took it. */
  async function sent(c: Campaign, lead: Lead, mailboxId: string, subject: string, minutesAgo: number): Promise<Email> {
    const id = newId('em');
    return Email.create({
      id,
      accountId,
      campaignId: c.id,
      leadId: lead.id,
      step: 0,
      mailboxId,
      fromEmail: MAILBOX,
      toEmail: lead.email,
      subject,
      messageId: `<${id}@sender.example>`,
      status: 'sent',
      sentAt: new Date(Date.now() - minutesAgo * 60_000),
    });
  }

  /** The lead answers `email` through the service's inbound endpoint, as a relay posts a message. */
  async function replyTo(email: Email, lead: Lead, text: string): Promise<string> {
    const secret = await serviceSecret(s.db.sequelize, 'inbound', undefined);
    const raw = [
      `From: ${lead.firstName ?? ''} <${lead.email}>`,
      `To: Maria <${MAILBOX}>`,
      `Subject: Re: ${email.subject}`,
      `Message-ID: <r-${randomBytes(6).toString('hex')}@lead.example>`,
      `In-Reply-To: ${email.messageId}`,
      `References: ${email.messageId}`,
      'MIME-Version: 1.0',
      'Content-Type: text/plain; charset=utf-8',
      '',
      text,
      '',
    ].join('\r\n');
    const res = await request<{ replyId: string; matched: boolean }>(`${base()}/inbound/mime`, {
      method: 'POST',
      headers: { 'Content-Type': 'message/rfc822', 'X-Inbound-Secret': secret },
      body: Buffer.from(raw),
    });
    expect(res.status, JSON.stringify(res.body)).to.be.oneOf([200, 201, 202]);
    expect(res.body.matched).to.equal(true);
    return res.body.replyId;
  }

  before(async () => {
    ({ apiKey: key, accountId } = await createAccount(s.db.sequelize, 'pro', 'Inbox Co'));
    // The mailbox's server is the stack's sink: what the answer box sends is read there.
    const mailbox = await Mailbox.create({ id: newId('mbx'), accountId, fromEmail: MAILBOX, fromName: 'Maria Costa', smtpUrl: s.sink.url });
    spring = await seedCampaign(accountId, { name: 'Spring launch' });
    autumn = await seedCampaign(accountId, { name: 'Autumn follow-up' });
    ada = await seedLead(accountId, { email: 'ada@lead.example', firstName: 'Ada', lastName: 'Lovelace', company: 'Engines Ltd' });
    bob = await seedLead(accountId, { email: 'bob@lead.example', firstName: 'Bob', company: 'Bolts Inc' });
    gone = await seedLead(accountId, { email: 'gone@lead.example', firstName: 'Gwen' });
    const toAda = await sent(spring, ada, mailbox.id, 'Engines and analytics', 30);
    const toBob = await sent(autumn, bob, mailbox.id, 'Bolts, a follow-up', 20);
    await sent(spring, gone, mailbox.id, 'Engines and analytics', 10);
    replyIds.ada = await replyTo(toAda, ada, "Hi Maria, this is interesting. Could we talk on Thursday?\n\nAda");
    replyIds.bob = await replyTo(toBob, bob, 'Thanks, not right now. Maybe next year.\n\nBob');
    await suppressAddress(s.db.sequelize, null, accountId, gone.email, 'unsubscribe', null);
    browser = await launchChromium();
    page = await browser.newPage();
    await signInWithKey(page, base(), key);
  });

  after(async () => {
    await browser?.close();
  });

  it('lists every reply across campaigns, unread first, with the model\'s label, and filters by campaign', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Inbox' }).click();
    await page.waitForURL(/\/dashboard\/inbox/);
    expect(await page.locator('#inbox-total').innerText()).to.include('2 replies').and.include('2 unread');
    const rows = page.locator('#inbox tbody tr');
    expect(await rows.count()).to.equal(2);
    // Newest first among the unread: Bob answered after Ada.
    expect(await rows.nth(0).getAttribute('data-reply-id')).to.equal(replyIds.bob);
    expect(await rows.nth(0).innerText()).to.include('Unread').and.include('Autumn follow-up').and.include('not right now');
    expect(await rows.nth(1).innerText()).to.include('Ada Lovelace').and.include('Spring launch');
    expect(await seriousViolations(page)).to.deep.equal([]);
    await screenshot(page, 'inbox');

    await page.getByLabel('Campaign').selectOption({ label: 'Spring launch' });
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/campaign=/);
    expect(await rows.count()).to.equal(1);
    expect(await rows.nth(0).getAttribute('data-reply-id')).to.equal(replyIds.ada);
    expect(await page.locator('#inbox-total').innerText()).to.include('1 reply').and.include('1 unread');
  });

  it('opens the thread: the campaign email and the reply in order, and the reply is read from then on', async () => {
    await page.locator(`#inbox tr[data-reply-id="${replyIds.ada}"] a`).first().click();
    await page.waitForURL(new RegExp(`/dashboard/leads/${ada.id}/thread`));
    const messages = page.locator('#messages > li');
    expect(await messages.count()).to.equal(2);
    expect(await messages.nth(0).innerText()).to.include('Campaign email · Spring launch, step 1').and.include('Engines and analytics');
    expect(await messages.nth(1).innerText()).to.include('Reply · Spring launch').and.include('Could we talk on Thursday?').and.include('New');
    expect(await seriousViolations(page)).to.deep.equal([]);
    expect((await replyB(replyIds.ada!)).read).to.equal(true);
    expect((await replyB(replyIds.bob!)).read).to.equal(false);

    await page.goto(`${base()}/dashboard/inbox`);
    // Bob's unread reply stays on top; Ada's is read now.
    expect(await page.locator('#inbox tbody tr').nth(0).getAttribute('data-reply-id')).to.equal(replyIds.bob);
    expect(await page.locator(`#inbox tr[data-reply-id="${replyIds.ada}"]`).getAttribute('class')).to.equal('read');
    expect(await page.locator('#inbox-total').innerText()).to.include('1 unread');
  });

  it('corrects the category in the thread: the API shows the user\'s label beside the model\'s, and the statistics follow', async () => {
    const before = await replyB(replyIds.ada!);
    const statsBefore = await request<{ repliesMeetingBooked: number }>(`${base()}/v1/email-gateway/stats`, { headers: surfaceB(key) });
    await page.goto(`${base()}/dashboard/leads/${ada.id}/thread`);
    await page.getByLabel('Correct the category').selectOption('meeting_booked');
    await page.getByRole('button', { name: /Save label/ }).click();
    await page.waitForURL(/notice=labelled/);
    expect(await page.locator('.notice').innerText()).to.include('The label is saved');
    expect(await page.locator('#messages').innerText()).to.include('Your label: Meeting booked').and.include(`the model said`);

    const after = await replyB(replyIds.ada!);
    expect(after).to.include({ category: 'meeting_booked', userCategory: 'meeting_booked', modelCategory: before.modelCategory });
    const statsAfter = await request<{ repliesMeetingBooked: number }>(`${base()}/v1/email-gateway/stats`, { headers: surfaceB(key) });
    const wasMeeting = before.category === 'meeting_booked' ? 1 : 0;
    expect(statsAfter.body.repliesMeetingBooked).to.equal(statsBefore.body.repliesMeetingBooked + 1 - wasMeeting);

    // The inbox says the same: the label in force and what the model said.
    await page.goto(`${base()}/dashboard/inbox?category=meeting_booked`);
    expect(await page.locator('#inbox tbody tr').count()).to.equal(1);
    expect(await page.locator('#inbox tbody tr').innerText()).to.include('Meeting booked').and.include('Your label');
  });

  it('answers from the thread: the message leaves the lead\'s mailbox in the thread, and the thread shows it', async () => {
    await page.goto(`${base()}/dashboard/leads/${ada.id}/thread`);
    const adaReply = (await s.db.sequelize.query<{ message_id: string }>('SELECT message_id FROM replies WHERE id = $1', { bind: [replyIds.ada], type: QueryTypes.SELECT }))[0]!;
    await page.getByLabel('Cc').fill('cto@engines.example');
    await page.getByLabel('Your answer').fill('Thursday at 10:00 works for me. I will send an invitation.\n\nMaria');
    await page.getByRole('button', { name: 'Send answer' }).click();
    await page.waitForURL(/notice=(sent|sending)/);

    const received = await eventually(async () => {
      const got = s.sink.to(ada.email);
      expect(got).to.have.length(1);
      return s.sink.parse(got[0]!);
    });
    expect(received.from?.value[0]?.address).to.equal(MAILBOX);
    expect(received.subject).to.equal('Re: Engines and analytics');
    expect(received.inReplyTo).to.equal(`<${adaReply.message_id.replace(/^<|>$/g, '')}>`);
    expect(received.text).to.include('Thursday at 10:00 works for me.');
    expect(JSON.stringify(received.cc)).to.include('cto@engines.example');

    await page.reload();
    const last = page.locator('#messages > li').last();
    expect(await last.innerText()).to.include('Your answer').and.include('Thursday at 10:00 works for me.').and.include('cc cto@engines.example');
    expect(await seriousViolations(page)).to.deep.equal([]);
    await screenshot(page, 'thread');
  });

  it('keeps a refused answer\'s text on the form, and shows no answer box to a lead who unsubscribed', async () => {
    await page.goto(`${base()}/dashboard/leads/${bob.id}/thread`);
    await page.getByLabel('Cc').fill('not an address');
    await page.getByLabel('Your answer').fill('Understood, I will write again next year.');
    await page.getByRole('button', { name: 'Send answer' }).click();
    await page.waitForLoadState();
    expect(await page.locator('#answer-error').innerText()).to.include('is not an email address');
    expect(await page.getByLabel('Your answer').inputValue()).to.equal('Understood, I will write again next year.');
    expect(s.sink.to(bob.email)).to.have.length(0);

    await page.goto(`${base()}/dashboard/leads/${gone.id}/thread`);
    expect(await page.locator('#answer-refused').innerText()).to.include('unsubscribed');
    expect(await page.locator('#answer-form').count()).to.equal(0);
  });

  it('links the campaign page\'s replies to their threads and to the inbox', async () => {
    await page.goto(`${base()}/dashboard/campaigns/${spring.id}`);
    expect(await page.locator('#campaign-inbox').getAttribute('href')).to.equal(`/dashboard/inbox?campaign=${spring.id}`);
    await page.locator('#replies tbody a').first().click();
    await page.waitForURL(new RegExp(`/dashboard/leads/${ada.id}/thread`));
    expect(await page.locator('h1').innerText()).to.include('Ada Lovelace');
    // Another account's lead is not found, as on the API.
    const other = await createAccount(s.db.sequelize, 'pro', 'Other Co');
    const theirs = await seedLead(other.accountId, { email: 'x@other.example' });
    const res = await page.goto(`${base()}/dashboard/leads/${theirs.id}/thread`);
    expect(res?.status()).to.equal(404);
  });
});

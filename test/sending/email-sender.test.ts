import { expect } from 'chai';
import { generateKeyPairSync } from 'node:crypto';
import { ApplicationFailure } from '@temporalio/common';
import { load } from 'cheerio';
import { activityFailure } from '../../activities/failures';
import type { Config } from '../../src/config/config';
import { NotFoundError } from '../../src/errors/domain-errors';
import { createLogger } from '../../src/log/logger';
import { suppressAddress } from '../../src/suppressions/suppression-repository';
import { EmailSender, type SenderDeps, type SenderHooks } from '../../src/sending/email-sender';
import { SmtpSenderRejected, SmtpTemporaryFailure } from '../../src/sending/send-failures';
import { smtpTransports } from '../../src/sending/transports';
import type { SendEmailInput, SendEmailResult } from '../../src/sending/types';
import { TrackingLinks } from '../../src/tracking/links';
import { createAccount, testConfig } from '../support/api';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { TestSmtpSink } from '../support/smtp-sink';
import { verifyDkim } from './dkim-verify';
import { count, emailRow, input, newAccountWithCampaign, newCampaign, newLead, newMailbox } from './fixtures';

const BASE = 'https://track.example.test';
const SECRET = 'test-tracking-secret';
const links = new TrackingLinks(SECRET, BASE);
const log = createLogger('silent', 'test');

/** A sender's send, as the batch calls it. */
const sending = (deps: SenderDeps, hooks?: SenderHooks): ((input: SendEmailInput) => Promise<SendEmailResult>) => {
  const sender = new EmailSender(deps, hooks);
  return (input) => sender.send(input);
};

/** The send must throw an error of `kind`; returns the ApplicationFailure the activity boundary makes of it. */
async function rejection(p: Promise<unknown>, kind: abstract new (...args: never[]) => Error): Promise<ApplicationFailure> {
  try {
    await p;
  } catch (err) {
    expect(err).to.be.instanceOf(kind);
    const failure = activityFailure(err);
    expect(failure).to.be.instanceOf(ApplicationFailure);
    return failure as ApplicationFailure;
  }
  throw new Error('expected the send to throw');
}

describe('EmailSender (real SMTP sink, real PostgreSQL)', () => {
  let db: TestDatabase;
  let sink: TestSmtpSink;
  let config: Config;
  let send: (input: SendEmailInput) => Promise<SendEmailResult>;

  before(async () => {
    db = await createTestDatabase();
    sink = await TestSmtpSink.start();
    // No SMTP_URL: accounts without a mailbox go to the local sink on SMTP_SINK_PORT, as in production.
    config = testConfig({ SMTP_SINK_PORT: String(sink.port), PUBLIC_BASE_URL: BASE, TRACKING_SECRET: SECRET, DEFAULT_FROM_EMAIL: 'outreach@sender.example' });
    send = sending({ sequelize: db.sequelize, config, log });
  });

  after(async () => {
    await smtpTransports.closeAll();
    await sink?.close();
    await db?.drop();
  });

  it('sends one message with Message-ID, both parts, one-click unsubscribe, tracked links and the open pixel', async () => {
    const { accountId, campaignId } = await newAccountWithCampaign(db.sequelize);
    const leadId = await newLead(db.sequelize, accountId, 'ada@lead.example');
    const result = await send(input(accountId, campaignId, leadId));
    expect(result.outcome).to.equal('sent');
    const emailId = result.emailId as string;

    const received = sink.to('ada@lead.example');
    expect(received).to.have.length(1);
    const mail = await sink.parse(received[0]!);
    const row = await emailRow(db.sequelize, emailId);
    expect(row).to.include({ status: 'sent', to_email: 'ada@lead.example', from_email: 'outreach@sender.example', mailbox_id: null, attempts: 1 });
    expect(row.smtp_response).to.match(/^250 /);
    // The Message-ID the receiver got is the one stored (replies are matched by it) and returned.
    expect(mail.messageId).to.equal(row.message_id);
    expect(result.messageId).to.equal(row.message_id);
    expect(row.message_id).to.match(new RegExp(`^<${emailId}\\.[0-9a-f]+@sender\\.example>$`));
    expect(mail.from?.value).to.deep.equal([{ address: 'outreach@sender.example', name: '' }]);
    expect(mail.to && !Array.isArray(mail.to) ? mail.to.value : []).to.deep.equal([{ address: 'ada@lead.example', name: 'Ada Lovelace' }]);
    expect(mail.subject).to.equal('Quick question (step 0)');
    expect(mail.date).to.be.instanceOf(Date);

    // RFC 8058: the one-click HTTPS URL, and the POST header exactly.
    const header = (name: string): string[] => mail.headerLines.filter((h) => h.key === name).map((h) => h.line.slice(h.line.indexOf(':') + 1).trim());
    const unsubscribeUrl = links.unsubscribeUrl(emailId);
    expect(header('list-unsubscribe')).to.deep.equal([`<${unsubscribeUrl}>`]);
    expect(header('list-unsubscribe-post')).to.deep.equal(['List-Unsubscribe=One-Click']);
    expect(links.verifyToken('unsub', unsubscribeUrl.slice(`${BASE}/u/`.length))).to.equal(emailId);

    // Plain text: the content and a visible unsubscribe link.
    expect(mail.text).to.contain('See our pricing: https://example.com/pricing');
    expect(mail.text).to.contain(`unsubscribe: ${unsubscribeUrl}`);

    // HTML: http(s) links go through signed click URLs in document order; tel, mailto, fragments and comments stay.
    const $ = load(mail.html as string);
    const hrefs = $('a').map((_i, el) => $(el).attr('href')).get();
    const click0 = links.clickUrl(emailId, 0, 'https://example.com/pricing?plan=pro&ref=mail');
    const click1 = links.clickUrl(emailId, 1, 'http://example.org/case-study');
    expect(hrefs).to.deep.equal([click0, click1, 'tel:+15551234567', 'mailto:sales@example.com', '#top', unsubscribeUrl]);
    const c0 = new URL(click0);
    expect(links.verifyClick(emailId, 0, c0.searchParams.get('u') as string, c0.searchParams.get('s') as string)).to.equal(true);
    expect(mail.html).to.contain('<!-- <a href="https://example.com/in-a-comment">not a link</a> -->');
    // The open beacon is the background of the last element of the body, the unsubscribe line (no <img>).
    expect($('body').children().last().attr('style')).to.contain(`background-image:url(${links.openPixelUrl(emailId)})`);
    expect($('img')).to.have.length(0);
    // The campaign is named as a list (RFC 2919), beside the one-click unsubscribe.
    expect(mail.headerLines.find((h) => h.key === 'list-id')?.line).to.match(/^List-ID: <cmp[-a-z0-9]*\.[a-z0-9.-]+>$/i);

    expect(mail.headers.has('dkim-signature')).to.equal(false);
  });

  it('records sent, delivered and the cost once, even when the same email is asked for again', async () => {
    const { accountId, campaignId } = await newAccountWithCampaign(db.sequelize);
    const leadId = await newLead(db.sequelize, accountId, 'twice@lead.example');
    const first = await send(input(accountId, campaignId, leadId));
    const second = await send(input(accountId, campaignId, leadId));
    expect(first.outcome).to.equal('sent');
    expect(second).to.deep.equal({ outcome: 'already_sent', emailId: first.emailId, messageId: first.messageId });
    expect(sink.to('twice@lead.example')).to.have.length(1);

    const e = first.emailId as string;
    expect(await count(db.sequelize, `SELECT count(*) AS n FROM emails WHERE campaign_id = $1`, [campaignId])).to.equal(1);
    expect(await count(db.sequelize, `SELECT count(*) AS n FROM email_events WHERE email_id = $1 AND type = 'sent'`, [e])).to.equal(1);
    expect(await count(db.sequelize, `SELECT count(*) AS n FROM email_events WHERE email_id = $1 AND type = 'delivered'`, [e])).to.equal(1);
    expect(await count(db.sequelize, `SELECT count(*) AS n FROM outbox WHERE campaign_id = $1 AND event = 'email.sent'`, [campaignId])).to.equal(1);
    expect(await count(db.sequelize, `SELECT count(*) AS n FROM outbox WHERE campaign_id = $1 AND event = 'email.delivered'`, [campaignId])).to.equal(1);
    expect(await count(db.sequelize, `SELECT count(*) AS n FROM outbox WHERE campaign_id = $1 AND event = 'cost.recorded'`, [campaignId])).to.equal(1);
    const costs = await db.sequelize.query<{ category: string; cost_name: string; feature_slug: string; amount_usd: string; idempotency_key: string }>(
      `SELECT category, cost_name, feature_slug, amount_usd, idempotency_key FROM costs WHERE campaign_id = $1`,
      { bind: [campaignId], type: 'SELECT' as never },
    );
    expect(costs).to.deep.equal([{ category: 'email_sending', cost_name: 'smtp', feature_slug: 'email-sending', amount_usd: '0.001000', idempotency_key: `send:${e}` }]);
  });

  it('a worker that died after SMTP accepted the message sends it again with the same Message-ID, marked a possible duplicate, counted once', async () => {
    const { accountId, campaignId } = await newAccountWithCampaign(db.sequelize);
    const leadId = await newLead(db.sequelize, accountId, 'crash@lead.example');
    const crashing = sending({ sequelize: db.sequelize, config, log }, {
      afterSmtpAccepted: () => {
        throw new Error('worker killed');
      },
    });
    let crashed: Error | undefined;
    await crashing(input(accountId, campaignId, leadId)).catch((err: Error) => (crashed = err));
    expect(crashed?.message).to.equal('worker killed');
    expect(sink.to('crash@lead.example')).to.have.length(1);
    const [row] = await db.sequelize.query<{ id: string; status: string; smtp_phase: string }>(`SELECT id, status, smtp_phase FROM emails WHERE campaign_id = $1`, {
      bind: [campaignId],
      type: 'SELECT' as never,
    });
    // Nothing counts yet: the acceptance was never recorded.
    expect(row).to.include({ status: 'sending', smtp_phase: 'data_sent' });
    expect(await count(db.sequelize, `SELECT count(*) AS n FROM email_events WHERE email_id = $1`, [row!.id])).to.equal(0);
    expect(await count(db.sequelize, `SELECT count(*) AS n FROM costs WHERE idempotency_key = $1`, [`send:${row!.id}`])).to.equal(0);

    const retried = await send(input(accountId, campaignId, leadId));
    expect(retried.outcome).to.equal('sent');
    expect(retried.emailId).to.equal(row?.id);
    const copies = sink.to('crash@lead.example');
    expect(copies).to.have.length(2);
    const ids = await Promise.all(copies.map(async (m) => (await sink.parse(m)).messageId));
    expect(ids[0]).to.be.a('string');
    expect(ids[1], 'the resend carries the same Message-ID, so mail systems fold the copies').to.equal(ids[0]);
    expect(ids[0]).to.equal(retried.messageId);
    const stored = await db.sequelize.query<{ status: string; smtp_phase: string; possible_duplicate: boolean; attempts: number }>(
      `SELECT status, smtp_phase, possible_duplicate, attempts FROM emails WHERE id = $1`,
      { bind: [row!.id], type: 'SELECT' as never },
    );
    expect(stored[0]).to.deep.equal({ status: 'sent', smtp_phase: 'accepted', possible_duplicate: true, attempts: 2 });
    // Counted once: one 'sent' and one 'delivered' fact, one charge, one email.sent event that says what happened.
    expect(await count(db.sequelize, `SELECT count(*) AS n FROM email_events WHERE email_id = $1 AND type = 'sent'`, [row!.id])).to.equal(1);
    expect(await count(db.sequelize, `SELECT count(*) AS n FROM email_events WHERE email_id = $1 AND type = 'delivered'`, [row!.id])).to.equal(1);
    expect(await count(db.sequelize, `SELECT count(*) AS n FROM costs WHERE idempotency_key = $1`, [`send:${row!.id}`])).to.equal(1);
    const [event] = await db.sequelize.query<{ data: { possible_duplicate?: boolean } }>(`SELECT data FROM outbox WHERE campaign_id = $1 AND event = 'email.sent'`, {
      bind: [campaignId],
      type: 'SELECT' as never,
    });
    expect(event?.data.possible_duplicate).to.equal(true);
    // A third call sends nothing.
    expect((await send(input(accountId, campaignId, leadId))).outcome).to.equal('already_sent');
    expect(sink.to('crash@lead.example')).to.have.length(2);
  });

  it('never sends to a suppressed address or a lead that bounced or unsubscribed', async () => {
    const { accountId, campaignId } = await newAccountWithCampaign(db.sequelize);
    const suppressed = await newLead(db.sequelize, accountId, 'listed@lead.example');
    await suppressAddress(db.sequelize, null, accountId, 'Listed@Lead.example', 'unsubscribe');
    const bounced = await newLead(db.sequelize, accountId, 'gone@lead.example');
    await db.sequelize.query(`UPDATE leads SET bounced_at = now() WHERE id = $1`, { bind: [bounced] });
    const unsubscribed = await newLead(db.sequelize, accountId, 'bye@lead.example');
    await db.sequelize.query(`UPDATE leads SET unsubscribed_at = now() WHERE id = $1`, { bind: [unsubscribed] });

    for (const leadId of [suppressed, bounced, unsubscribed]) {
      expect(await send(input(accountId, campaignId, leadId))).to.include({ outcome: 'suppressed' });
    }
    expect(sink.messages.filter((m) => m.to.some((t) => ['listed@lead.example', 'gone@lead.example', 'bye@lead.example'].includes(t)))).to.have.length(0);
    expect(await count(db.sequelize, `SELECT count(*) AS n FROM emails WHERE campaign_id = $1`, [campaignId])).to.equal(0);
  });

  it('a 550 marks the lead bounced and suppresses the address; the next step is not sent', async () => {
    const { accountId, campaignId } = await newAccountWithCampaign(db.sequelize);
    const leadId = await newLead(db.sequelize, accountId, 'nobody@lead.example');
    sink.refuse('nobody@lead.example', 550);
    const result = await send(input(accountId, campaignId, leadId));
    expect(result.outcome).to.equal('bounced');
    expect(sink.to('nobody@lead.example')).to.have.length(0);
    const row = await emailRow(db.sequelize, result.emailId as string);
    expect(row.status).to.equal('bounced');
    expect(row.error).to.match(/^550 /);
    const [lead] = await db.sequelize.query<{ bounced_at: Date | null }>(`SELECT bounced_at FROM leads WHERE id = $1`, { bind: [leadId], type: 'SELECT' as never });
    expect(lead?.bounced_at).to.be.instanceOf(Date);
    const [supp] = await db.sequelize.query<{ reason: string; source_email_id: string }>(`SELECT reason, source_email_id FROM suppressions WHERE account_id = $1 AND email = $2`, {
      bind: [accountId, 'nobody@lead.example'],
      type: 'SELECT' as never,
    });
    expect(supp).to.deep.equal({ reason: 'hard_bounce', source_email_id: result.emailId });
    expect(await count(db.sequelize, `SELECT count(*) AS n FROM email_events WHERE email_id = $1 AND type = 'bounced'`, [result.emailId])).to.equal(1);
    expect(await count(db.sequelize, `SELECT count(*) AS n FROM email_events WHERE email_id = $1 AND type IN ('sent', 'delivered')`, [result.emailId])).to.equal(0);
    expect(await count(db.sequelize, `SELECT count(*) AS n FROM costs WHERE campaign_id = $1`, [campaignId])).to.equal(0);

    // The same step again reports the bounce; the follow-up, even in another campaign, is suppressed.
    expect((await send(input(accountId, campaignId, leadId))).outcome).to.equal('bounced');
    sink.accept('nobody@lead.example');
    expect(await send(input(accountId, campaignId, leadId, 1))).to.include({ outcome: 'suppressed' });
    const other = await newCampaign(db.sequelize, accountId);
    expect(await send(input(accountId, other, leadId))).to.include({ outcome: 'suppressed' });
    expect(sink.to('nobody@lead.example')).to.have.length(0);
  });

  it('a 451 throws a SmtpTemporaryFailure, a retryable SmtpTemporary at the activity boundary; the retry sends once with the same Message-ID', async () => {
    const { accountId, campaignId } = await newAccountWithCampaign(db.sequelize);
    const leadId = await newLead(db.sequelize, accountId, 'busy@lead.example');
    sink.refuse('busy@lead.example', 451);
    const failure = await rejection(send(input(accountId, campaignId, leadId)), SmtpTemporaryFailure);
    expect(failure.type).to.equal('SmtpTemporary');
    expect(failure.nonRetryable).to.equal(false);
    expect(failure.message).to.match(/^451 /);
    const [row] = await db.sequelize.query<{ id: string; status: string; attempts: number; message_id: string; error: string }>(
      `SELECT id, status, attempts, message_id, error FROM emails WHERE campaign_id = $1`,
      { bind: [campaignId], type: 'SELECT' as never },
    );
    expect(row).to.include({ status: 'deferred', attempts: 1 });
    expect(row?.error).to.match(/^451 /);
    expect(sink.to('busy@lead.example')).to.have.length(0);

    sink.accept('busy@lead.example');
    const retried = await send(input(accountId, campaignId, leadId));
    expect(retried).to.deep.equal({ outcome: 'sent', emailId: row?.id, messageId: row?.message_id });
    expect(await send(input(accountId, campaignId, leadId))).to.deep.include({ outcome: 'already_sent' });
    const received = sink.to('busy@lead.example');
    expect(received).to.have.length(1);
    expect((await sink.parse(received[0]!)).messageId).to.equal(row?.message_id);
    expect(await emailRow(db.sequelize, row!.id)).to.include({ status: 'sent', attempts: 2, error: null });
    expect(await count(db.sequelize, `SELECT count(*) AS n FROM costs WHERE campaign_id = $1`, [campaignId])).to.equal(1);
  });

  it('a refused connection is a temporary failure too', async () => {
    const { accountId, campaignId } = await newAccountWithCampaign(db.sequelize);
    const leadId = await newLead(db.sequelize, accountId, 'down@lead.example');
    // Port 1: nothing listens there.
    const down = sending({ sequelize: db.sequelize, config: { ...config, smtpUrl: 'smtp://127.0.0.1:1' }, log });
    const failure = await rejection(down(input(accountId, campaignId, leadId)), SmtpTemporaryFailure);
    expect(failure.type).to.equal('SmtpTemporary');
    expect(failure.nonRetryable).to.equal(false);
    expect((await db.sequelize.query<{ status: string }>(`SELECT status FROM emails WHERE campaign_id = $1`, { bind: [campaignId], type: 'SELECT' as never }))[0]?.status).to.equal('deferred');
  });

  it('a suppression that arrives while an email waits for its retry stops it', async () => {
    const { accountId, campaignId } = await newAccountWithCampaign(db.sequelize);
    const leadId = await newLead(db.sequelize, accountId, 'later@lead.example');
    sink.refuse('later@lead.example', 421);
    await rejection(send(input(accountId, campaignId, leadId)), SmtpTemporaryFailure);
    sink.accept('later@lead.example');
    await suppressAddress(db.sequelize, null, accountId, 'later@lead.example', 'unsubscribe');
    const result = await send(input(accountId, campaignId, leadId));
    expect(result.outcome).to.equal('suppressed');
    expect(sink.to('later@lead.example')).to.have.length(0);
    expect((await emailRow(db.sequelize, result.emailId as string)).status).to.equal('failed');
  });

  it('threads a follow-up under the first email with In-Reply-To and References', async () => {
    const { accountId, campaignId } = await newAccountWithCampaign(db.sequelize);
    const leadId = await newLead(db.sequelize, accountId, 'thread@lead.example');
    const first = await send(input(accountId, campaignId, leadId, 0));
    const follow = await send(input(accountId, campaignId, leadId, 1, { inReplyTo: first.messageId }));
    expect(follow.outcome).to.equal('sent');
    expect(follow.messageId).to.not.equal(first.messageId);
    const [m0, m1] = sink.to('thread@lead.example');
    const parsed0 = await sink.parse(m0!);
    const parsed1 = await sink.parse(m1!);
    expect(parsed0.inReplyTo).to.equal(undefined);
    expect(parsed1.inReplyTo).to.equal(first.messageId);
    expect(parsed1.references).to.equal(first.messageId);
    expect(parsed1.messageId).to.equal(follow.messageId);
  });

  describe('mailboxes', () => {
    const mailboxUrl = (): string => `smtp://user%40x:p%3Ass@127.0.0.1:${sink.port}`;

    it('a daily cap of 1 lets one of two concurrent sends through; the other is deferred until UTC midnight', async () => {
      const { accountId, campaignId } = await newAccountWithCampaign(db.sequelize);
      await newMailbox(db.sequelize, accountId, { fromEmail: 'capped@sender.example', smtpUrl: mailboxUrl(), dailyCap: 1, minGapSeconds: 0 });
      const a = await newLead(db.sequelize, accountId, 'cap-a@lead.example');
      const b = await newLead(db.sequelize, accountId, 'cap-b@lead.example');
      const results = await Promise.all([send(input(accountId, campaignId, a)), send(input(accountId, campaignId, b))]);
      expect(results.map((r) => r.outcome).sort()).to.deep.equal(['deferred', 'sent']);
      const deferred = results.find((r) => r.outcome === 'deferred')!;
      const now = new Date();
      const toMidnight = (Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1) - now.getTime()) / 1000;
      expect(deferred.retryAfterSeconds).to.be.within(Math.max(1, toMidnight - 60), toMidnight + 5);
      expect(deferred.emailId).to.equal(undefined);
      expect(sink.messages.filter((m) => m.from === 'capped@sender.example')).to.have.length(1);
      const [mbx] = await db.sequelize.query<{ sent_today: number }>(`SELECT sent_today FROM mailboxes WHERE account_id = $1`, { bind: [accountId], type: 'SELECT' as never });
      expect(mbx?.sent_today).to.equal(1);
    });

    it('a minimum gap lets one of two concurrent sends through; the other waits for the gap', async () => {
      const { accountId, campaignId } = await newAccountWithCampaign(db.sequelize);
      await newMailbox(db.sequelize, accountId, { fromEmail: 'gapped@sender.example', smtpUrl: mailboxUrl(), dailyCap: 100, minGapSeconds: 3600 });
      const a = await newLead(db.sequelize, accountId, 'gap-a@lead.example');
      const b = await newLead(db.sequelize, accountId, 'gap-b@lead.example');
      const results = await Promise.all([send(input(accountId, campaignId, a)), send(input(accountId, campaignId, b))]);
      expect(results.map((r) => r.outcome).sort()).to.deep.equal(['deferred', 'sent']);
      expect(results.find((r) => r.outcome === 'deferred')?.retryAfterSeconds).to.be.within(3500, 3600);
      expect(sink.messages.filter((m) => m.from === 'gapped@sender.example')).to.have.length(1);
    });

    it('rotates across two mailboxes, least recently used first, with their own From', async () => {
      const { accountId, campaignId } = await newAccountWithCampaign(db.sequelize);
      const one = await newMailbox(db.sequelize, accountId, { fromEmail: 'one@sender.example', fromName: 'Sam One', smtpUrl: mailboxUrl() });
      const two = await newMailbox(db.sequelize, accountId, { fromEmail: 'two@sender.example', fromName: 'Sam Two', smtpUrl: mailboxUrl() });
      const used: string[] = [];
      for (let i = 0; i < 4; i++) {
        const leadId = await newLead(db.sequelize, accountId, `rot-${i}@lead.example`);
        const r = await send(input(accountId, campaignId, leadId));
        expect(r.outcome).to.equal('sent');
        used.push((await emailRow(db.sequelize, r.emailId as string)).mailbox_id as string);
      }
      // Neither has sent before: the first is either; after that they alternate.
      expect(new Set(used)).to.deep.equal(new Set([one, two]));
      expect(used[0]).to.not.equal(used[1]);
      expect(used[2]).to.equal(used[0]);
      expect(used[3]).to.equal(used[1]);
      const froms = await Promise.all(
        [0, 1, 2, 3].map(async (i) => (await sink.parse(sink.to(`rot-${i}@lead.example`)[0]!)).from?.value[0]),
      );
      expect(froms.map((f) => f?.address)).to.deep.equal(used.map((id) => (id === one ? 'one@sender.example' : 'two@sender.example')));
      expect(froms[0]?.name).to.match(/^Sam (One|Two)$/);
    });

    it('signs with the mailbox DKIM key, covering both List-Unsubscribe headers', async () => {
      const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
      const { accountId, campaignId } = await newAccountWithCampaign(db.sequelize);
      await newMailbox(db.sequelize, accountId, {
        fromEmail: 'signed@sender.example',
        smtpUrl: mailboxUrl(),
        dkim: { domain: 'sender.example', selector: 'mail2026', privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }) as string },
      });
      const leadId = await newLead(db.sequelize, accountId, 'dkim@lead.example');
      expect((await send(input(accountId, campaignId, leadId))).outcome).to.equal('sent');
      const [m] = sink.to('dkim@lead.example');
      const check = verifyDkim(m!.raw, publicKey);
      expect(check.tags).to.include({ d: 'sender.example', s: 'mail2026', a: 'rsa-sha256' });
      expect(check.signedHeaders).to.include.members(['from', 'to', 'subject', 'message-id', 'list-unsubscribe', 'list-unsubscribe-post']);
      expect(check.bodyHashOk).to.equal(true);
      expect(check.signatureOk).to.equal(true);
      // The check can fail: another key does not verify it.
      expect(verifyDkim(m!.raw, generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey).signatureOk).to.equal(false);
    });

    it('refuses a mailbox whose SMTP host is loopback when loopback egress is off, without sending', async () => {
      const { accountId, campaignId } = await newAccountWithCampaign(db.sequelize);
      await newMailbox(db.sequelize, accountId, { fromEmail: 'inside@sender.example', smtpUrl: mailboxUrl() });
      const leadId = await newLead(db.sequelize, accountId, 'ssrf@lead.example');
      const strict = sending({ sequelize: db.sequelize, config: { ...config, allowLoopbackEgress: false }, log });
      const failure = await rejection(strict(input(accountId, campaignId, leadId)), SmtpSenderRejected);
      expect(failure.type).to.equal('SmtpSenderRejected');
      expect(failure.message).to.match(/loopback/);
      expect(sink.to('ssrf@lead.example')).to.have.length(0);
    });
  });

  it('an unknown lead is a non-retryable failure', async () => {
    const { accountId } = await createAccount(db.sequelize);
    const campaignId = await newCampaign(db.sequelize, accountId);
    const failure = await rejection(send(input(accountId, campaignId, 'lead_doesnotexist')), NotFoundError);
    expect(failure.type).to.equal('LeadNotFound');
    expect(failure.nonRetryable).to.equal(true);
  });
});

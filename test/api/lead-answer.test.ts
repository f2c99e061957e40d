import { generateKeyPairSync } from 'node:crypto';
import { expect } from 'chai';
import { simpleParser, type ParsedMail } from 'mailparser';
import { QueryTypes } from 'sequelize';
import { newId } from '../../src/accounts/ids';
import { erasedAddress } from '../../src/leads/erase-lead';
import { normalMessageId, referencesOf, replySubject } from '../../src/conversations/answer/threading';
import { Email, Lead, Mailbox, Suppression, type Campaign } from '../../src/db/models';
import { createLogger } from '../../src/log/logger';
import { startMailSink, type SunkMessage } from '../../src/mail-sink/mail-sink';
import { freePort } from '../../src/net/ports';
import { smtpTransports } from '../../src/sending/transports';
import { createAccount, request, startTestApi, surfaceB, testConfig, type JsonResponse } from '../support/api';
import { seedCampaign, seedLead, seedReply } from '../support/campaign-seed';
import { useCampaignStack } from '../support/campaign-stack';
import { TestSmtpSink } from '../support/smtp-sink';

const MINUTE = 60_000;

interface Answer {
  id: string;
  leadId: string;
  status: 'sending' | 'sent' | 'failed';
  messageId: string;
  from: string;
  fromName: string | null;
  to: string;
  cc: string[];
  subject: string;
  inReplyTo: string | null;
  references: string[];
  mailboxId: string | null;
  campaignId: string | null;
  text: string;
  error: string | null;
  sentAt: string | null;
}

/** A lead's conversation written straight to PostgreSQL: a campaign email from a mailbox, the lead's reply, its sequence still under way. */
interface Seeded {
  readonly lead: Lead;
  readonly email: Email;
  readonly replyMessageId: string;
}

/**
 * Answers in the thread on the real stack: PostgreSQL, a Temporal dev server, the worker with the
 * real activities, the API; the mailbox's SMTP server is a local sink, and what it received is read
 * with mailparser.
 */
describe('answers in the thread (POST /v1/leads/:id/reply, GET /v1/leads/:id/answers/:answerId)', function () {
  this.timeout(120_000);
  const s = useCampaignStack();
  let key: string;
  let accountId: string;
  let otherKey: string;
  let campaign: Campaign;
  let mailbox: Mailbox;
  let mailboxSink: TestSmtpSink;
  const MAILBOX_ADDRESS = 'maria@sender.example';
  const DKIM_DOMAIN = 'sender.example';

  before(async () => {
    ({ apiKey: key, accountId } = await createAccount(s.db.sequelize, 'pro', 'Answer Co'));
    otherKey = (await createAccount(s.db.sequelize, 'pro', 'Other Co')).apiKey;
    mailboxSink = await TestSmtpSink.start();
    campaign = await seedCampaign(accountId, { createdAt: new Date(Date.now() - 60 * MINUTE), startedAt: new Date(Date.now() - 60 * MINUTE) });
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    mailbox = await Mailbox.create({
      id: newId('mbx'),
      accountId,
      fromEmail: MAILBOX_ADDRESS,
      fromName: 'Maria Costa',
      signature: 'Maria Costa\nHead of Partnerships',
      smtpUrl: mailboxSink.url,
      dkimDomain: DKIM_DOMAIN,
      dkimSelector: 'mail',
      dkimPrivateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    });
  });

  after(async () => {
    await smtpTransports.closeAll();
    await mailboxSink?.close();
  });

  const api = <T>(path: string, init: RequestInit & { k?: string; idem?: string } = {}): Promise<JsonResponse<T>> =>
    request<T>(`${s.api.baseUrl}${path}`, {
      ...init,
      headers: { 'Content-Type': 'application/json', ...surfaceB(init.k ?? key), ...(init.idem === undefined ? {} : { 'Idempotency-Key': init.idem }) },
    });

  const answer = (leadId: string, body: unknown, init: { k?: string; idem?: string } = {}) =>
    api<Answer>(`/v1/leads/${leadId}/reply`, { method: 'POST', body: JSON.stringify(body), ...init });

  /** A campaign email to a new lead through `through` (null: the default sender), the lead's reply, and its enrolment in_sequence. */
  async function seedConversation(through: Mailbox | null = mailbox): Promise<Seeded> {
    const lead = await seedLead(accountId);
    const id = newId('em');
    const fromEmail = through?.fromEmail ?? testConfig(s.env).defaultFromEmail;
    const email = await Email.create({
      id,
      accountId,
      campaignId: campaign.id,
      leadId: lead.id,
      step: 0,
      mailboxId: through?.id ?? null,
      fromEmail,
      toEmail: lead.email,
      subject: 'Quick question',
      messageId: `<${id}.a1b2@${fromEmail.split('@')[1]}>`,
      status: 'sent',
      sentAt: new Date(Date.now() - 10 * MINUTE),
    });
    const reply = await seedReply(email, lead, { receivedAt: new Date(Date.now() - 5 * MINUTE), preview: 'Sounds interesting, tell me more' });
    await s.db.sequelize.query(
      `INSERT INTO campaign_enrolments (campaign_id, lead_id, account_id, state, step, source) VALUES ($1, $2, $3, 'in_sequence', 0, 'audience')`,
      { bind: [campaign.id, lead.id, accountId] },
    );
    return { lead, email, replyMessageId: reply.messageId! };
  }

  async function enrolmentOf(leadId: string): Promise<{ state: string; reason: string | null }> {
    const [row] = await s.db.sequelize.query<{ state: string; reason: string | null }>(
      'SELECT state, reason FROM campaign_enrolments WHERE campaign_id = $1 AND lead_id = $2',
      { bind: [campaign.id, leadId], type: QueryTypes.SELECT },
    );
    return row!;
  }

  async function answersStored(leadId: string): Promise<number> {
    const [row] = await s.db.sequelize.query<{ n: number }>(`SELECT count(*)::int AS n FROM service_emails WHERE lead_id = $1`, { bind: [leadId], type: QueryTypes.SELECT });
    return row!.n;
  }

  async function sentToday(mailboxId: string): Promise<number> {
    const res = await api<{ mailboxes: Array<{ id: string; sentToday: number }> }>('/v1/mailboxes');
    return res.body.mailboxes.find((m) => m.id === mailboxId)!.sentToday;
  }

  async function received(sink: { messages: SunkMessage[] }, address: string, n: number): Promise<SunkMessage[]> {
    const deadline = Date.now() + 60_000;
    const to = (): SunkMessage[] => sink.messages.filter((m) => m.to.includes(address));
    while (to().length < n && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    return to();
  }

  async function answerOf(leadId: string, id: string): Promise<Answer> {
    const res = await api<Answer>(`/v1/leads/${leadId}/answers/${id}`);
    expect(res.status, res.text).to.equal(200);
    return res.body;
  }

  describe('an answer to a lead written by a mailbox', () => {
    let c: Seeded;
    let first: JsonResponse<Answer>;
    let mail: ParsedMail;
    let countedBefore: number;
    const body = 'Hi Ada,\n\nThanks for getting back to me. Would Tuesday at 10:00 work? Details: https://target.example/demo\n\nBest,\nMaria';

    before(async () => {
      c = await seedConversation();
      countedBefore = await sentToday(mailbox.id);
      first = await answer(c.lead.id, { body, cc: ['Boss@Client.example'] }, { idem: `answer-${c.lead.id}` });
    });

    it('answers 201 once the mailbox server took it, with the threading it was sent with', async () => {
      expect(first.status, first.text).to.equal(201);
      expect(first.body).to.include({ status: 'sent', from: MAILBOX_ADDRESS, fromName: 'Maria Costa', to: c.lead.email, subject: 'Re: Quick question', inReplyTo: c.replyMessageId });
      expect(first.body.cc).to.deep.equal(['boss@client.example']);
      expect(first.body.references).to.deep.equal([c.email.messageId, c.replyMessageId]);
      expect(first.body.mailboxId).to.equal(mailbox.id);
      expect(first.body.campaignId).to.equal(campaign.id);
      expect(first.body.sentAt).to.be.a('string');
      expect(first.headers.get('location')).to.equal(`/v1/leads/${c.lead.id}/answers/${first.body.id}`);
    });

    it('the mailbox server received it: From the mailbox, To the lead, Cc, "Re:" subject, In-Reply-To the reply, References the thread, the text and signature, DKIM-signed', async () => {
      const got = await received(mailboxSink, c.lead.email, 1);
      expect(got, 'one message at the mailbox server').to.have.length(1);
      expect(got[0]!.to).to.include('boss@client.example');
      mail = await mailboxSink.parse(got[0]!);
      expect(mail.from?.value[0]).to.deep.include({ address: MAILBOX_ADDRESS, name: 'Maria Costa' });
      expect((Array.isArray(mail.to) ? mail.to[0] : mail.to)?.value.map((v) => v.address)).to.deep.equal([c.lead.email]);
      expect((Array.isArray(mail.cc) ? mail.cc[0] : mail.cc)?.value.map((v) => v.address)).to.deep.equal(['boss@client.example']);
      expect(mail.subject).to.equal('Re: Quick question');
      expect(mail.messageId).to.equal(first.body.messageId);
      expect(mail.inReplyTo).to.equal(c.replyMessageId);
      const refs = [mail.references ?? []].flat();
      expect(refs).to.include(c.email.messageId).and.to.include(c.replyMessageId);
      expect(mail.text).to.include('Would Tuesday at 10:00 work?');
      // The sign-off's "Maria" is not repeated above the signature that starts with her name.
      expect(mail.text).to.include('Best,\n\nMaria Costa\nHead of Partnerships');
      expect(mail.html).to.include('<p').and.to.include('<a href="https://target.example/demo">');
      // Written by a person: vacation responders may answer it; and no campaign list or tracking headers.
      expect(mail.headers.has('auto-submitted')).to.equal(false);
      expect(mail.headers.has('list-unsubscribe')).to.equal(false);
      const dkim = /^DKIM-Signature:(.*(?:\r\n[ \t].*)*)/m.exec(got[0]!.raw.toString('utf8'))?.[1] ?? '';
      expect(dkim, 'DKIM-Signature header').to.include(`d=${DKIM_DOMAIN}`).and.to.include('s=mail');
      // Nothing went through the default transport.
      expect(s.sink.to(c.lead.email)).to.have.length(0);
    });

    it("ends the lead's sequence (finished, answered by the user), counts the mailbox's day and charges the email", async () => {
      expect(await enrolmentOf(c.lead.id)).to.deep.equal({ state: 'finished', reason: 'answered by the user' });
      expect(await sentToday(mailbox.id)).to.equal(countedBefore + 1);
      const costs = await s.db.sequelize.query<{ category: string; campaign_id: string | null }>(
        `SELECT category, campaign_id FROM costs WHERE account_id = $1 AND idempotency_key = $2`,
        { bind: [accountId, `send:${first.body.id}`], type: QueryTypes.SELECT },
      );
      expect(costs).to.deep.equal([{ category: 'email_sending', campaign_id: campaign.id }]);
    });

    it('GET /v1/leads/:id/answers/:answerId shows it sent; another account or another lead gets a 404', async () => {
      expect(await answerOf(c.lead.id, first.body.id)).to.deep.include({ status: 'sent', messageId: first.body.messageId, error: null });
      expect((await api(`/v1/leads/${c.lead.id}/answers/${first.body.id}`, { k: otherKey })).status).to.equal(404);
      const other = await seedLead(accountId);
      expect((await api(`/v1/leads/${other.id}/answers/${first.body.id}`)).status).to.equal(404);
    });

    it('the same Idempotency-Key again answers the first answer and sends nothing new', async () => {
      const again = await answer(c.lead.id, { body, cc: ['Boss@Client.example'] }, { idem: `answer-${c.lead.id}` });
      expect(again.status).to.equal(201);
      expect(again.headers.get('idempotent-replayed')).to.equal('true');
      expect(again.body.id).to.equal(first.body.id);
      await new Promise((r) => setTimeout(r, 500));
      expect(mailboxSink.to(c.lead.email)).to.have.length(1);
      expect(await answersStored(c.lead.id)).to.equal(1);
      expect(await sentToday(mailbox.id)).to.equal(countedBefore + 1);
    });

    it('a second answer threads under the first (In-Reply-To the first answer) with the subject given', async () => {
      const second = await answer(c.lead.id, { body: 'One more thing: bring the numbers.', subject: 'Numbers for Tuesday' });
      expect(second.status, second.text).to.equal(201);
      expect(second.body).to.include({ subject: 'Numbers for Tuesday', inReplyTo: first.body.messageId, from: MAILBOX_ADDRESS });
      expect(second.body.references).to.deep.equal([c.email.messageId, c.replyMessageId, first.body.messageId]);
      const got = await received(mailboxSink, c.lead.email, 2);
      const parsed = await mailboxSink.parse(got[1]!);
      expect(parsed.inReplyTo).to.equal(first.body.messageId);
      expect(parsed.subject).to.equal('Numbers for Tuesday');
      expect(await sentToday(mailbox.id)).to.equal(countedBefore + 2);
    });
  });

  it('a lead whose mailbox was deactivated is answered from the same address over the default server', async () => {
    const old = await Mailbox.create({ id: newId('mbx'), accountId, fromEmail: 'old@sender.example', fromName: 'Olga Old', smtpUrl: mailboxSink.url, active: false });
    const c = await seedConversation(old);
    const res = await answer(c.lead.id, { body: 'Still here, and happy to help.' });
    expect(res.status, res.text).to.equal(201);
    expect(res.body).to.include({ status: 'sent', from: 'old@sender.example', fromName: 'Olga Old', mailboxId: old.id });
    const got = await received(s.sink, c.lead.email, 1);
    expect(got).to.have.length(1);
    expect((await s.sink.parse(got[0]!)).from?.value[0]?.address).to.equal('old@sender.example');
    expect(mailboxSink.to(c.lead.email)).to.have.length(0);
  });

  it('a lead written by the default sender is answered from the same address over the default server, uncounted', async () => {
    const c = await seedConversation(null);
    const res = await answer(c.lead.id, { body: 'Thanks, noted.' });
    expect(res.status, res.text).to.equal(201);
    expect(res.body).to.include({ status: 'sent', from: c.email.fromEmail, mailboxId: null, fromName: 'Target', inReplyTo: c.replyMessageId });
    const got = await received(s.sink, c.lead.email, 1);
    expect(got).to.have.length(1);
    expect((await s.sink.parse(got[0]!)).from?.value[0]?.address).to.equal(c.email.fromEmail);
  });

  it('an address the mailbox server refuses for good (550) is a failed answer, not retried and not charged', async () => {
    const c = await seedConversation();
    mailboxSink.refuse(c.lead.email, 550);
    const res = await answer(c.lead.id, { body: 'Hello again.' });
    expect(res.status, res.text).to.equal(201);
    expect(res.body.status).to.equal('failed');
    expect(res.body.error).to.match(/550/);
    const [cost] = await s.db.sequelize.query<{ n: number }>(`SELECT count(*)::int AS n FROM costs WHERE idempotency_key = $1`, { bind: [`send:${res.body.id}`], type: QueryTypes.SELECT });
    expect(cost!.n).to.equal(0);
  });

  it('a Cc the server refuses while it takes the answer for the lead: sent, and the refused address named', async () => {
    const c = await seedConversation();
    mailboxSink.refuse('gone@client.example', 550);
    const res = await answer(c.lead.id, { body: 'Copying my colleague.', cc: ['gone@client.example'] });
    expect(res.status, res.text).to.equal(201);
    expect(res.body.status).to.equal('sent');
    expect(res.body.error).to.equal('the server refused gone@client.example');
    expect(await received(mailboxSink, c.lead.email, 1)).to.have.length(1);
  });

  it("erasing the lead (DELETE /v1/leads/:id) empties what its answers and its replies hold of the person", async () => {
    const c = await seedConversation();
    const res = await answer(c.lead.id, { body: 'Personal words.', cc: ['friend@client.example'] });
    expect(res.status, res.text).to.equal(201);
    const erased = await request(`${s.api.baseUrl}/v1/leads/${c.lead.id}`, { method: 'DELETE', headers: surfaceB(key) });
    expect(erased.status, erased.text).to.equal(204);
    const [row] = await s.db.sequelize.query<Record<string, unknown>>(
      'SELECT to_email, subject, cc, body_text, body_html, status FROM service_emails WHERE id = $1',
      { bind: [res.body.id], type: QueryTypes.SELECT },
    );
    expect(row).to.deep.equal({ to_email: erasedAddress(c.lead.id), subject: '', cc: [], body_text: null, body_html: null, status: 'sent' });
    const replies = await s.db.sequelize.query<{ body_text: string; body_html: string | null }>('SELECT body_text, body_html FROM replies WHERE lead_id = $1', {
      bind: [c.lead.id],
      type: QueryTypes.SELECT,
    });
    expect(replies).to.not.be.empty;
    for (const r of replies) expect(r).to.deep.equal({ body_text: '', body_html: null });
  });

  describe('refused with the reason (409), nothing stored, the sequence left as it was', () => {
    async function expectRefused(leadId: string, reason: string): Promise<void> {
      const res = await api<{ error: string; reason: string }>(`/v1/leads/${leadId}/reply`, { method: 'POST', body: JSON.stringify({ body: 'Hello' }) });
      expect(res.status, res.text).to.equal(409);
      expect(res.body.reason).to.equal(reason);
      expect(res.body.error).to.be.a('string').and.not.equal('');
      expect(await answersStored(leadId)).to.equal(0);
    }

    it('a lead who unsubscribed (on the suppression list)', async () => {
      const c = await seedConversation();
      await Suppression.create({ accountId, email: c.lead.email, reason: 'unsubscribe' });
      await expectRefused(c.lead.id, 'unsubscribed');
      expect((await enrolmentOf(c.lead.id)).state).to.equal('in_sequence');
    });

    it('a lead whose address bounced', async () => {
      const c = await seedConversation();
      await Lead.update({ bouncedAt: new Date() }, { where: { id: c.lead.id } });
      await expectRefused(c.lead.id, 'bounced');
    });

    it("a lead on the account's blocklist (its domain)", async () => {
      const c = await seedConversation();
      await s.db.sequelize.query(`INSERT INTO blocklist_entries (account_id, kind, value, source) VALUES ($1, 'domain', $2, 'user')`, {
        bind: [accountId, c.lead.email.split('@')[1]],
      });
      await expectRefused(c.lead.id, 'blocklisted');
      await s.db.sequelize.query(`DELETE FROM blocklist_entries WHERE account_id = $1`, { bind: [accountId] });
    });

    it('a lead nothing was ever sent to', async () => {
      await expectRefused((await seedLead(accountId)).id, 'no_conversation');
    });
  });

  it("another account's lead, or an unknown id, is a 404 and nothing is sent", async () => {
    const c = await seedConversation();
    const res = await answer(c.lead.id, { body: 'Hello' }, { k: otherKey });
    expect(res.status).to.equal(404);
    expect(res.body).to.have.property('error');
    expect((await answer('lead_doesnotexist', { body: 'Hello' })).status).to.equal(404);
    expect(await answersStored(c.lead.id)).to.equal(0);
  });

  describe('bad input is a 400 naming the field (a 413 for a body over the limit)', () => {
    let leadId: string;
    before(async () => {
      leadId = (await seedConversation()).lead.id;
    });

    const cases: Array<[string, unknown, RegExp]> = [
      ['no body', {}, /body.*"body"/],
      ['an empty body', { body: '' }, /body\.body/],
      ['a blank body', { body: '  \n ' }, /body\.body must not be blank/],
      ['a body over 100,000 characters', { body: 'a'.repeat(100_001) }, /body\.body/],
      ['a cc that is not an address', { body: 'Hi', cc: ['not-an-address'] }, /body\.cc\.0/],
      ['a cc carrying a header', { body: 'Hi', cc: ['a@b.example\r\nBcc: x@y.example'] }, /body\.cc\.0/],
      ['an empty cc list', { body: 'Hi', cc: [] }, /body\.cc/],
      ['eleven cc addresses', { body: 'Hi', cc: Array.from({ length: 11 }, (_, i) => `p${i}@c.example`) }, /body\.cc/],
      ['a subject on two lines', { body: 'Hi', subject: 'Hello\r\nBcc: x@y.example' }, /body\.subject/],
      ['an unknown field', { body: 'Hi', bcc: ['x@y.example'] }, /unknown field "bcc"/],
    ];
    for (const [what, body, error] of cases) {
      it(what, async () => {
        const res = await answer(leadId, body);
        expect(res.status, res.text).to.equal(400);
        expect(res.body).to.have.property('error').that.matches(error);
      });
    }

    it('a 5 MB body', async () => {
      const res = await answer(leadId, { body: 'a'.repeat(5 * 1024 * 1024) });
      expect(res.status).to.equal(413);
      expect(res.body).to.deep.equal({ error: 'Request body is larger than 1 MB' });
    });

    it('none of them stored or sent anything', async () => {
      expect(await answersStored(leadId)).to.equal(0);
      expect((await enrolmentOf(leadId)).state).to.equal('in_sequence');
    });
  });

  it('its SMTP server down at first: 202 sending, then sent once the server is up, exactly one message', async function () {
    this.timeout(90_000);
    const port = await freePort();
    const downBox = await Mailbox.create({ id: newId('mbx'), accountId, fromEmail: 'late@sender.example', fromName: 'Lena Late', smtpUrl: `smtp://127.0.0.1:${port}` });
    const c = await seedConversation(downBox);
    const res = await answer(c.lead.id, { body: 'Sorry for the wait.' });
    expect(res.status, res.text).to.equal(202);
    expect(res.body.status).to.equal('sending');
    expect((await answerOf(c.lead.id, res.body.id)).error).to.be.a('string');
    // Stored and counted already: the sequence ended with the answer, not with its delivery.
    expect((await enrolmentOf(c.lead.id)).state).to.equal('finished');

    const messages: SunkMessage[] = [];
    const sink = await startMailSink({ port, dir: null, log: createLogger('silent', 'test'), onMessage: (m) => messages.push(m) });
    try {
      const deadline = Date.now() + 60_000;
      let now = await answerOf(c.lead.id, res.body.id);
      while (now.status === 'sending' && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 250));
        now = await answerOf(c.lead.id, res.body.id);
      }
      expect(now.status).to.equal('sent');
      await new Promise((r) => setTimeout(r, 500));
      expect(messages.filter((m) => m.to.includes(c.lead.email))).to.have.length(1);
      const parsed = await simpleParser(messages[0]!.raw);
      expect(parsed.messageId).to.equal(res.body.messageId);
      expect(parsed.from?.value[0]?.address).to.equal('late@sender.example');
    } finally {
      // The worker's pooled connection would hold the sink's close for its 30 s grace.
      await smtpTransports.closeAll();
      await sink.close();
    }
  });

  it('Temporal unreachable: 503, nothing stored, the sequence still under way', async () => {
    const c = await seedConversation();
    // The same database, an API whose Temporal address answers nothing.
    const down = await startTestApi(s.db.sequelize, { env: s.env });
    try {
      const res = await request<{ error: string }>(`${down.baseUrl}/v1/leads/${c.lead.id}/reply`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...surfaceB(key), 'Idempotency-Key': `down-${c.lead.id}` },
        body: JSON.stringify({ body: 'Hello' }),
      });
      expect(res.status, res.text).to.equal(503);
      expect(res.body.error).to.match(/unavailable/);
    } finally {
      await down.close();
    }
    expect(await answersStored(c.lead.id)).to.equal(0);
    expect((await enrolmentOf(c.lead.id)).state).to.equal('in_sequence');
    // The key was not spent on the 503: the same request through the working API sends it.
    const res = await answer(c.lead.id, { body: 'Hello' }, { idem: `down-${c.lead.id}` });
    expect(res.status, res.text).to.equal(201);
  });
});

describe('threading an answer (pure): its subject and References', () => {
  it('"Re: " and the last subject, without stacking the prefixes mail clients write', () => {
    expect(replySubject('Quick question')).to.equal('Re: Quick question');
    expect(replySubject('Re: Quick question')).to.equal('Re: Quick question');
    expect(replySubject('RE: re:Re[2]: AW: Quick question')).to.equal('Re: Quick question');
    expect(replySubject('Fwd: Quick question')).to.equal('Re: Fwd: Quick question');
    expect(replySubject('Two\r\nlines')).to.equal('Re: Two lines');
    expect(replySubject('')).to.equal('Re:');
    expect([...replySubject('x'.repeat(400))]).to.have.length(300);
  });

  it('References: each id once, in order; beyond 20 the first and the last 19', () => {
    expect(referencesOf(['<a@x>', '<b@x>', '<a@x>', '<c@x>'])).to.deep.equal(['<a@x>', '<b@x>', '<c@x>']);
    const ids = Array.from({ length: 30 }, (_, i) => `<m${i}@x>`);
    const refs = referencesOf(ids);
    expect(refs).to.have.length(20);
    expect(refs[0]).to.equal('<m0@x>');
    expect(refs.slice(1)).to.deep.equal(ids.slice(11));
  });

  it('a stored Message-ID is used only in its <id> form, never with what could start another header', () => {
    expect(normalMessageId('abc@x.example')).to.equal('<abc@x.example>');
    expect(normalMessageId(' <abc@x.example> ')).to.equal('<abc@x.example>');
    expect(normalMessageId('<abc@x.example>\r\nBcc: y@z.example')).to.equal(null);
    expect(normalMessageId('<a b@x>')).to.equal(null);
    expect(normalMessageId(null)).to.equal(null);
  });
});

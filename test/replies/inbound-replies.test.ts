import { expect } from 'chai';
import nodemailer from 'nodemailer';
import { createLogger } from '../../src/log/logger';
import { startInboundSmtp, type RunningInboundSmtp } from '../../src/inbound/smtp-listener';
import { replyQualifier } from '../../src/replies/qualify-reply';
import { serviceSecret } from '../../src/config/service-secret-repository';
import { createSequelize } from '../../src/db/sequelize';
import { request, testConfig, useTestApi } from '../support/api';
import { loadMime } from './mime-fixtures';
import { rows, seedSentEmail, type SentFixture } from './seed';

interface Stored {
  replyId: string;
  kind: string;
  matched: boolean;
  campaignId: string | null;
  emailId: string | null;
  duplicate: boolean;
}

describe('inbound replies (POST /inbound/mime and the SMTP listener)', () => {
  const t = useTestApi();
  let secret: string;

  before(async () => {
    // No INBOUND_SECRET in the environment: the generated one (what `outreach secrets show` prints).
    secret = await serviceSecret(t.db.sequelize, 'inbound', undefined);
  });

  const post = (raw: Buffer, headers: Record<string, string> = { 'X-Inbound-Secret': secret }) =>
    request<Stored & { error?: string }>(`${t.api.baseUrl}/inbound/mime`, { method: 'POST', headers: { 'Content-Type': 'message/rfc822', ...headers }, body: raw });

  const mime = (name: string, sent: SentFixture, tag?: string) => loadMime(name, { SENT_ID: sent.messageId, LEAD: sent.leadEmail, ...(tag ? { TAG: tag } : {}) });

  const count = async (sql: string, bind: unknown[]): Promise<number> => (await rows<{ n: number }>(t.db.sequelize, `SELECT count(*)::int AS n FROM ${sql}`, bind))[0]?.n ?? -1;

  it('a Gmail reply is matched by In-Reply-To, stored with the lead snapshot and announced once', async () => {
    const sent = await seedSentEmail(t.db.sequelize, { first: 'Jane', last: 'Doe', company: 'Acme Corp', title: 'Head of Growth' });
    const raw = mime('gmail-reply.eml', sent);
    const res = await post(raw);
    expect(res.status, res.text).to.equal(200);
    expect(res.body).to.deep.include({ kind: 'reply', matched: true, campaignId: sent.campaignId, emailId: sent.emailId, duplicate: false });

    const [reply] = await rows<Record<string, unknown>>(t.db.sequelize, `SELECT * FROM replies WHERE id = $1`, [res.body.replyId]);
    expect(reply).to.include({
      account_id: sent.accountId,
      campaign_id: sent.campaignId,
      email_id: sent.emailId,
      lead_id: sent.leadId,
      kind: 'reply',
      from_email: sent.leadEmail,
      from_name: 'Jane Doe',
      to_email: 'sam@outreach.test',
      subject: 'Re: Quick question',
      in_reply_to: sent.messageId,
      preview: 'Sounds interesting, can we talk Thursday?',
      lead_name: 'Jane Doe',
      lead_company: 'Acme Corp',
      lead_title: 'Head of Growth',
    });
    expect(reply?.message_id).to.match(/^CAF=gmail-[0-9a-f]+@mail\.gmail\.com$/);
    expect(reply?.body_text).to.include('On Mon, Nov 17, 2025 at 10:00 AM Sam Sender');
    expect(['positive', 'neutral', 'negative']).to.include(reply?.sentiment);
    expect(reply?.category).to.be.a('string');
    expect(reply?.qualified_by).to.equal('builtin');

    const [event] = await rows<{ campaign_id: string; data: Record<string, unknown> }>(
      t.db.sequelize,
      `SELECT campaign_id, data FROM outbox WHERE account_id = $1 AND event = 'reply.received'`,
      [sent.accountId],
    );
    expect(event?.campaign_id).to.equal(sent.campaignId);
    expect(event?.data).to.deep.equal({
      reply_id: res.body.replyId,
      email: sent.leadEmail,
      name: 'Jane Doe',
      company: 'Acme Corp',
      title: 'Head of Growth',
      sentiment: reply?.sentiment,
      preview: 'Sounds interesting, can we talk Thursday?',
      received_at: (reply?.received_at as Date).toISOString(),
    });

    // The relay delivers the same message again: same answer, nothing new.
    const again = await post(raw);
    expect(again.status).to.equal(200);
    expect(again.body).to.deep.equal({ ...res.body, duplicate: true });
    expect(await count(`replies WHERE account_id = $1`, [sent.accountId])).to.equal(1);
    expect(await count(`email_events WHERE email_id = $1 AND type = 'replied'`, [sent.emailId])).to.equal(1);
    expect(await count(`outbox WHERE account_id = $1 AND event = 'reply.received'`, [sent.accountId])).to.equal(1);
    expect(await count(`outbox WHERE account_id = $1 AND event = 'email.replied'`, [sent.accountId])).to.equal(1);

    // A second, different reply to the same email is stored and announced, but the email was replied to once.
    const second = await post(mime('references-only.eml', sent));
    expect(second.body).to.include({ matched: true, emailId: sent.emailId, duplicate: false });
    expect(await count(`replies WHERE account_id = $1`, [sent.accountId])).to.equal(2);
    expect(await count(`email_events WHERE email_id = $1 AND type = 'replied'`, [sent.emailId])).to.equal(1);
    expect(await count(`outbox WHERE account_id = $1 AND event = 'reply.received'`, [sent.accountId])).to.equal(2);
  });

  it('a colleague answering the lead\'s email is announced under their own name, without the lead\'s title', async () => {
    const sent = await seedSentEmail(t.db.sequelize, { company: 'Acme Corp', title: 'Head of Growth' });
    const raw = loadMime('gmail-reply.eml', { SENT_ID: sent.messageId, LEAD: 'carl@acme.test' }).toString().replace('From: Jane Doe <', 'From: Carl Colleague <');
    const res = await post(Buffer.from(raw));
    expect(res.body).to.include({ matched: true, emailId: sent.emailId });
    const [event] = await rows<{ data: Record<string, unknown> }>(t.db.sequelize, `SELECT data FROM outbox WHERE account_id = $1 AND event = 'reply.received'`, [sent.accountId]);
    expect(event?.data).to.include({ email: 'carl@acme.test', name: 'Carl Colleague', company: 'Acme Corp', title: null });
  });

  it('a reply without In-Reply-To is matched through References, skipping an id that names no email', async () => {
    const sent = await seedSentEmail(t.db.sequelize);
    const res = await post(mime('references-only.eml', sent));
    expect(res.status).to.equal(200);
    expect(res.body).to.include({ kind: 'reply', matched: true, emailId: sent.emailId, campaignId: sent.campaignId });
    const [reply] = await rows<{ preview: string; from_name: string; in_reply_to: string | null }>(
      t.db.sequelize,
      `SELECT preview, from_name, in_reply_to FROM replies WHERE id = $1`,
      [res.body.replyId],
    );
    expect(reply).to.deep.equal({ preview: 'Can you send me the pricing for 50 seats? Jane', from_name: 'Doe, Jane', in_reply_to: null });
  });

  it('an Outlook reply (HTML only) and a French reply show only what the person wrote', async () => {
    const sent = await seedSentEmail(t.db.sequelize);
    const outlook = await post(mime('outlook-reply.eml', sent));
    const french = await post(mime('french-reply.eml', sent));
    const previews = await rows<{ id: string; preview: string; from_name: string }>(t.db.sequelize, `SELECT id, preview, from_name FROM replies WHERE id = ANY($1)`, [
      [outlook.body.replyId, french.body.replyId],
    ]);
    expect(previews.find((p) => p.id === outlook.body.replyId)?.preview).to.equal('Thanks Sam, not right now – we just signed with another vendor.');
    expect(previews.find((p) => p.id === french.body.replyId)).to.include({
      preview: 'Bonjour Sam, Oui, je suis intéressée. Pouvons-nous en parler jeudi à 14h ?',
      from_name: 'Joséphine Martin',
    });
  });

  it('an automatic answer is stored as auto_reply (out of office) without counting as a reply', async () => {
    const sent = await seedSentEmail(t.db.sequelize);
    const res = await post(mime('auto-reply.eml', sent));
    expect(res.status).to.equal(200);
    expect(res.body).to.include({ kind: 'auto_reply', matched: true, emailId: sent.emailId });
    const [reply] = await rows<{ kind: string; category: string; sentiment: string }>(t.db.sequelize, `SELECT kind, category, sentiment FROM replies WHERE id = $1`, [
      res.body.replyId,
    ]);
    expect(reply).to.deep.equal({ kind: 'auto_reply', category: 'out_of_office', sentiment: 'neutral' });
    expect(await count(`email_events WHERE email_id = $1`, [sent.emailId])).to.equal(0);
    expect(await count(`outbox WHERE account_id = $1`, [sent.accountId])).to.equal(0);
  });

  it('a 5.1.1 DSN bounces the email, marks the lead and suppresses the address, once', async () => {
    const sent = await seedSentEmail(t.db.sequelize);
    const raw = mime('dsn-hard.eml', sent);
    const res = await post(raw);
    expect(res.status).to.equal(200);
    expect(res.body).to.include({ kind: 'bounce', matched: true, emailId: sent.emailId, campaignId: sent.campaignId });

    const [email] = await rows<{ status: string; bounced_at: Date | null }>(t.db.sequelize, `SELECT status, bounced_at FROM emails WHERE id = $1`, [sent.emailId]);
    expect(email?.status).to.equal('bounced');
    expect(email?.bounced_at).to.be.instanceOf(Date);
    const [lead] = await rows<{ bounced_at: Date | null }>(t.db.sequelize, `SELECT bounced_at FROM leads WHERE id = $1`, [sent.leadId]);
    expect(lead?.bounced_at).to.be.instanceOf(Date);
    const suppressions = await rows(t.db.sequelize, `SELECT email, reason, source_email_id FROM suppressions WHERE account_id = $1`, [sent.accountId]);
    expect(suppressions).to.deep.equal([{ email: sent.leadEmail, reason: 'hard_bounce', source_email_id: sent.emailId }]);
    const facts = await rows<{ dedupe_key: string; data: Record<string, unknown> }>(
      t.db.sequelize,
      `SELECT dedupe_key, data FROM email_events WHERE email_id = $1 AND type = 'bounced'`,
      [sent.emailId],
    );
    expect(facts).to.have.length(1);
    expect(facts[0]?.dedupe_key).to.equal(`bounced:${sent.emailId}`);
    expect(facts[0]?.data).to.include({ bounce_type: 'hard', status: '5.1.1', recipient: sent.leadEmail });

    expect((await post(raw)).body).to.include({ replyId: res.body.replyId, duplicate: true });
    expect(await count(`email_events WHERE email_id = $1 AND type = 'bounced'`, [sent.emailId])).to.equal(1);
    expect(await count(`outbox WHERE account_id = $1 AND event = 'email.bounced'`, [sent.accountId])).to.equal(1);
    expect(await count(`outbox WHERE account_id = $1 AND event = 'reply.received'`, [sent.accountId])).to.equal(0);
  });

  it('a 4.4.7 delay DSN is stored and changes nothing', async () => {
    const sent = await seedSentEmail(t.db.sequelize);
    const res = await post(mime('dsn-delay.eml', sent));
    expect(res.status).to.equal(200);
    expect(res.body).to.include({ kind: 'bounce', matched: true, emailId: sent.emailId });
    const [email] = await rows<{ status: string; bounced_at: Date | null }>(t.db.sequelize, `SELECT status, bounced_at FROM emails WHERE id = $1`, [sent.emailId]);
    expect(email).to.deep.equal({ status: 'sent', bounced_at: null });
    expect(await count(`suppressions WHERE account_id = $1`, [sent.accountId])).to.equal(0);
    expect(await count(`email_events WHERE email_id = $1`, [sent.emailId])).to.equal(0);
    expect(await count(`leads WHERE id = $1 AND bounced_at IS NOT NULL`, [sent.leadId])).to.equal(0);
  });

  it('"please remove me" suppresses the address and records the unsubscribe', async () => {
    const sent = await seedSentEmail(t.db.sequelize);
    const res = await post(mime('unsubscribe-reply.eml', sent));
    expect(res.body).to.include({ kind: 'reply', matched: true });
    const [reply] = await rows<{ category: string; sentiment: string }>(t.db.sequelize, `SELECT category, sentiment FROM replies WHERE id = $1`, [res.body.replyId]);
    expect(reply).to.deep.equal({ category: 'unsubscribe', sentiment: 'negative' });
    const suppressions = await rows(t.db.sequelize, `SELECT email, reason, source_email_id FROM suppressions WHERE account_id = $1`, [sent.accountId]);
    expect(suppressions).to.deep.equal([{ email: sent.leadEmail, reason: 'reply_unsubscribe', source_email_id: sent.emailId }]);
    expect(await count(`email_events WHERE email_id = $1 AND type = 'unsubscribed'`, [sent.emailId])).to.equal(1);
    expect(await count(`leads WHERE id = $1 AND unsubscribed_at IS NOT NULL`, [sent.leadId])).to.equal(1);
  });

  it('a wrong or missing X-Inbound-Secret is 401 and stores nothing', async () => {
    const sent = await seedSentEmail(t.db.sequelize);
    const raw = mime('gmail-reply.eml', sent);
    const attempts: Record<string, string>[] = [{}, { 'X-Inbound-Secret': `${secret}x` }, { 'X-Inbound-Secret': '' }];
    for (const headers of attempts) {
      const res = await post(raw, headers);
      expect(res.status).to.equal(401);
      expect(Object.keys(res.body)).to.deep.equal(['error']);
    }
    expect(await count(`replies WHERE account_id = $1`, [sent.accountId])).to.equal(0);
  });

  it('a message matching no sent email and no account is answered 202 and not stored', async () => {
    const raw = loadMime('gmail-reply.eml', { SENT_ID: 'unknown-id@nowhere.test', LEAD: 'someone@nowhere.test' });
    const before = await count(`replies`, []);
    const res = await post(raw);
    expect(res.status).to.equal(202);
    expect(res.body).to.deep.equal({ matched: false });
    expect(await count(`replies`, [])).to.equal(before);
  });

  it('a message from a lead of one account that matches no email is stored unmatched, without reply events', async () => {
    const sent = await seedSentEmail(t.db.sequelize);
    const res = await post(loadMime('gmail-reply.eml', { SENT_ID: 'lost-thread@elsewhere.test', LEAD: sent.leadEmail }));
    expect(res.status).to.equal(200);
    expect(res.body).to.include({ kind: 'reply', matched: false, campaignId: null, emailId: null });
    const [reply] = await rows<{ account_id: string; lead_id: string; lead_name: string }>(t.db.sequelize, `SELECT account_id, lead_id, lead_name FROM replies WHERE id = $1`, [
      res.body.replyId,
    ]);
    expect(reply).to.deep.equal({ account_id: sent.accountId, lead_id: sent.leadId, lead_name: 'Jane Doe' });
    expect(await count(`outbox WHERE account_id = $1`, [sent.accountId])).to.equal(0);
  });

  it('a body that is not an email (no From) is a 400; a wrong content type is a 415', async () => {
    expect((await post(Buffer.from('just some text\r\n'))).status).to.equal(400);
    const res = await request(`${t.api.baseUrl}/inbound/mime`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Inbound-Secret': secret }, body: '{}' });
    expect(res.status).to.equal(415);
  });

  describe('the SMTP listener', () => {
    let smtp: RunningInboundSmtp;
    before(async () => {
      const config = testConfig();
      const log = createLogger('silent', 'test');
      smtp = await startInboundSmtp({
        host: '127.0.0.1',
        port: 0,
        sequelize: t.db.sequelize,
        log,
        qualify: replyQualifier({ sequelize: t.db.sequelize, config, log }),
        secret: async () => secret,
      });
    });
    after(() => smtp?.close());

    const transport = (auth?: { user: string; pass: string }) =>
      nodemailer.createTransport({ host: '127.0.0.1', port: smtp.port, secure: false, ignoreTLS: true, ...(auth ? { auth } : {}) });

    it('stores a reply delivered over SMTP exactly as over HTTP, answering 250 only once stored', async () => {
      const sent = await seedSentEmail(t.db.sequelize);
      const raw = mime('gmail-reply.eml', sent);
      const info = await transport().sendMail({ envelope: { from: sent.leadEmail, to: ['sam@outreach.test'] }, raw });
      expect(info.response).to.match(/^250 Stored as rpl_/);
      const replyId = /Stored as (rpl_\w+)/.exec(info.response)?.[1];
      const [reply] = await rows<Record<string, unknown>>(t.db.sequelize, `SELECT * FROM replies WHERE id = $1`, [replyId]);
      expect(reply).to.include({ campaign_id: sent.campaignId, email_id: sent.emailId, kind: 'reply', preview: 'Sounds interesting, can we talk Thursday?', lead_name: 'Jane Doe' });
      expect(await count(`email_events WHERE email_id = $1 AND type = 'replied'`, [sent.emailId])).to.equal(1);

      // The same message posted over HTTP is the same reply.
      const http = await post(raw);
      expect(http.body).to.include({ replyId, duplicate: true });
    });

    it('takes AUTH with the inbound secret and refuses a wrong password', async () => {
      const sent = await seedSentEmail(t.db.sequelize);
      const raw = mime('gmail-reply.eml', sent);
      const ok = await transport({ user: 'inbound', pass: secret }).sendMail({ envelope: { from: sent.leadEmail, to: ['sam@outreach.test'] }, raw });
      expect(ok.response).to.match(/^250 /);
      const refused = await transport({ user: 'inbound', pass: 'wrong' })
        .sendMail({ envelope: { from: sent.leadEmail, to: ['sam@outreach.test'] }, raw })
        .then(
          () => null,
          (err: { responseCode?: number }) => err,
        );
      expect(refused?.responseCode).to.equal(535);
    });

    it('answers 451 when the database is unreachable, so the relay keeps the message', async () => {
      const config = testConfig();
      const log = createLogger('silent', 'test');
      // Nothing listens on port 1.
      const down = createSequelize({ url: 'postgres://nobody:nothing@127.0.0.1:1/none', poolMax: 1 });
      const listener = await startInboundSmtp({ host: '127.0.0.1', port: 0, sequelize: down, log, qualify: replyQualifier({ sequelize: down, config, log }), secret: async () => secret });
      try {
        const sent = await seedSentEmail(t.db.sequelize);
        const err = await nodemailer
          .createTransport({ host: '127.0.0.1', port: listener.port, secure: false, ignoreTLS: true })
          .sendMail({ envelope: { from: sent.leadEmail, to: ['sam@outreach.test'] }, raw: mime('gmail-reply.eml', sent) })
          .then(
            () => null,
            (e: { responseCode?: number }) => e,
          );
        expect(err?.responseCode).to.equal(451);
      } finally {
        await listener.close();
        await down.close();
      }
    });
  });
});

import { expect } from 'chai';
import nodemailer from 'nodemailer';
import type { LeadFactNotice, LeadFactSink } from '../../src/campaigns/control/lead-fact-signals';
import { serviceSecret } from '../../src/config/service-secret-repository';
import { startInboundSmtp, type RunningInboundSmtp } from '../../src/inbound/smtp-listener';
import { createLogger } from '../../src/log/logger';
import { updateReply } from '../../src/replies/inbox/update-reply';
import { replyQualifier } from '../../src/replies/qualify-reply';
import { createAccount, request, surfaceA, surfaceB, testConfig, useTestApi } from '../support/api';
import { loadMime } from './mime-fixtures';
import { rows, seedSentEmail, type SentFixture } from './seed';

interface Item {
  id: string;
  kind: string;
  campaignId: string | null;
  category: string | null;
  sentiment: string | null;
  modelCategory: string | null;
  userCategory: string | null;
  labelledAt: string | null;
  read: boolean;
  bodyText?: string;
  error?: string;
}

interface CampaignStats {
  stats: Record<string, number>;
  rates: Record<string, number>;
}

type Gateway = Record<string, number>;

/** The figures a correction moves, read as a user reads them: both statistics endpoints. */
interface Figures {
  readonly stats: Record<string, number>;
  readonly replyRate: number;
  readonly conversionRate: number;
  readonly gateway: Gateway;
}

class RecordingSink implements LeadFactSink {
  readonly notices: LeadFactNotice[] = [];
  notify(facts: readonly LeadFactNotice[]): void {
    this.notices.push(...facts);
  }
}

describe('reply labels: a corrected category moves the statistics and the lead (PATCH /v1/replies/:id)', () => {
  const t = useTestApi();
  let smtp: RunningInboundSmtp;
  const signals = new RecordingSink();

  before(async () => {
    const config = testConfig();
    const log = createLogger('silent', 'test');
    const secret = await serviceSecret(t.db.sequelize, 'inbound', undefined);
    smtp = await startInboundSmtp({
      host: '127.0.0.1',
      port: 0,
      sequelize: t.db.sequelize,
      log,
      qualify: replyQualifier({ sequelize: t.db.sequelize, config, log }),
      secret: async () => secret,
      leadFacts: signals,
    });
  });
  after(() => smtp?.close());

  interface Setup {
    readonly sent: SentFixture;
    readonly key: string;
    readonly keyId: string;
  }

  /** An account, one email sent and delivered to a lead whose sequence is under way. */
  async function setup(): Promise<Setup> {
    const { accountId, apiKey, keyId } = await createAccount(t.db.sequelize, 'free', 'Labels');
    const sent = await seedSentEmail(t.db.sequelize, { accountId });
    for (const type of ['sent', 'delivered']) {
      await t.db.sequelize.query(
        `INSERT INTO email_events (account_id, campaign_id, email_id, lead_id, type, occurred_at, dedupe_key) VALUES ($1, $2, $3, $4, $5, now(), $6)`,
        { bind: [accountId, sent.campaignId, sent.emailId, sent.leadId, type, `${type}:${sent.emailId}`] },
      );
    }
    await t.db.sequelize.query(
      `INSERT INTO campaign_enrolments (campaign_id, lead_id, account_id, state, step, next_send_day, source) VALUES ($1, $2, $3, 'in_sequence', 0, current_date + 3, 'list')`,
      { bind: [sent.campaignId, sent.leadId, accountId] },
    );
    return { sent, key: apiKey, keyId };
  }

  /** Delivers a fixture through the service's inbound SMTP listener; the id it was stored as. */
  async function deliver(fixture: string, sent: SentFixture): Promise<string> {
    const raw = loadMime(fixture, { SENT_ID: sent.messageId, LEAD: sent.leadEmail });
    const info = await nodemailer
      .createTransport({ host: '127.0.0.1', port: smtp.port, secure: false, ignoreTLS: true })
      .sendMail({ envelope: { from: sent.leadEmail, to: ['sam@outreach.test'] }, raw });
    const replyId = /Stored as (rpl_\w+)/.exec(info.response)?.[1];
    expect(replyId, info.response).to.be.a('string');
    return replyId!;
  }

  async function figures(s: Setup): Promise<Figures> {
    const stats = await request<CampaignStats>(`${t.api.baseUrl}/campaigns/${s.sent.campaignId}/stats`, { headers: surfaceA(s.key) });
    expect(stats.status, stats.text).to.equal(200);
    const gateway = await request<Gateway>(`${t.api.baseUrl}/v1/email-gateway/stats`, { headers: surfaceB(s.key) });
    expect(gateway.status, gateway.text).to.equal(200);
    return { stats: stats.body.stats, replyRate: stats.body.rates.reply_rate!, conversionRate: stats.body.rates.conversion_rate!, gateway: gateway.body };
  }

  const patch = (s: Setup, id: string, body: unknown) =>
    request<Item>(`${t.api.baseUrl}/v1/replies/${id}`, { method: 'PATCH', headers: { ...surfaceB(s.key), 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

  const inbox = async (s: Setup) => (await request<{ replies: Item[]; total: number; unread: number }>(`${t.api.baseUrl}/v1/replies`, { headers: surfaceB(s.key) })).body;

  async function enrolment(s: Setup): Promise<string | undefined> {
    return (await rows<{ state: string }>(t.db.sequelize, `SELECT state FROM campaign_enrolments WHERE campaign_id = $1 AND lead_id = $2`, [s.sent.campaignId, s.sent.leadId]))[0]?.state;
  }

  const suppressions = (s: Setup) =>
    rows<{ email: string; reason: string; source_email_id: string }>(t.db.sequelize, `SELECT email, reason, source_email_id FROM suppressions WHERE account_id = $1`, [s.sent.accountId]);

  const count = async (sql: string, bind: unknown[]): Promise<number> => (await rows<{ n: number }>(t.db.sequelize, `SELECT count(*)::int AS n FROM ${sql}`, bind))[0]?.n ?? -1;

  const campaignReplies = async (s: Setup, sentiment: string): Promise<string[]> => {
    const res = await request<{ replies: Array<{ id: string }> }>(`${t.api.baseUrl}/campaigns/${s.sent.campaignId}/replies?sentiment=${sentiment}`, { headers: surfaceA(s.key) });
    return res.body.replies.map((r) => r.id);
  };

  it('a reply through the SMTP listener shows in the inbox; interested -> unsubscribe -> interested moves every figure and back', async () => {
    const s = await setup();
    const replyId = await deliver('gmail-reply.eml', s.sent);

    const listed = await inbox(s);
    expect(listed).to.include({ total: 1, unread: 1 });
    expect(listed.replies[0]).to.include({ id: replyId, kind: 'reply', campaignId: s.sent.campaignId, category: 'interested', modelCategory: 'interested', userCategory: null, read: false });
    const detail = await request<Item>(`${t.api.baseUrl}/v1/replies/${replyId}`, { headers: surfaceB(s.key) });
    expect(detail.body.bodyText).to.include('Sounds interesting, can we talk Thursday?');
    // The same reply is the last message of the lead's thread, after the email it answers.
    const thread = await request<{ messages: Array<{ id: string; direction: string; type: string; text: string | null }> }>(
      `${t.api.baseUrl}/v1/leads/${s.sent.leadId}/thread`,
      { headers: surfaceB(s.key) },
    );
    expect(thread.status, thread.text).to.equal(200);
    expect(thread.body.messages.map((m) => [m.direction, m.type, m.id])).to.deep.equal([
      ['out', 'campaign_email', s.sent.emailId],
      ['in', 'reply', replyId],
    ]);
    expect(thread.body.messages[1]!.text).to.include('Sounds interesting, can we talk Thursday?');
    const [stored] = await rows<{ body_html: string | null; model_sentiment: string }>(t.db.sequelize, `SELECT body_html, model_sentiment FROM replies WHERE id = $1`, [replyId]);
    expect(stored?.body_html).to.include('<div dir="ltr">Sounds interesting, can we talk Thursday?</div>');
    expect(stored?.model_sentiment).to.equal('positive');

    const before = await figures(s);
    expect(before.stats).to.include({ replied: 1, unsubscribed: 0, meetings_booked: 0 });
    expect(before.replyRate).to.equal(1);
    expect(before.gateway).to.include({ emailsReplied: 1, repliesInterested: 1, repliesUnsubscribe: 0 });
    expect(await campaignReplies(s, 'positive')).to.deep.equal([replyId]);

    const unsub = await patch(s, replyId, { category: 'unsubscribe' });
    expect(unsub.status, unsub.text).to.equal(200);
    expect(unsub.body).to.include({ category: 'unsubscribe', sentiment: 'negative', modelCategory: 'interested', userCategory: 'unsubscribe', kind: 'reply' });
    const after = await figures(s);
    expect(after.stats).to.deep.equal({ ...before.stats, unsubscribed: 1 });
    expect(after.gateway).to.deep.equal({ ...before.gateway, repliesInterested: 0, repliesUnsubscribe: 1 });
    expect(await suppressions(s)).to.deep.equal([{ email: s.sent.leadEmail, reason: 'reply_unsubscribe', source_email_id: s.sent.emailId }]);
    expect(await count(`leads WHERE id = $1 AND unsubscribed_at IS NOT NULL`, [s.sent.leadId])).to.equal(1);
    expect(await enrolment(s)).to.equal('unsubscribed');
    expect(await count(`outbox WHERE account_id = $1 AND event = 'email.unsubscribed'`, [s.sent.accountId])).to.equal(1);
    expect(await campaignReplies(s, 'positive')).to.deep.equal([]);
    expect(await campaignReplies(s, 'negative')).to.deep.equal([replyId]);
    const [label] = await rows<{ labelled_by: string }>(t.db.sequelize, `SELECT labelled_by FROM replies WHERE id = $1`, [replyId]);
    expect(label?.labelled_by).to.equal(s.keyId);

    // Back to interested: everything the unsubscribe did is undone; the lead stays one who replied.
    const back = await patch(s, replyId, { category: 'interested' });
    expect(back.body).to.include({ category: 'interested', sentiment: 'positive', userCategory: 'interested' });
    expect(await figures(s)).to.deep.equal(before);
    expect(await suppressions(s)).to.deep.equal([]);
    expect(await count(`leads WHERE id = $1 AND unsubscribed_at IS NOT NULL`, [s.sent.leadId])).to.equal(0);
    expect(await count(`email_events WHERE email_id = $1 AND type = 'unsubscribed'`, [s.sent.emailId])).to.equal(0);
    expect(await enrolment(s)).to.equal('replied');

    // The same category as the model's: the user's label is dropped, no figure moves.
    const dropped = await patch(s, replyId, { category: null });
    expect(dropped.body).to.include({ category: 'interested', userCategory: null });
    expect(dropped.body.labelledAt).to.be.a('string');
    expect(await figures(s)).to.deep.equal(before);
  });

  it('an out-of-office auto-reply corrected to interested becomes a reply: replied +1, the lead replied, one reply.received', async () => {
    const s = await setup();
    const replyId = await deliver('auto-reply.eml', s.sent);
    expect((await inbox(s)).replies[0]).to.include({ id: replyId, kind: 'auto_reply', category: 'out_of_office' });

    const before = await figures(s);
    expect(before.stats).to.include({ replied: 0 });
    expect(before.gateway).to.include({ emailsReplied: 0, repliesOutOfOffice: 1, repliesInterested: 0 });
    expect(await enrolment(s)).to.equal('in_sequence');
    expect(await campaignReplies(s, 'positive')).to.deep.equal([]);

    signals.notices.length = 0;
    // Through the function the dashboard calls: the campaign's workflow is told after the commit.
    const person = await updateReply({ sequelize: t.db.sequelize, leadFacts: signals }, s.sent.accountId, replyId, { category: 'interested' }, s.keyId);
    expect(person).to.include({ kind: 'reply', category: 'interested', sentiment: 'positive', modelCategory: 'out_of_office', userCategory: 'interested' });
    expect(signals.notices).to.deep.equal([{ campaignId: s.sent.campaignId, leadId: s.sent.leadId, fact: 'replied' }]);
    const after = await figures(s);
    expect(after.stats).to.deep.equal({ ...before.stats, replied: 1 });
    expect(after.replyRate).to.equal(1);
    expect(after.gateway).to.deep.equal({ ...before.gateway, emailsReplied: 1, repliesOutOfOffice: 0, repliesInterested: 1 });
    expect(await enrolment(s)).to.equal('replied');
    expect(await count(`outbox WHERE account_id = $1 AND event = 'reply.received' AND data->>'reply_id' = $2`, [s.sent.accountId, replyId])).to.equal(1);
    expect(await campaignReplies(s, 'positive')).to.deep.equal([replyId]);

    // Back to out_of_office: no longer a reply; the sequence is not restarted.
    const away = await patch(s, replyId, { category: 'out_of_office' });
    expect(away.body).to.include({ kind: 'auto_reply', category: 'out_of_office' });
    expect(await figures(s)).to.deep.equal(before);
    expect(await enrolment(s)).to.equal('replied');
    // A person again: the reply already had its reply.received event.
    await patch(s, replyId, { category: 'neutral' });
    expect((await figures(s)).stats).to.include({ replied: 1 });
    expect(await count(`outbox WHERE account_id = $1 AND event = 'reply.received'`, [s.sent.accountId])).to.equal(1);
  });

  it('meeting_booked records one meeting and the lead\'s state; taken back, both return', async () => {
    const s = await setup();
    const replyId = await deliver('gmail-reply.eml', s.sent);
    const before = await figures(s);
    expect(before.stats).to.include({ meetings_booked: 0 });

    await patch(s, replyId, { category: 'meeting_booked' });
    const after = await figures(s);
    expect(after.stats).to.deep.equal({ ...before.stats, meetings_booked: 1 });
    expect(after.conversionRate).to.equal(1);
    expect(after.gateway).to.deep.equal({ ...before.gateway, repliesInterested: 0, repliesMeetingBooked: 1 });
    expect(await enrolment(s)).to.equal('meeting_booked');
    const facts = await rows<{ data: Record<string, unknown> }>(t.db.sequelize, `SELECT data FROM email_events WHERE email_id = $1 AND type = 'meeting_booked'`, [s.sent.emailId]);
    expect(facts.map((f) => f.data)).to.deep.equal([{ source: 'reply_label', reply_id: replyId }]);
    // Confirming the same label again records nothing more.
    await patch(s, replyId, { category: 'meeting_booked' });
    expect((await figures(s)).stats.meetings_booked).to.equal(1);

    await patch(s, replyId, { category: 'interested' });
    expect(await figures(s)).to.deep.equal(before);
    expect(await enrolment(s)).to.equal('replied');
  });

  it('a meeting booked through the calendar is never taken back by a label, nor counted twice', async () => {
    const s = await setup();
    const replyId = await deliver('gmail-reply.eml', s.sent);
    await t.db.sequelize.query(
      `INSERT INTO email_events (account_id, campaign_id, email_id, lead_id, type, occurred_at, data, dedupe_key) VALUES ($1, $2, $3, $4, 'meeting_booked', now(), '{"meeting_id":"mtg_x"}', $5)`,
      { bind: [s.sent.accountId, s.sent.campaignId, s.sent.emailId, s.sent.leadId, `meeting:calcom:${s.sent.emailId}`] },
    );
    await t.db.sequelize.query(`UPDATE campaign_enrolments SET state = 'meeting_booked' WHERE campaign_id = $1`, { bind: [s.sent.campaignId] });
    await patch(s, replyId, { category: 'meeting_booked' });
    expect((await figures(s)).stats.meetings_booked).to.equal(1);
    await patch(s, replyId, { category: 'not_interested' });
    expect((await figures(s)).stats.meetings_booked).to.equal(1);
    expect(await enrolment(s)).to.equal('meeting_booked');
  });

  it('two replies to one email: the replied fact stays while one of them is a reply', async () => {
    const s = await setup();
    const first = await deliver('gmail-reply.eml', s.sent);
    const second = await deliver('references-only.eml', s.sent);
    expect((await figures(s)).stats.replied).to.equal(1);

    await patch(s, first, { category: 'out_of_office' });
    expect((await figures(s)).stats.replied).to.equal(1);
    const [fact] = await rows<{ data: Record<string, unknown> }>(t.db.sequelize, `SELECT data FROM email_events WHERE email_id = $1 AND type = 'replied'`, [s.sent.emailId]);
    expect(fact?.data.reply_id).to.equal(second);
    // The fact moved without a second email.replied event.
    expect(await count(`outbox WHERE account_id = $1 AND event = 'email.replied'`, [s.sent.accountId])).to.equal(1);

    await patch(s, second, { category: 'out_of_office' });
    expect((await figures(s)).stats.replied).to.equal(0);
    expect((await figures(s)).gateway).to.include({ emailsReplied: 0, repliesOutOfOffice: 2 });
  });
});

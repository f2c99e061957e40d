import { MockActivityEnvironment } from '@temporalio/testing';
import { DefaultLogger } from '@temporalio/worker';
import { expect } from 'chai';
import type { ActivityDeps } from '../../activities';
import { sendCampaignBatch, type BatchOptions } from '../../activities/campaigns/send-batch';
import { updateIntegrations } from '../../src/integrations/settings';
import { createLogger } from '../../src/log/logger';
import { suppressAddress } from '../../src/suppressions/suppression-repository';
import { ingestInbound } from '../../src/replies/ingest';
import { replyQualifier } from '../../src/replies/qualify-reply';
import { smtpTransports } from '../../src/sending/transports';
import type { BatchItem, SendBatchInput, SendBatchResult } from '../../workflows/campaign/contract';
import { testConfig } from '../support/api';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { startFakeOpenAi, type FakeOpenAi } from '../support/fake-openai';
import { TestSmtpSink } from '../support/smtp-sink';
import { loadMime } from '../replies/mime-fixtures';
import { newMailbox } from '../sending/fixtures';
import { countOf, firstSteps, leadEmail, newLeads, newRunningCampaign, rowsOf, runInActivity, type CampaignFixture, failureOf } from './fixtures';

const OPENAI_KEY = 'sk-proj-batch-test-key-0000000000ABCD';
const PRICE = 0.001;
const log = createLogger('silent', 'test');
const bare = (messageId: string): string => messageId.replace(/^<|>$/g, '');

describe('sendCampaignBatch activity (real PostgreSQL, real SMTP sink)', () => {
  let db: TestDatabase;
  let sink: TestSmtpSink;
  let openai: FakeOpenAi;
  let deps: ActivityDeps;

  before(async () => {
    db = await createTestDatabase();
    sink = await TestSmtpSink.start();
    openai = await startFakeOpenAi({
      apiKey: OPENAI_KEY,
      models: ['gpt-4o-mini'],
      answer: () => JSON.stringify({ subject: 'A forecasting idea', body_text: 'Hi there,\n\nShall we talk about demand forecasting?\n\nBest,\nSam' }),
      usage: { prompt: 1000, completion: 200 },
    });
    deps = { sequelize: db.sequelize, config: configWith(), log };
  });
  after(async () => {
    await smtpTransports.closeAll();
    await sink?.close();
    await openai?.close();
    await db?.drop();
  });

  function configWith(env: Record<string, string> = {}) {
    return testConfig({
      SMTP_SINK_PORT: String(sink.port),
      DEFAULT_FROM_EMAIL: 'outreach@sender.example',
      PRICE_EMAIL_USD: String(PRICE),
      OPENAI_BASE_URL: `${openai.url}/v1`,
      ...env,
    });
  }

  function batchInput(c: CampaignFixture, items: readonly BatchItem[], extra: Partial<SendBatchInput> = {}): SendBatchInput {
    return { campaignId: c.campaignId, accountId: c.accountId, mcp: 'sales_outreach', companyId: null, items, budgetRemainingUsd: null, ...extra };
  }

  const run = (input: SendBatchInput, opts: BatchOptions = {}, d: ActivityDeps = deps): Promise<SendBatchResult> => sendCampaignBatch(d, opts)(input);
  const outcomes = (r: SendBatchResult) => r.results.map((x) => x.outcome);
  const sentTo = async (leadId: string) => sink.to(await leadEmail(db.sequelize, leadId));

  it('sends each item into the sink, reports Message-IDs, subjects and the cost, and heartbeats after each', async () => {
    const c = await newRunningCampaign(db.sequelize);
    const leads = await newLeads(db.sequelize, c.accountId, 3);
    const env = new MockActivityEnvironment(undefined, { logger: new DefaultLogger('ERROR') });
    const beats: unknown[] = [];
    env.on('heartbeat', (d: unknown) => beats.push(d));

    const result = await runInActivity(env, sendCampaignBatch(deps), batchInput(c, firstSteps(leads)));
    expect(result.halted).to.equal(null);
    expect(outcomes(result)).to.deep.equal(['sent', 'sent', 'sent']);
    expect(result.costUsd).to.equal(3 * PRICE);
    for (const [i, leadId] of leads.entries()) {
      const item = result.results[i]!;
      const received = await sentTo(leadId);
      expect(received).to.have.length(1);
      const mail = await sink.parse(received[0]!);
      expect(item.messageId).to.equal(mail.messageId);
      expect(item.subject).to.equal(mail.subject);
      // The built-in writer used the campaign's own words and the lead's name.
      expect(mail.text).to.contain(`Jo${i}`);
    }
    expect(beats).to.deep.equal([1, 2, 3].map((done) => ({ done, of: 3, costUsd: done * PRICE })));
  });

  it('threads a follow-up under the earlier emails (In-Reply-To the last, References all)', async () => {
    const c = await newRunningCampaign(db.sequelize);
    const [leadId] = await newLeads(db.sequelize, c.accountId, 1);
    const first = (await run(batchInput(c, firstSteps([leadId!])))).results[0]!;
    const second = (await run(batchInput(c, [{ leadId: leadId!, step: 1, kind: 'follow_up', delayDays: 3, previousSubject: first.subject!, thread: [first.messageId!] }]))).results[0]!;
    const third = (
      await run(batchInput(c, [{ leadId: leadId!, step: 2, kind: 'follow_up', delayDays: 4, previousSubject: second.subject!, thread: [first.messageId!, second.messageId!] }]))
    ).results[0]!;
    expect([second.outcome, third.outcome]).to.deep.equal(['sent', 'sent']);
    const mails = await Promise.all((await sentTo(leadId!)).map((m) => sink.parse(m)));
    const last = mails.find((m) => m.messageId === third.messageId)!;
    expect(last.inReplyTo).to.equal(second.messageId);
    expect(last.references).to.deep.equal([first.messageId, second.messageId]);
    expect(last.subject).to.equal(`Re: ${first.subject}`);
  });

  it('stops a lead who replied; an automatic reply (out of office) does not stop the sequence', async () => {
    const c = await newRunningCampaign(db.sequelize);
    const [replier, away] = (await newLeads(db.sequelize, c.accountId, 2)) as [string, string];
    const first = await run(batchInput(c, firstSteps([replier, away])));
    const inbound = { sequelize: db.sequelize, log, qualify: replyQualifier({ sequelize: db.sequelize, config: deps.config, log }) };
    await ingestInbound(inbound, loadMime('gmail-reply.eml', { SENT_ID: bare(first.results[0]!.messageId!), LEAD: await leadEmail(db.sequelize, replier) }));
    await ingestInbound(inbound, loadMime('auto-reply.eml', { SENT_ID: bare(first.results[1]!.messageId!), LEAD: await leadEmail(db.sequelize, away) }));

    const followUps = first.results.map((r): BatchItem => ({ leadId: r.leadId, step: 1, kind: 'follow_up', delayDays: 3, previousSubject: r.subject!, thread: [r.messageId!] }));
    const result = await run(batchInput(c, followUps));
    expect(result.results[0]).to.deep.equal({ leadId: replier, step: 1, outcome: 'stopped', stopFact: 'replied' });
    expect(result.results[1]!.outcome).to.equal('sent');
    expect(await sentTo(replier)).to.have.length(1);
    expect(await sentTo(away)).to.have.length(2);
  });

  it('stops a suppressed address without writing or sending, and a lead stopped in this campaign by a booked meeting', async () => {
    const c = await newRunningCampaign(db.sequelize);
    const [suppressed, booked, fine] = (await newLeads(db.sequelize, c.accountId, 3)) as [string, string, string];
    await suppressAddress(db.sequelize, null, c.accountId, await leadEmail(db.sequelize, suppressed), 'unsubscribe');
    await db.sequelize.query(
      `INSERT INTO email_events (account_id, campaign_id, lead_id, type, occurred_at, dedupe_key) VALUES ($1, $2, $3, 'meeting_booked', now(), 'meeting:calcom:b-' || $3)`,
      { bind: [c.accountId, c.campaignId, booked] },
    );
    const result = await run(batchInput(c, firstSteps([suppressed, booked, fine])));
    expect(result.results.map((r) => [r.outcome, r.stopFact ?? null])).to.deep.equal([
      ['stopped', 'suppressed'],
      ['stopped', 'meeting_booked'],
      ['sent', null],
    ]);
    expect(result.costUsd).to.equal(PRICE);
    expect(await countOf(db.sequelize, `SELECT count(*) AS n FROM emails WHERE campaign_id = $1`, [c.campaignId])).to.equal(1);
  });

  it('halts on a campaign row that is not running: every item skipped, nothing written or sent', async () => {
    const c = await newRunningCampaign(db.sequelize, { status: 'paused' });
    const leads = await newLeads(db.sequelize, c.accountId, 2);
    const result = await run(batchInput(c, firstSteps(leads)));
    expect(result).to.deep.equal({ results: leads.map((leadId) => ({ leadId, step: 0, outcome: 'skipped' })), costUsd: 0, halted: 'not_running' });
    expect(await countOf(db.sequelize, `SELECT count(*) AS n FROM emails WHERE campaign_id = $1`, [c.campaignId])).to.equal(0);
  });

  it('a pause committed while the batch runs stops the sends after it', async () => {
    const c = await newRunningCampaign(db.sequelize);
    const leads = await newLeads(db.sequelize, c.accountId, 3);
    let paused = false;
    const pauseOnFirst = async (): Promise<void> => {
      if (paused) return;
      paused = true;
      await db.sequelize.query(`UPDATE campaigns SET status = 'paused', status_reason = 'manual' WHERE id = $1`, { bind: [c.campaignId] });
    };
    const result = await run(batchInput(c, firstSteps(leads)), { senderHooks: { afterSmtpAccepted: pauseOnFirst } });
    expect(outcomes(result)).to.deep.equal(['sent', 'skipped', 'skipped']);
    expect(result.halted).to.equal('not_running');
    expect(await sentTo(leads[1]!)).to.have.length(0);
    expect(await sentTo(leads[2]!)).to.have.length(0);
  });

  it('halts when the account\'s monthly quota is used up, counting what other campaigns sent', async () => {
    const small = { ...deps, config: configWith({ FREE_PLAN_EMAIL_LIMIT: '3' }) };
    const c = await newRunningCampaign(db.sequelize);
    const other = await newRunningCampaign(db.sequelize, { accountId: c.accountId });
    await run(batchInput(other, firstSteps(await newLeads(db.sequelize, c.accountId, 1))), {}, small);
    const leads = await newLeads(db.sequelize, c.accountId, 3);
    const result = await run(batchInput(c, firstSteps(leads)), {}, small);
    expect(outcomes(result)).to.deep.equal(['sent', 'sent', 'skipped']);
    expect(result.halted).to.equal('quota_exceeded');
    expect(await sentTo(leads[2]!)).to.have.length(0);
    // A Pro account of the same deployment is not held to the Free quota.
    const pro = await newRunningCampaign(db.sequelize, { plan: 'pro' });
    expect((await run(batchInput(pro, firstSteps(await newLeads(db.sequelize, pro.accountId, 4))), {}, small)).halted).to.equal(null);
  });

  it('halts when the spend reaches the budget room, checked before every email', async () => {
    const c = await newRunningCampaign(db.sequelize);
    const leads = await newLeads(db.sequelize, c.accountId, 4);
    const result = await run(batchInput(c, firstSteps(leads), { budgetRemainingUsd: 0.0025 }));
    expect(outcomes(result)).to.deep.equal(['sent', 'sent', 'sent', 'skipped']);
    expect(result).to.include({ halted: 'budget_exceeded', costUsd: 3 * PRICE });
    const none = await run(batchInput(c, firstSteps([leads[3]!]), { budgetRemainingUsd: 0 }));
    expect(none).to.deep.equal({ results: [{ leadId: leads[3], step: 0, outcome: 'skipped' }], costUsd: 0, halted: 'budget_exceeded' });
  });

  it('the same batch again (a retry) sends nothing twice and reports the same emails and cost, LLM writing included', async () => {
    const c = await newRunningCampaign(db.sequelize);
    await updateIntegrations(db.sequelize, c.accountId, { openaiApiKey: OPENAI_KEY });
    const leads = await newLeads(db.sequelize, c.accountId, 3);
    const input = batchInput(c, firstSteps(leads));
    const calls = openai.requests.length;
    const first = await run(input);
    const again = await run(input);
    expect(outcomes(first)).to.deep.equal(['sent', 'sent', 'sent']);
    expect(outcomes(again)).to.deep.equal(['already_sent', 'already_sent', 'already_sent']);
    expect(again.results.map((r) => [r.messageId, r.subject])).to.deep.equal(first.results.map((r) => [r.messageId, r.subject]));
    expect(first.results[0]!.subject).to.equal('A forecasting idea');
    const [recorded] = await rowsOf<{ usd: number; n: number }>(db.sequelize, `SELECT sum(amount_usd)::float8 AS usd, count(*)::int AS n FROM costs WHERE campaign_id = $1`, [c.campaignId]);
    expect(recorded!.n).to.equal(6); // three writings, three sends
    expect(first.costUsd).to.be.closeTo(recorded!.usd, 1e-9);
    expect(again.costUsd).to.equal(first.costUsd);
    expect(openai.requests.length - calls, 'the retry does not write again').to.equal(3);
    for (const leadId of leads) expect(await sentTo(leadId)).to.have.length(1);
  });

  it('a retry after a worker died mid-batch resumes: what was recorded is not sent again, the rest is, each counted and charged once', async () => {
    const c = await newRunningCampaign(db.sequelize);
    const leads = await newLeads(db.sequelize, c.accountId, 3);
    let accepted = 0;
    const dieOnSecond = (): void => {
      if (++accepted === 2) throw new Error('worker killed');
    };
    let died = false;
    try {
      await run(batchInput(c, firstSteps(leads)), { senderHooks: { afterSmtpAccepted: dieOnSecond } });
    } catch {
      died = true;
    }
    expect(died).to.equal(true);
    const retried = await run(batchInput(c, firstSteps(leads)));
    // The second email was accepted but its acceptance never recorded: it goes again, with its
    // Message-ID, and counts once. The first was recorded; the third never went.
    expect(outcomes(retried)).to.deep.equal(['already_sent', 'sent', 'sent']);
    expect(retried.costUsd).to.equal(3 * PRICE);
    expect(await sentTo(leads[0]!)).to.have.length(1);
    const copies = await sentTo(leads[1]!);
    expect(copies).to.have.length(2);
    expect((await sink.parse(copies[1]!)).messageId).to.equal((await sink.parse(copies[0]!)).messageId);
    expect(await sentTo(leads[2]!)).to.have.length(1);
    expect(await countOf(db.sequelize, `SELECT count(*) AS n FROM email_events WHERE campaign_id = $1 AND type = 'sent'`, [c.campaignId])).to.equal(3);
    expect(await countOf(db.sequelize, `SELECT count(*) AS n FROM emails WHERE campaign_id = $1 AND possible_duplicate`, [c.campaignId])).to.equal(1);
  });

  it('waits out a mailbox\'s minimum gap; once every mailbox is at its daily cap, the rest is deferred untried', async () => {
    const gapped = await newRunningCampaign(db.sequelize);
    await newMailbox(db.sequelize, gapped.accountId, { fromEmail: 'sam@gapped.example', fromName: 'Sam Lee', smtpUrl: sink.url, minGapSeconds: 1 });
    const waits: number[] = [];
    const sleep = (ms: number): Promise<void> =>
      new Promise((resolve) =>
        setTimeout(() => {
          waits.push(ms);
          resolve();
        }, ms),
      );
    const both = await run(batchInput(gapped, firstSteps(await newLeads(db.sequelize, gapped.accountId, 2))), { sleep });
    expect(outcomes(both)).to.deep.equal(['sent', 'sent']);
    expect(waits.length).to.be.greaterThan(0);
    const signed = await sink.parse(sink.messages.at(-1)!);
    expect(signed.from?.value[0]?.name, 'the From names the mailbox\'s person').to.equal('Sam Lee');
    expect(signed.text, 'the writer signs with the first name').to.match(/\nSam\n/);

    const capped = await newRunningCampaign(db.sequelize);
    await newMailbox(db.sequelize, capped.accountId, { fromEmail: 'sam@capped.example', smtpUrl: sink.url, dailyCap: 1, minGapSeconds: 0 });
    const leads = await newLeads(db.sequelize, capped.accountId, 3);
    const result = await run(batchInput(capped, firstSteps(leads)));
    expect(outcomes(result)).to.deep.equal(['sent', 'deferred', 'deferred']);
    expect(result.halted).to.equal(null);
    expect(await countOf(db.sequelize, `SELECT count(*) AS n FROM emails WHERE campaign_id = $1`, [capped.campaignId])).to.equal(1);
  });

  it('a temporary SMTP failure defers that email only; several in a row fail the batch, retryably', async () => {
    const c = await newRunningCampaign(db.sequelize);
    const leads = await newLeads(db.sequelize, c.accountId, 3);
    const busy = await leadEmail(db.sequelize, leads[1]!);
    sink.refuse(busy, 451);
    try {
      const result = await run(batchInput(c, firstSteps(leads)));
      expect(outcomes(result)).to.deep.equal(['sent', 'deferred', 'sent']);
      const [row] = await rowsOf<{ status: string }>(db.sequelize, `SELECT status FROM emails WHERE campaign_id = $1 AND lead_id = $2`, [c.campaignId, leads[1]]);
      expect(row!.status).to.equal('deferred');

      const down = await newRunningCampaign(db.sequelize);
      const all = await newLeads(db.sequelize, down.accountId, 4);
      for (const leadId of all) sink.refuse(await leadEmail(db.sequelize, leadId), 421);
      expect(await failureOf(run(batchInput(down, firstSteps(all))))).to.include({ type: 'SmtpTemporary', nonRetryable: false });
    } finally {
      sink.accept(busy);
    }
    // The next sending day sends the deferred email, with the Message-ID it was given.
    const later = await run(batchInput(c, firstSteps([leads[1]!])));
    expect(outcomes(later)).to.deep.equal(['sent']);
    expect(await sentTo(leads[1]!)).to.have.length(1);
  });

  it('the account\'s LLM refusing its key fails the batch without retry, before anything is sent', async () => {
    const c = await newRunningCampaign(db.sequelize);
    await updateIntegrations(db.sequelize, c.accountId, { openaiApiKey: 'sk-proj-revoked-key-00000000000000WXYZ' });
    const leads = await newLeads(db.sequelize, c.accountId, 2);
    const failure = await failureOf(run(batchInput(c, firstSteps(leads))));
    expect(failure).to.include({ type: 'LlmRejected', nonRetryable: true });
    expect(failure.message).to.match(/key/i);
    expect(await countOf(db.sequelize, `SELECT count(*) AS n FROM emails WHERE campaign_id = $1`, [c.campaignId])).to.equal(0);
  });

  it('another account\'s campaign is a non-retryable CampaignNotFound', async () => {
    const c = await newRunningCampaign(db.sequelize);
    const other = await newRunningCampaign(db.sequelize);
    const failure = await failureOf(run(batchInput({ campaignId: c.campaignId, accountId: other.accountId }, firstSteps(await newLeads(db.sequelize, other.accountId, 1)))));
    expect(failure).to.include({ type: 'CampaignNotFound', nonRetryable: true });
  });
});

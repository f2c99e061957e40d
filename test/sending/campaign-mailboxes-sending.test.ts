import { expect } from 'chai';
import pino from 'pino';
import type { Sequelize } from 'sequelize';
import type { ActivityDeps } from '../../activities';
import { sendCampaignBatch } from '../../activities/campaigns/send-batch';
import { readCampaign } from '../../src/campaigns/reporting/campaign-read-model';
import { createMailbox, deactivateMailbox } from '../../src/sending/mailbox-repository';
import { smtpTransports } from '../../src/sending/transports';
import type { BatchItem, BatchItemResult, SendBatchInput, SendBatchResult } from '../../workflows/campaign/contract';
import { testConfig } from '../support/api';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { TestSmtpSink } from '../support/smtp-sink';
import { firstSteps, leadEmail, newLeads, newRunningCampaign, rowsOf, type CampaignFixture } from '../campaigns/fixtures';
import { newMailbox } from './fixtures';

/**
 * Mailboxes per campaign (issue 29 point 4), on the real sending path: the campaign's batch
 * (sendCampaignBatch, as the workflow runs it) against PostgreSQL, with a real SMTP sink per
 * mailbox and one for the default transport, so where each email went is what each server
 * received.
 */
describe('a campaign sends only from its mailboxes (real PostgreSQL, one SMTP sink per mailbox)', () => {
  let db: TestDatabase;
  /** The default transport's sink: a campaign that names mailboxes never sends through it. */
  let fallback: TestSmtpSink;
  const sinks: TestSmtpSink[] = [];
  const warnings: Array<{ msg: string; campaignId?: string; mailboxIds?: string[] }> = [];
  let deps: ActivityDeps;

  before(async () => {
    db = await createTestDatabase();
    fallback = await TestSmtpSink.start();
    const log = pino({ level: 'warn' }, { write: (line: string) => warnings.push(JSON.parse(line) as (typeof warnings)[number]) });
    deps = { sequelize: db.sequelize, config: testConfig({ SMTP_SINK_PORT: String(fallback.port), DEFAULT_FROM_EMAIL: 'outreach@sender.example' }), log };
  });
  after(async () => {
    await smtpTransports.closeAll();
    await Promise.all([fallback?.close(), ...sinks.map((s) => s.close())]);
    await db?.drop();
  });

  interface Box {
    readonly id: string;
    readonly fromEmail: string;
    readonly sink: TestSmtpSink;
  }

  /** A mailbox of the account with its own SMTP server. */
  async function mailbox(accountId: string, name: string, opts: { dailyCap?: number } = {}): Promise<Box> {
    const sink = await TestSmtpSink.start();
    sinks.push(sink);
    const fromEmail = `${name}.${Math.random().toString(36).slice(2, 8)}@sender.example`;
    const id = await newMailbox(db.sequelize, accountId, { fromEmail, smtpUrl: sink.url, dailyCap: opts.dailyCap ?? 50, minGapSeconds: 0 });
    return { id, fromEmail, sink };
  }

  const setMailboxes = (sequelize: Sequelize, campaignId: string, ids: readonly string[] | null) =>
    sequelize.query(`UPDATE campaigns SET mailbox_ids = $2::text[] WHERE id = $1`, { bind: [campaignId, ids === null ? null : [...ids]] });

  const batchInput = (c: CampaignFixture, items: readonly BatchItem[]): SendBatchInput => ({
    campaignId: c.campaignId,
    accountId: c.accountId,
    mcp: 'sales_outreach',
    companyId: null,
    items,
    budgetRemainingUsd: null,
  });
  const run = (input: SendBatchInput): Promise<SendBatchResult> => sendCampaignBatch(deps)(input);
  const outcomes = (r: SendBatchResult) => r.results.map((x) => x.outcome);
  const followUp = (r: BatchItemResult, step: number, thread: string[]): BatchItem => ({ leadId: r.leadId, step, kind: 'follow_up', delayDays: 3, previousSubject: r.subject!, thread });

  /**
   * The mailbox whose server received each of the lead's emails of the campaign, by step: each
   * recorded email is found, by its Message-ID and with its mailbox's From, on exactly one server.
   */
  async function sendersOf(campaignId: string, leadId: string, boxes: readonly Box[]): Promise<string[]> {
    const to = await leadEmail(db.sequelize, leadId);
    const received = await Promise.all(boxes.flatMap((box) => box.sink.to(to).map(async (m) => ({ box, mail: await box.sink.parse(m) }))));
    const rows = await rowsOf<{ message_id: string }>(db.sequelize, `SELECT message_id FROM emails WHERE campaign_id = $1 AND lead_id = $2 AND status = 'sent' ORDER BY step`, [campaignId, leadId]);
    expect(received, 'one message per email sent').to.have.length(rows.length);
    return rows.map((row) => {
      const found = received.filter((r) => r.mail.messageId === row.message_id);
      expect(found, row.message_id).to.have.length(1);
      const { box, mail } = found[0]!;
      expect(mail.from?.value[0]?.address, 'the server of the mailbox whose From it carries').to.equal(box.fromEmail);
      return box.id;
    });
  }

  /** The mailbox each of the campaign's emails went through, by lead, in the batch's order. */
  async function mailboxByLead(campaignId: string, step = 0): Promise<Map<string, string | null>> {
    const rows = await rowsOf<{ lead_id: string; mailbox_id: string | null }>(db.sequelize, `SELECT lead_id, mailbox_id FROM emails WHERE campaign_id = $1 AND step = $2`, [campaignId, step]);
    return new Map(rows.map((r) => [r.lead_id, r.mailbox_id]));
  }

  it('emails go only through the two mailboxes it names, new leads alternating between them; the third mailbox and the default transport get nothing', async () => {
    const c = await newRunningCampaign(db.sequelize);
    const [one, two, three] = [await mailbox(c.accountId, 'one'), await mailbox(c.accountId, 'two'), await mailbox(c.accountId, 'three')] as [Box, Box, Box];
    await setMailboxes(db.sequelize, c.campaignId, [one.id, two.id]);
    const leads = await newLeads(db.sequelize, c.accountId, 6);

    const result = await run(batchInput(c, firstSteps(leads)));
    expect(outcomes(result)).to.deep.equal(['sent', 'sent', 'sent', 'sent', 'sent', 'sent']);
    expect(one.sink.messages).to.have.length(3);
    expect(two.sink.messages).to.have.length(3);
    expect(three.sink.messages, 'the account\'s third mailbox is not the campaign\'s').to.have.length(0);
    expect(fallback.messages, 'nor is the default transport').to.have.length(0);
    // Least recently used first: the leads, in the batch's order, alternate between the two.
    const used = await mailboxByLead(c.campaignId);
    const order = leads.map((l) => used.get(l));
    for (let i = 1; i < order.length; i++) expect(order[i], `lead ${i} and lead ${i - 1}`).to.not.equal(order[i - 1]);
    for (const leadId of leads) expect(await sendersOf(c.campaignId, leadId, [one, two, three])).to.deep.equal([used.get(leadId)]);
  });

  it('a daily cap of 1 on one of its mailboxes sends the rest through the other; a campaign naming only the capped one waits for it, though the account has another', async () => {
    const c = await newRunningCampaign(db.sequelize);
    const capped = await mailbox(c.accountId, 'capped', { dailyCap: 1 });
    const open = await mailbox(c.accountId, 'open');
    await setMailboxes(db.sequelize, c.campaignId, [capped.id, open.id]);
    const leads = await newLeads(db.sequelize, c.accountId, 4);

    const result = await run(batchInput(c, firstSteps(leads)));
    expect(outcomes(result)).to.deep.equal(['sent', 'sent', 'sent', 'sent']);
    expect(capped.sink.messages).to.have.length(1);
    expect(open.sink.messages).to.have.length(3);
    expect(fallback.messages).to.have.length(0);

    // The cap is the mailbox's, shared by the account's campaigns: one that names only it waits for the next UTC day.
    const onlyCapped = await newRunningCampaign(db.sequelize, { accountId: c.accountId });
    await setMailboxes(db.sequelize, onlyCapped.campaignId, [capped.id]);
    const waiting = await run(batchInput(onlyCapped, firstSteps(await newLeads(db.sequelize, c.accountId, 2))));
    expect(outcomes(waiting)).to.deep.equal(['deferred', 'deferred']);
    expect(capped.sink.messages).to.have.length(1);
    expect(open.sink.messages, 'not through the account\'s other mailbox').to.have.length(3);
    expect(fallback.messages).to.have.length(0);
  });

  it('a follow-up goes from the mailbox that wrote the first email; a lead whose mailbox is taken out of the set moves to one the campaign names', async () => {
    const c = await newRunningCampaign(db.sequelize);
    const [one, two, three] = [await mailbox(c.accountId, 'one'), await mailbox(c.accountId, 'two'), await mailbox(c.accountId, 'three')] as [Box, Box, Box];
    await setMailboxes(db.sequelize, c.campaignId, [one.id, two.id]);
    const leads = await newLeads(db.sequelize, c.accountId, 2);
    const first = await run(batchInput(c, firstSteps(leads)));
    const firstBy = await mailboxByLead(c.campaignId);
    expect(new Set(firstBy.values())).to.deep.equal(new Set([one.id, two.id]));

    // Both mailboxes have room, and the least recently used is not always the lead's: still its own.
    const second = await run(batchInput(c, first.results.map((r) => followUp(r, 1, [r.messageId!]))));
    expect(outcomes(second)).to.deep.equal(['sent', 'sent']);
    const secondBy = await mailboxByLead(c.campaignId, 1);
    for (const leadId of leads) expect(secondBy.get(leadId), 'sticky sender').to.equal(firstBy.get(leadId));

    // The set changes: the lead written by the mailbox taken out moves to the new one (never used:
    // least recently used); the other keeps its mailbox, still named.
    const [movedLead, keptLead] = firstBy.get(leads[0]!) === one.id ? [leads[0]!, leads[1]!] : [leads[1]!, leads[0]!];
    await setMailboxes(db.sequelize, c.campaignId, [two.id, three.id]);
    const third = await run(batchInput(c, second.results.map((r, i) => followUp(r, 2, [first.results[i]!.messageId!, r.messageId!]))));
    expect(outcomes(third)).to.deep.equal(['sent', 'sent']);
    const thirdBy = await mailboxByLead(c.campaignId, 2);
    expect(thirdBy.get(movedLead)).to.equal(three.id);
    expect(thirdBy.get(keptLead)).to.equal(two.id);
    expect(await sendersOf(c.campaignId, movedLead, [one, two, three])).to.deep.equal([one.id, one.id, three.id]);
    expect(await sendersOf(c.campaignId, keptLead, [one, two, three])).to.deep.equal([two.id, two.id, two.id]);
    // The moved lead's third email still replies in its thread.
    const to = await leadEmail(db.sequelize, movedLead);
    const moved = await three.sink.parse(three.sink.to(to)[0]!);
    expect(moved.inReplyTo).to.equal(second.results.find((r) => r.leadId === movedLead)!.messageId);
    expect(fallback.messages).to.have.length(0);
  });

  it('with every mailbox of its set deactivated nothing is sent (not through the account\'s other mailbox, not through the default transport), the wait is logged and shown, and it sends again once one is back', async () => {
    const c = await newRunningCampaign(db.sequelize);
    const [one, two, other] = [await mailbox(c.accountId, 'one'), await mailbox(c.accountId, 'two'), await mailbox(c.accountId, 'other')] as [Box, Box, Box];
    await setMailboxes(db.sequelize, c.campaignId, [one.id, two.id]);
    const [early, ...leads] = await newLeads(db.sequelize, c.accountId, 4);
    const first = await run(batchInput(c, firstSteps([early!])));
    expect(outcomes(first)).to.deep.equal(['sent']);
    const earlyBox = [one, two].find((b) => b.sink.messages.length === 1)!;
    expect(earlyBox).to.not.equal(undefined);
    await deactivateMailbox(db.sequelize, c.accountId, one.id);
    await deactivateMailbox(db.sequelize, c.accountId, two.id);
    expect((await readCampaign(db.sequelize, c.accountId, c.campaignId)).mailboxesReason).to.equal('no_active_mailbox');

    const before = { one: one.sink.messages.length, two: two.sink.messages.length };
    warnings.length = 0;
    const waited = await run(batchInput(c, [...firstSteps(leads), followUp(first.results[0]!, 1, [first.results[0]!.messageId!])]));
    expect(outcomes(waited)).to.deep.equal(['deferred', 'deferred', 'deferred', 'deferred']);
    expect(waited.halted).to.equal(null);
    expect({ one: one.sink.messages.length, two: two.sink.messages.length }).to.deep.equal(before);
    expect(other.sink.messages, 'the account\'s mailbox outside the set').to.have.length(0);
    expect(fallback.messages, 'the default transport').to.have.length(0);
    expect(await rowsOf(db.sequelize, `SELECT id FROM emails WHERE campaign_id = $1`, [c.campaignId]), 'no email row but the first').to.have.length(1);
    const logged = warnings.filter((w) => w.campaignId === c.campaignId);
    expect(logged).to.have.length(1);
    expect(logged[0]!.msg).to.match(/none of its mailboxes \(mailbox_ids\) is active/);
    expect(logged[0]!.mailboxIds).to.deep.equal([one.id, two.id]);

    // The account left without any active mailbox (the default transport's case for a campaign that names none): still nothing.
    await deactivateMailbox(db.sequelize, c.accountId, other.id);
    const stillWaiting = await run(batchInput(c, firstSteps(leads)));
    expect(outcomes(stillWaiting)).to.deep.equal(['deferred', 'deferred', 'deferred']);
    expect(fallback.messages, 'the default transport').to.have.length(0);

    // Added again (the same address: its row comes back active, same id), it sends the steps that waited.
    await createMailbox(db.sequelize, c.accountId, { fromEmail: earlyBox.fromEmail, smtpUrl: `smtp://sam:secret@127.0.0.1:${earlyBox.sink.port}`, dailyCap: 50, minGapSeconds: 0 }, { allowLoopback: true });
    expect((await readCampaign(db.sequelize, c.accountId, c.campaignId)).mailboxesReason).to.equal(null);
    const again = await run(batchInput(c, [...firstSteps(leads), followUp(first.results[0]!, 1, [first.results[0]!.messageId!])]));
    expect(outcomes(again)).to.deep.equal(['sent', 'sent', 'sent', 'sent']);
    expect(earlyBox.sink.messages).to.have.length(5);
    expect(other.sink.messages).to.have.length(0);
    expect(fallback.messages).to.have.length(0);
  });

  it('a campaign that names no mailbox still rotates over every active mailbox of the account', async () => {
    const c = await newRunningCampaign(db.sequelize);
    const [one, two] = [await mailbox(c.accountId, 'one'), await mailbox(c.accountId, 'two')] as [Box, Box];
    const result = await run(batchInput(c, firstSteps(await newLeads(db.sequelize, c.accountId, 4))));
    expect(outcomes(result)).to.deep.equal(['sent', 'sent', 'sent', 'sent']);
    expect([one.sink.messages.length, two.sink.messages.length]).to.deep.equal([2, 2]);
    expect((await readCampaign(db.sequelize, c.accountId, c.campaignId)).mailboxIds).to.equal(null);
  });
});

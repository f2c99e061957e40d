import { expect } from 'chai';
import { createLogger } from '../../src/log/logger';
import { EmailSender } from '../../src/sending/email-sender';
import { smtpTransports } from '../../src/sending/transports';
import type { SendEmailInput, SendEmailResult } from '../../src/sending/types';
import { testConfig } from '../support/api';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { TestSmtpSink } from '../support/smtp-sink';
import { newMailbox } from '../sending/fixtures';
import { countOf, leadEmail, newLeads, newRunningCampaign } from './fixtures';

const log = createLogger('silent', 'test');

/**
 * The reservation of a campaign email is gated on the campaign's row being 'running', in the same
 * statement and under a share lock of that row: a pause committed by the API is never missed,
 * even one that was still in flight when the reservation started.
 */
describe('sending only while the campaign runs (real PostgreSQL, real SMTP sink)', () => {
  let db: TestDatabase;
  let sink: TestSmtpSink;
  let sender: EmailSender;
  const send = (input: SendEmailInput): Promise<SendEmailResult> => sender.send(input);

  before(async () => {
    db = await createTestDatabase();
    sink = await TestSmtpSink.start();
    sender = new EmailSender({ sequelize: db.sequelize, config: testConfig({ SMTP_SINK_PORT: String(sink.port), DEFAULT_FROM_EMAIL: 'outreach@sender.example' }), log });
  });
  after(async () => {
    await smtpTransports.closeAll();
    await sink?.close();
    await db?.drop();
  });

  function input(accountId: string, campaignId: string, leadId: string, onlyWhileRunning = true): SendEmailInput {
    return { accountId, campaignId, leadId, step: 0, content: { subject: 'Hello', html: '<p>Hi</p>', text: 'Hi' }, onlyWhileRunning };
  }

  /** Starts the send while another transaction holds an uncommitted pause, then commits the pause. */
  async function sendDuringPause(accountId: string, campaignId: string, leadId: string): Promise<{ result: SendEmailResult; settledBeforeCommit: boolean }> {
    const pause = await db.sequelize.transaction();
    await db.sequelize.query(`UPDATE campaigns SET status = 'paused', status_reason = 'manual' WHERE id = $1`, { bind: [campaignId], transaction: pause });
    let settled = false;
    const sending = send(input(accountId, campaignId, leadId)).finally(() => (settled = true));
    await new Promise((resolve) => setTimeout(resolve, 400));
    const settledBeforeCommit = settled;
    await pause.commit();
    return { result: await sending, settledBeforeCommit };
  }

  it('a pause still uncommitted when the reservation starts makes it wait, then refuses it (default transport)', async () => {
    const { accountId, campaignId } = await newRunningCampaign(db.sequelize);
    const [leadId] = await newLeads(db.sequelize, accountId, 1);
    const before = sink.messages.length;
    const { result, settledBeforeCommit } = await sendDuringPause(accountId, campaignId, leadId!);
    expect(settledBeforeCommit, 'the reservation waits for the pause to commit or roll back').to.equal(false);
    expect(result.outcome).to.equal('not_running');
    expect(await countOf(db.sequelize, `SELECT count(*) AS n FROM emails WHERE campaign_id = $1`, [campaignId])).to.equal(0);
    expect(sink.messages.length).to.equal(before);
  });

  it('the same through a mailbox (the reservation after the mailbox slot)', async () => {
    const { accountId, campaignId } = await newRunningCampaign(db.sequelize);
    await newMailbox(db.sequelize, accountId, { fromEmail: 'sam@sender.example', smtpUrl: sink.url, minGapSeconds: 0 });
    const [leadId] = await newLeads(db.sequelize, accountId, 1);
    const before = sink.messages.length;
    const { result, settledBeforeCommit } = await sendDuringPause(accountId, campaignId, leadId!);
    expect(settledBeforeCommit).to.equal(false);
    expect(result.outcome).to.equal('not_running');
    expect(await countOf(db.sequelize, `SELECT count(*) AS n FROM emails WHERE campaign_id = $1`, [campaignId])).to.equal(0);
    expect(sink.messages.length).to.equal(before);
  });

  it('a pause that rolls back lets the email go', async () => {
    const { accountId, campaignId } = await newRunningCampaign(db.sequelize);
    const [leadId] = await newLeads(db.sequelize, accountId, 1);
    const pause = await db.sequelize.transaction();
    await db.sequelize.query(`UPDATE campaigns SET status = 'paused' WHERE id = $1`, { bind: [campaignId], transaction: pause });
    const sending = send(input(accountId, campaignId, leadId!));
    await new Promise((resolve) => setTimeout(resolve, 200));
    await pause.rollback();
    expect((await sending).outcome).to.equal('sent');
  });

  it('a deferred email of a paused campaign is not taken back for sending', async () => {
    const { accountId, campaignId } = await newRunningCampaign(db.sequelize);
    const [leadId] = await newLeads(db.sequelize, accountId, 1);
    const email = await leadEmail(db.sequelize, leadId!);
    sink.refuse(email, 451);
    let failed = false;
    try {
      await send(input(accountId, campaignId, leadId!));
    } catch {
      failed = true;
    }
    expect(failed).to.equal(true);
    sink.accept(email);
    await db.sequelize.query(`UPDATE campaigns SET status = 'paused' WHERE id = $1`, { bind: [campaignId] });
    expect((await send(input(accountId, campaignId, leadId!))).outcome).to.equal('not_running');
    expect(await countOf(db.sequelize, `SELECT count(*) AS n FROM emails WHERE campaign_id = $1 AND status = 'deferred'`, [campaignId])).to.equal(1);
    expect(sink.to(email)).to.have.length(0);
  });

  it('without onlyWhileRunning the status is not consulted', async () => {
    const { accountId, campaignId } = await newRunningCampaign(db.sequelize, { status: 'paused' });
    const [leadId] = await newLeads(db.sequelize, accountId, 1);
    expect((await send(input(accountId, campaignId, leadId!, false))).outcome).to.equal('sent');
  });
});

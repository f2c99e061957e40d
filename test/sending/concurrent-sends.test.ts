import { expect } from 'chai';
import type { ApplicationFailure } from '@temporalio/common';
import { activityFailure } from '../../activities/failures';
import { newId } from '../../src/accounts/ids';
import { createLogger } from '../../src/log/logger';
import { EmailSender } from '../../src/sending/email-sender';
import { smtpTransports } from '../../src/sending/transports';
import type { SendEmailInput, SendEmailResult } from '../../src/sending/types';
import { testConfig } from '../support/api';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { TestSmtpSink } from '../support/smtp-sink';
import { count, input, newAccountWithCampaign, newLead } from './fixtures';

/**
 * Sends started in the same turn of the event loop share their statements (group commit, see
 * src/sending/group-commit.ts): these check that what each caller gets is still its own.
 */
describe('concurrent sends of one worker (real SMTP sink, real PostgreSQL)', () => {
  let db: TestDatabase;
  let sink: TestSmtpSink;
  let sender: EmailSender;
  const send = (input: SendEmailInput): Promise<SendEmailResult> => sender.send(input);

  before(async () => {
    db = await createTestDatabase();
    sink = await TestSmtpSink.start();
    const config = testConfig({ SMTP_SINK_PORT: String(sink.port), PUBLIC_BASE_URL: 'https://track.example.test', DEFAULT_FROM_EMAIL: 'outreach@sender.example' });
    sender = new EmailSender({ sequelize: db.sequelize, config, log: createLogger('silent', 'test') });
  });

  after(async () => {
    await smtpTransports.closeAll();
    await sink?.close();
    await db?.drop();
  });

  it('twenty leads at once: each gets its own message, row, facts, cost and events', async () => {
    const { accountId, campaignId } = await newAccountWithCampaign(db.sequelize);
    const addresses = Array.from({ length: 20 }, (_v, i) => `many${i}@lead.example`);
    const leads = await Promise.all(addresses.map((a) => newLead(db.sequelize, accountId, a)));
    const results = await Promise.all(leads.map((leadId) => send(input(accountId, campaignId, leadId))));
    expect(results.map((r) => r.outcome)).to.deep.equal(addresses.map(() => 'sent'));
    for (const [i, address] of addresses.entries()) {
      const received = sink.to(address);
      expect(received, address).to.have.length(1);
      // The Message-ID a caller got back is the one its lead received and its row keeps.
      expect((await sink.parse(received[0]!)).messageId).to.equal(results[i]?.messageId);
      const row = await db.sequelize.query<{ lead_id: string; to_email: string; status: string }>(`SELECT lead_id, to_email, status FROM emails WHERE id = $1`, {
        bind: [results[i]?.emailId],
        type: 'SELECT' as never,
      });
      expect(row).to.deep.equal([{ lead_id: leads[i], to_email: address, status: 'sent' }]);
    }
    const per = async (sql: string): Promise<number> => count(db.sequelize, sql, [campaignId]);
    expect(await per(`SELECT count(*) AS n FROM email_events WHERE campaign_id = $1 AND type = 'sent'`)).to.equal(20);
    expect(await per(`SELECT count(*) AS n FROM email_events WHERE campaign_id = $1 AND type = 'delivered'`)).to.equal(20);
    expect(await per(`SELECT count(*) AS n FROM costs WHERE campaign_id = $1`)).to.equal(20);
    expect(await per(`SELECT count(*) AS n FROM outbox WHERE campaign_id = $1`)).to.equal(60);
    expect(await per(`SELECT count(DISTINCT (data->>'email_id')) AS n FROM outbox WHERE campaign_id = $1 AND event = 'email.sent'`)).to.equal(20);
  });

  it('the same email asked for five times at once is sent once; the other calls send nothing', async () => {
    const { accountId, campaignId } = await newAccountWithCampaign(db.sequelize);
    const leadId = await newLead(db.sequelize, accountId, 'same@lead.example');
    const settled = await Promise.allSettled(Array.from({ length: 5 }, () => send(input(accountId, campaignId, leadId))));
    // A failed call as the activity boundary reports it.
    const outcomes = settled.map((s) => (s.status === 'fulfilled' ? s.value.outcome : (activityFailure(s.reason) as ApplicationFailure).type));
    expect(outcomes.filter((o) => o === 'sent')).to.have.length(1);
    // The others met the first one's row: still sending (retry later) or already sent.
    for (const o of outcomes.filter((x) => x !== 'sent')) expect(o).to.be.oneOf(['SendInProgress', 'already_sent']);
    expect(sink.to('same@lead.example')).to.have.length(1);
    expect(await count(db.sequelize, `SELECT count(*) AS n FROM emails WHERE campaign_id = $1`, [campaignId])).to.equal(1);
    expect(await count(db.sequelize, `SELECT count(*) AS n FROM email_events WHERE campaign_id = $1 AND type = 'sent'`, [campaignId])).to.equal(1);
    expect(await count(db.sequelize, `SELECT count(*) AS n FROM outbox WHERE campaign_id = $1 AND event = 'email.sent'`, [campaignId])).to.equal(1);
  });

  it('a send that fails in the database fails alone: the sends batched with it go out', async () => {
    const { accountId, campaignId } = await newAccountWithCampaign(db.sequelize);
    const good = await Promise.all(['ok1@lead.example', 'ok2@lead.example'].map((a) => newLead(db.sequelize, accountId, a)));
    const orphan = await newLead(db.sequelize, accountId, 'orphan@lead.example');
    const noSuchCampaign = newId('cmp');
    const settled = await Promise.allSettled([
      send(input(accountId, campaignId, good[0]!)),
      send(input(accountId, noSuchCampaign, orphan)),
      send(input(accountId, campaignId, good[1]!)),
    ]);
    expect(settled.map((s) => s.status)).to.deep.equal(['fulfilled', 'rejected', 'fulfilled']);
    expect(settled.filter((s) => s.status === 'fulfilled').map((s) => (s as PromiseFulfilledResult<{ outcome: string }>).value.outcome)).to.deep.equal(['sent', 'sent']);
    expect(String((settled[1] as PromiseRejectedResult).reason)).to.match(/foreign key/);
    expect(sink.to('ok1@lead.example')).to.have.length(1);
    expect(sink.to('ok2@lead.example')).to.have.length(1);
    expect(sink.to('orphan@lead.example')).to.have.length(0);
    expect(await count(db.sequelize, `SELECT count(*) AS n FROM emails WHERE lead_id = $1`, [orphan])).to.equal(0);
  });
});

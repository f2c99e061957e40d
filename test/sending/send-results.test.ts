import { expect } from 'chai';
import { QueryTypes, type Sequelize } from 'sequelize';
import { newId } from '../../src/accounts/ids';
import { recordCost } from '../../src/costs/cost-repository';
import { recordEmailFact } from '../../src/sending/email-event-repository';
import { recordAccepted, type SentEmailRef } from '../../src/sending/send-results';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { newAccountWithCampaign, newLead } from './fixtures';

async function newSendingEmail(sequelize: Sequelize, accountId: string, campaignId: string, address: string): Promise<SentEmailRef> {
  const leadId = await newLead(sequelize, accountId, address);
  const emailId = newId('em');
  const messageId = `<${emailId}.abc@sender.example>`;
  await sequelize.query(
    `INSERT INTO emails (id, account_id, campaign_id, lead_id, step, from_email, to_email, subject, message_id, status, attempts)
     VALUES ($1, $2, $3, $4, 2, 'a@sender.example', $5, 'Hi', $6, 'sending', 1)`,
    { bind: [emailId, accountId, campaignId, leadId, address, messageId] },
  );
  return { emailId, accountId, campaignId, leadId, step: 2, messageId, toEmail: address };
}

/** Everything recorded about one email, with its own ids replaced so two emails compare equal. */
async function recorded(sequelize: Sequelize, ref: SentEmailRef) {
  const ids: Array<[string, string]> = [[ref.emailId, 'EMAIL'], [ref.leadId, 'LEAD'], [ref.messageId, 'MSGID'], [ref.campaignId, 'CAMPAIGN'], [ref.accountId, 'ACCOUNT']];
  const anon = (v: unknown): unknown => JSON.parse(ids.reduce((s, [id, name]) => s.split(id).join(name), JSON.stringify(v)));
  const events = await sequelize.query(`SELECT account_id, campaign_id, email_id, lead_id, type, data, dedupe_key FROM email_events WHERE email_id = $1 ORDER BY type`, {
    bind: [ref.emailId],
    type: QueryTypes.SELECT,
  });
  const costs = await sequelize.query(
    `SELECT account_id, campaign_id, category, cost_name, feature_slug, brand_id, amount_usd, quantity, details, idempotency_key FROM costs WHERE idempotency_key = $1`,
    { bind: [`send:${ref.emailId}`], type: QueryTypes.SELECT },
  );
  // Each email has a campaign of its own here, so the campaign's outbox rows are this email's.
  const outbox = await sequelize.query<{ event: string; data: Record<string, unknown> }>(
    `SELECT account_id, campaign_id, event, data, dispatched_at FROM outbox WHERE campaign_id = $1 ORDER BY event`,
    { bind: [ref.campaignId], type: QueryTypes.SELECT },
  );
  for (const o of outbox) delete o.data.occurred_at;
  return anon({ events, costs, outbox });
}

describe('recording an accepted email in one statement', () => {
  let db: TestDatabase;
  before(async () => {
    db = await createTestDatabase();
  });
  after(async () => {
    await db?.drop();
  });

  it('writes exactly the rows recordEmailFact and recordCost write', async () => {
    const a = await newAccountWithCampaign(db.sequelize);
    const fast = await newSendingEmail(db.sequelize, a.accountId, a.campaignId, 'fast@lead.example');
    await recordAccepted(db.sequelize, fast, '250 2.0.0 queued', 0.0025);

    const { accountId, campaignId } = await newAccountWithCampaign(db.sequelize);
    const slow = await newSendingEmail(db.sequelize, accountId, campaignId, 'slow@lead.example');
    const at = new Date();
    await db.sequelize.transaction(async (tx) => {
      await db.sequelize.query(`UPDATE emails SET status = 'sent', smtp_response = '250 2.0.0 queued', sent_at = $2 WHERE id = $1`, { bind: [slow.emailId, at.toISOString()], transaction: tx });
      const fact = { accountId, campaignId, emailId: slow.emailId, leadId: slow.leadId, occurredAt: at, data: { step: 2, message_id: slow.messageId } };
      await recordEmailFact(db.sequelize, tx, { ...fact, type: 'sent', dedupeKey: `sent:${slow.emailId}` });
      await recordEmailFact(db.sequelize, tx, { ...fact, type: 'delivered', dedupeKey: `delivered:${slow.emailId}` });
      await recordCost(db.sequelize, tx, {
        accountId,
        campaignId,
        category: 'email_sending',
        costName: 'smtp',
        featureSlug: 'email-sending',
        amountUsd: 0.0025,
        details: { email_id: slow.emailId },
        idempotencyKey: `send:${slow.emailId}`,
        occurredAt: at,
      });
    });

    const mine = await recorded(db.sequelize, fast);
    expect(mine).to.deep.equal(await recorded(db.sequelize, slow));
    expect((mine as { events: unknown[] }).events).to.have.length(2);
    expect((mine as { outbox: Array<{ event: string }> }).outbox.map((o) => o.event)).to.deep.equal(['cost.recorded', 'email.delivered', 'email.sent']);

    const [row] = await db.sequelize.query<{ status: string; smtp_response: string; sent_at: Date }>(`SELECT status, smtp_response, sent_at FROM emails WHERE id = $1`, {
      bind: [fast.emailId],
      type: QueryTypes.SELECT,
    });
    expect(row).to.include({ status: 'sent', smtp_response: '250 2.0.0 queued' });
    expect(row?.sent_at).to.be.instanceOf(Date);
  });

  it('recording it again writes nothing more', async () => {
    const { accountId, campaignId } = await newAccountWithCampaign(db.sequelize);
    const ref = await newSendingEmail(db.sequelize, accountId, campaignId, 'again@lead.example');
    await recordAccepted(db.sequelize, ref, '250 ok', 0.001);
    const count = async (table: string): Promise<number> =>
      Number((await db.sequelize.query<{ n: string }>(`SELECT count(*) AS n FROM ${table} WHERE campaign_id = $1`, { bind: [campaignId], type: QueryTypes.SELECT }))[0]?.n);
    const before = [await count('email_events'), await count('costs'), await count('outbox')];
    expect(before).to.deep.equal([2, 1, 3]);
    await recordAccepted(db.sequelize, ref, '250 ok', 0.001);
    expect([await count('email_events'), await count('costs'), await count('outbox')]).to.deep.equal(before);
  });
});

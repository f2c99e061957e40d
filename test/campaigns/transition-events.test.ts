import { expect } from 'chai';
import { createActivities } from '../../activities';
import { createLogger } from '../../src/log/logger';
import type { CampaignTransition } from '../../workflows/campaign/contract';
import { testConfig } from '../support/api';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { newLeads, newRunningCampaign, rowsOf } from './fixtures';

interface OutboxRow {
  id: string;
  event: string;
  campaign_id: string;
  data: Record<string, unknown>;
  created_at: Date;
}

describe('campaign transitions and events (real PostgreSQL)', () => {
  let db: TestDatabase;
  let activities: ReturnType<typeof createActivities>;

  before(async () => {
    db = await createTestDatabase();
    activities = createActivities({ sequelize: db.sequelize, config: testConfig(), log: createLogger('silent', 'test') });
  });
  after(async () => {
    await db?.drop();
  });

  const outbox = (campaignId: string): Promise<OutboxRow[]> =>
    rowsOf<OutboxRow>(db.sequelize, `SELECT id, event, campaign_id, data, created_at FROM outbox WHERE campaign_id = $1 ORDER BY created_at, event`, [campaignId]);
  const campaignRow = async (campaignId: string): Promise<Record<string, unknown>> =>
    (await rowsOf<Record<string, unknown>>(db.sequelize, `SELECT * FROM campaigns WHERE id = $1`, [campaignId]))[0]!;

  it('writes the status, its timestamps and its events together; a retried transition adds nothing', async () => {
    const { accountId, campaignId } = await newRunningCampaign(db.sequelize, { status: 'starting' });
    const running: CampaignTransition = {
      campaignId,
      accountId,
      status: 'running',
      reason: null,
      at: '2026-03-02T00:00:00.000Z',
      events: [{ event: 'campaign.started', data: { mcp: 'sales_outreach', target_url: 'https://target.example' } }],
    };
    await activities.recordCampaignTransition(running);
    await activities.recordCampaignTransition(running); // Temporal retrying after a lost completion

    const row = await campaignRow(campaignId);
    expect(row.status).to.equal('running');
    expect((row.started_at as Date).toISOString()).to.equal('2026-03-02T00:00:00.000Z');
    expect(row.resumed_at).to.equal(null);
    const events = await outbox(campaignId);
    expect(events).to.have.length(1);
    expect(events[0]).to.deep.include({ event: 'campaign.started', campaign_id: campaignId, data: { mcp: 'sales_outreach', target_url: 'https://target.example' } });
    expect(events[0]!.created_at.toISOString()).to.equal('2026-03-02T00:00:00.000Z');
    expect(events[0]!.id).to.match(/^evt_[A-Za-z0-9]{16}$/);

    await activities.recordCampaignTransition({ ...running, status: 'paused', reason: 'manual', at: '2026-03-03T10:00:00.000Z', events: [{ event: 'campaign.paused', data: { reason: 'manual' } }] });
    await activities.recordCampaignTransition({ ...running, at: '2026-03-04T09:00:00.000Z', events: [] });
    const resumed = await campaignRow(campaignId);
    expect((resumed.paused_at as Date).toISOString()).to.equal('2026-03-03T10:00:00.000Z');
    expect((resumed.started_at as Date).toISOString(), 'the first start stays').to.equal('2026-03-02T00:00:00.000Z');
    expect((resumed.resumed_at as Date).toISOString()).to.equal('2026-03-04T09:00:00.000Z');
    expect((await outbox(campaignId)).map((e) => e.event)).to.deep.equal(['campaign.started', 'campaign.paused']);
  });

  it('is one transaction: when the event cannot be written, the status does not change either', async () => {
    const { accountId, campaignId } = await newRunningCampaign(db.sequelize, { status: 'running' });
    // An account id the outbox's foreign key refuses: the second statement of the transaction fails.
    let failed = false;
    try {
      await activities.recordCampaignTransition({ campaignId, accountId: 'acc_missing', status: 'completed', reason: 'trial_ended', at: '2026-03-10T00:00:00.000Z', events: [{ event: 'campaign.completed', data: {} }] });
    } catch {
      failed = true;
    }
    expect(failed).to.equal(true);
    const row = await campaignRow(campaignId);
    expect(row.status).to.equal('running');
    expect(row.completed_at).to.equal(null);
    expect(await outbox(campaignId)).to.have.length(0);
    await activities.recordCampaignTransition({ campaignId, accountId, status: 'completed', reason: 'trial_ended', at: '2026-03-10T00:00:00.000Z' });
    expect((await campaignRow(campaignId)).status).to.equal('completed');
  });

  it('emitCampaignEvents: each event once across retries, distinct events at one instant all kept', async () => {
    const { accountId, campaignId } = await newRunningCampaign(db.sequelize);
    const warning = (budgetType: string) => ({ event: 'campaign.budget_warning', data: { budget_type: budgetType, spent_usd: 8, limit_usd: 10, percentage: 80 } });
    const input = { campaignId, accountId, at: '2026-03-05T12:00:00.000Z', events: [warning('daily'), warning('weekly'), { event: 'budget.warning', data: { budget_type: 'daily' } }] };
    await activities.emitCampaignEvents(input);
    await activities.emitCampaignEvents(input);
    const events = await outbox(campaignId);
    expect(events).to.have.length(3);
    expect(new Set(events.map((e) => e.id)).size).to.equal(3);
    // The same events at a later instant are new events.
    await activities.emitCampaignEvents({ ...input, at: '2026-03-06T12:00:00.000Z' });
    expect(await outbox(campaignId)).to.have.length(6);
  });

  it('fills statistics from the database: stats for a milestone, final_stats and total cost on completion', async () => {
    const { accountId, campaignId } = await newRunningCampaign(db.sequelize);
    const [a, b] = await newLeads(db.sequelize, accountId, 2);
    const emails = [
      { id: 'em_fill1', lead: a, opened: true, replied: true },
      { id: 'em_fill2', lead: b, opened: true, replied: false },
    ];
    for (const e of emails) {
      await db.sequelize.query(
        `INSERT INTO emails (id, account_id, campaign_id, lead_id, step, from_email, to_email, subject, message_id, status, sent_at)
         VALUES ($1, $2, $3, $4, 0, 'me@x.example', 'to@x.example', 'Hi', '<' || $1 || '@x>', 'sent', now())`,
        { bind: [e.id, accountId, campaignId, e.lead] },
      );
      const types = ['sent', 'delivered', ...(e.opened ? ['opened'] : []), ...(e.replied ? ['replied'] : [])];
      for (const type of types) {
        await db.sequelize.query(`INSERT INTO email_events (account_id, campaign_id, email_id, lead_id, type, occurred_at, dedupe_key) VALUES ($1, $2, $3, $4, $5, now(), $5 || ':' || $3)`, {
          bind: [accountId, campaignId, e.id, e.lead, type],
        });
      }
    }
    await db.sequelize.query(
      `INSERT INTO email_events (account_id, campaign_id, email_id, lead_id, type, occurred_at, dedupe_key) VALUES ($1, $2, 'em_fill1', $3, 'meeting_booked', now(), 'meeting:test:1')`,
      { bind: [accountId, campaignId, a] },
    );
    await db.sequelize.query(
      `INSERT INTO costs (account_id, campaign_id, category, cost_name, feature_slug, amount_usd, idempotency_key) VALUES
         ($1, $2, 'email_sending', 'smtp', 'email-sending', 0.001, 'fill-1'), ($1, $2, 'ai_generation', 'openai:x', 'email-writing', 0.0125, 'fill-2')`,
      { bind: [accountId, campaignId] },
    );

    await activities.emitCampaignEvents({ campaignId, accountId, at: '2026-03-07T00:00:00.000Z', events: [{ event: 'campaign.milestone', data: { milestone: '100_emails' }, fill: 'stats' }] });
    await activities.recordCampaignTransition({
      campaignId,
      accountId,
      status: 'completed',
      reason: 'trial_ended',
      at: '2026-03-08T00:00:00.000Z',
      events: [{ event: 'campaign.completed', data: { reason: 'trial_ended' }, fill: 'final_stats' }],
    });
    // A retry after the figures moved (one more open) writes nothing: the first write's figures stand.
    await db.sequelize.query(`INSERT INTO email_events (account_id, campaign_id, email_id, lead_id, type, occurred_at, dedupe_key) VALUES ($1, $2, 'em_fill2', $3, 'clicked', now(), 'clicked:em_fill2:0')`, {
      bind: [accountId, campaignId, b],
    });
    await activities.emitCampaignEvents({ campaignId, accountId, at: '2026-03-07T00:00:00.000Z', events: [{ event: 'campaign.milestone', data: { milestone: '100_emails' }, fill: 'stats' }] });
    expect(await outbox(campaignId)).to.have.length(2);
    const [milestone, completed] = await outbox(campaignId);
    expect(milestone!.data).to.deep.equal({ milestone: '100_emails', stats: { emails_sent: 2, delivered: 2, opened: 2, replied: 1 } });
    expect(completed!.data).to.deep.equal({
      reason: 'trial_ended',
      final_stats: { emails_sent: 2, delivered: 2, opened: 2, replied: 1, meetings_booked: 1 },
      total_cost_usd: 0.0135,
    });
  });

  it('a pause the API committed after the instant of a transition wins: the late running leaves the row paused, its events still written; completed always wins', async () => {
    const { accountId, campaignId } = await newRunningCampaign(db.sequelize, { status: 'starting' });
    // The API commits a pause at 10:00:05 while the workflow's move to running (instant 10:00:00) is still on its way.
    await db.sequelize.query(`UPDATE campaigns SET status = 'paused', status_reason = 'manual', paused_at = '2026-03-02T10:00:05Z' WHERE id = $1`, { bind: [campaignId] });
    const base = { campaignId, accountId, reason: null };
    await activities.recordCampaignTransition({ ...base, status: 'running', at: '2026-03-02T10:00:00.000Z', events: [{ event: 'campaign.started', data: { mcp: 'sales_outreach', target_url: 'https://target.example' } }] });
    let row = await campaignRow(campaignId);
    expect([row.status, row.status_reason]).to.deep.equal(['paused', 'manual']);
    expect((await outbox(campaignId)).map((e) => e.event)).to.deep.equal(['campaign.started']);

    // The workflow then applies the pause signal at the API's instant: written as it is.
    await activities.recordCampaignTransition({ ...base, status: 'paused', reason: 'manual', at: '2026-03-02T10:00:05.000Z', events: [] });
    // And a resume after it moves the row again.
    await activities.recordCampaignTransition({ ...base, status: 'running', at: '2026-03-02T11:00:00.000Z', events: [] });
    row = await campaignRow(campaignId);
    expect(row.status).to.equal('running');

    // A completion is written even when its instant (the trial's end) is before a later pause.
    await db.sequelize.query(`UPDATE campaigns SET status = 'paused', status_reason = 'manual', paused_at = '2026-03-09T10:00:00Z' WHERE id = $1`, { bind: [campaignId] });
    await activities.recordCampaignTransition({ ...base, status: 'completed', reason: 'trial_ended', at: '2026-03-09T09:00:00.000Z', events: [] });
    row = await campaignRow(campaignId);
    expect([row.status, row.status_reason]).to.deep.equal(['completed', 'trial_ended']);
  });
});

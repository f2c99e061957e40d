import { createHmac } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { defaultPayloadConverter } from '@temporalio/common';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { expect } from 'chai';
import pino from 'pino';
import { buildApp } from '../../src/api/app';
import { LeadFactSignals, type LeadFactNotice } from '../../src/campaigns/control/lead-fact-signals';
import { listen, type RunningHttpServer } from '../../src/runtime/http-server';
import { TemporalClientProvider } from '../../src/temporal/client';
import { startTracking, type Tracking } from '../../src/tracking/tracking';
import { campaignWorkflowId, type CampaignWorkflowInput, type LeadFactSignal } from '../../workflows/campaign/contract';
import { request, testConfig } from '../support/api';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { createTimeSkippingEnv } from '../support/time-skipping';
import { loadMime } from '../replies/mime-fixtures';
import { seedSentEmail, type SentFixture } from '../replies/seed';

const INBOUND_SECRET = 'inbound-secret-for-lead-fact-tests';
const CALCOM_SECRET = 'calcom-secret-for-lead-fact-tests';

/** A logger whose lines the test can read. */
function capturingLogger(): { log: pino.Logger; lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line.trim() !== '') lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { log: pino({ level: 'info' }, stream), lines };
}

/**
 * The API tells a campaign's workflow when a lead's sequence ends (reply, unsubscribe, booking,
 * bounce). The workflow here runs on a real (time-skipping) Temporal server without a worker:
 * the signals it received are read back from its history, whatever the workflow code does with them.
 */
describe('lead-fact signals to the campaign workflow (real Temporal test server, real API)', () => {
  let env: TestWorkflowEnvironment;
  let db: TestDatabase;
  let tracking: Tracking;
  let server: RunningHttpServer;
  let baseUrl: string;
  let journalDir: string;
  const captured = capturingLogger();
  let signals: LeadFactSignals;

  before(async () => {
    env = await createTimeSkippingEnv();
    db = await createTestDatabase();
    const config = testConfig({ INBOUND_SECRET });
    journalDir = await fs.mkdtemp(path.join(os.tmpdir(), 'outreach-lead-facts-'));
    tracking = await startTracking({ sequelize: db.sequelize, config, log: captured.log, journalDir });
    signals = new LeadFactSignals({ get: () => env.client }, captured.log);
    // The API's own Temporal client is never used by these routes: the signals go through `signals`.
    const temporal = new TemporalClientProvider({ address: '127.0.0.1:1', namespace: 'default' });
    const { app } = buildApp({ config, sequelize: db.sequelize, log: captured.log, temporal, tracking, leadFacts: signals });
    server = await listen(app, '127.0.0.1', 0);
    baseUrl = server.url.replace('localhost', '127.0.0.1');
  });
  after(async () => {
    await server?.close(1_000);
    await tracking?.close();
    await signals?.idle();
    await env?.teardown();
    await db?.drop();
    if (journalDir) await fs.rm(journalDir, { recursive: true, force: true });
  });

  /** Starts the campaign's workflow on a task queue no worker polls: it only collects signals. */
  async function startWorkflow(f: Pick<SentFixture, 'campaignId' | 'accountId'>) {
    const input: CampaignWorkflowInput = { campaignId: f.campaignId, accountId: f.accountId, mcp: 'sales_outreach', targetUrl: 'https://target.test' };
    return env.client.workflow.start('campaignWorkflow', { taskQueue: 'no-worker-here', workflowId: campaignWorkflowId(f.campaignId), args: [input] });
  }

  async function leadFactsOf(campaignId: string): Promise<LeadFactSignal[]> {
    await signals.idle();
    const history = await env.client.workflow.getHandle(campaignWorkflowId(campaignId)).fetchHistory();
    return (history.events ?? [])
      .map((e) => e.workflowExecutionSignaledEventAttributes)
      .filter((a) => a?.signalName === 'leadFact')
      .map((a) => defaultPayloadConverter.fromPayload<LeadFactSignal>(a!.input!.payloads![0]!));
  }

  it('signals the running workflow of the campaign', async () => {
    const f = await seedSentEmail(db.sequelize);
    await startWorkflow(f);
    const notice: LeadFactNotice = { campaignId: f.campaignId, leadId: f.leadId, fact: 'replied' };
    expect(await signals.signal(notice)).to.equal(true);
    expect(await leadFactsOf(f.campaignId)).to.deep.equal([{ leadId: f.leadId, fact: 'replied' }]);
  });

  it('a campaign without a workflow: logged, never thrown', async () => {
    const f = await seedSentEmail(db.sequelize);
    expect(await signals.signal({ campaignId: f.campaignId, leadId: f.leadId, fact: 'bounced' })).to.equal(false);
    const line = captured.lines.find((l) => l.campaignId === f.campaignId);
    expect(line?.msg).to.match(/no running workflow/);
    expect(line?.level, 'expected (a finished campaign), so not a warning').to.equal(30);
  });

  it('Temporal unreachable: given up after its deadline, logged, never thrown', async () => {
    const down = new TemporalClientProvider({ address: '127.0.0.1:1', namespace: 'default' });
    const { log, lines } = capturingLogger();
    try {
      const started = Date.now();
      expect(await new LeadFactSignals(down, log, 1_000).signal({ campaignId: 'cmp_nowhere', leadId: 'lead_x', fact: 'replied' })).to.equal(false);
      expect(Date.now() - started).to.be.lessThan(10_000);
      expect(lines.some((l) => l.level === 40 && l.campaignId === 'cmp_nowhere')).to.equal(true);
    } finally {
      await down.close();
    }
  });

  it('the API signals after it recorded: one-click unsubscribe, a reply, an unsubscribe reply, a hard-bounce DSN, a Cal.com booking', async () => {
    const unsubscribed = await seedSentEmail(db.sequelize);
    const replied = await seedSentEmail(db.sequelize);
    const bounced = await seedSentEmail(db.sequelize);
    const booked = await seedSentEmail(db.sequelize);
    const auto = await seedSentEmail(db.sequelize);
    const stopMe = await seedSentEmail(db.sequelize);
    for (const f of [unsubscribed, replied, bounced, booked, auto, stopMe]) await startWorkflow(f);

    const unsubscribePath = new URL(tracking.links.unsubscribeUrl(unsubscribed.emailId)).pathname;
    const unsub = await request(`${baseUrl}${unsubscribePath}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'List-Unsubscribe=One-Click' });
    expect(unsub.status).to.equal(200);

    const inbound = async (name: string, f: SentFixture): Promise<void> => {
      const res = await request(`${baseUrl}/inbound/mime`, {
        method: 'POST',
        headers: { 'content-type': 'message/rfc822', 'x-inbound-secret': INBOUND_SECRET },
        body: loadMime(name, { SENT_ID: f.messageId, LEAD: f.leadEmail }),
      });
      expect(res.status, name).to.equal(200);
    };
    await inbound('gmail-reply.eml', replied);
    await inbound('dsn-hard.eml', bounced);
    await inbound('auto-reply.eml', auto);
    await inbound('unsubscribe-reply.eml', stopMe);

    await db.sequelize.query(`INSERT INTO account_integrations (account_id, calcom_webhook_secret) VALUES ($1, $2)`, { bind: [booked.accountId, CALCOM_SECRET] });
    const booking = JSON.stringify({
      triggerEvent: 'BOOKING_CREATED',
      createdAt: '2025-11-17T10:00:00.000Z',
      payload: {
        title: 'Intro call',
        startTime: '2025-11-20T15:00:00Z',
        endTime: '2025-11-20T15:30:00Z',
        organizer: { email: 'sam@outreach.test', name: 'Sam Sender', timeZone: 'Europe/London' },
        attendees: [{ email: booked.leadEmail, name: 'Jane Doe', timeZone: 'America/New_York' }],
        uid: 'booking-lead-fact-1',
      },
    });
    const signature = createHmac('sha256', CALCOM_SECRET).update(booking).digest('hex');
    const meeting = await request<{ outcome: string }>(`${baseUrl}/webhooks/calcom/${booked.accountId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-cal-signature-256': signature },
      body: booking,
    });
    expect(meeting.body.outcome).to.equal('recorded');

    expect(await leadFactsOf(unsubscribed.campaignId)).to.deep.equal([{ leadId: unsubscribed.leadId, fact: 'unsubscribed' }]);
    expect(await leadFactsOf(replied.campaignId)).to.deep.equal([{ leadId: replied.leadId, fact: 'replied' }]);
    expect(await leadFactsOf(bounced.campaignId)).to.deep.equal([{ leadId: bounced.leadId, fact: 'bounced' }]);
    expect(await leadFactsOf(booked.campaignId)).to.deep.equal([{ leadId: booked.leadId, fact: 'meeting_booked' }]);
    expect(await leadFactsOf(stopMe.campaignId)).to.deep.equal([
      { leadId: stopMe.leadId, fact: 'replied' },
      { leadId: stopMe.leadId, fact: 'unsubscribed' },
    ]);
    // An out-of-office answer is not a reply: the sequence goes on, nothing is signalled.
    expect(await leadFactsOf(auto.campaignId)).to.deep.equal([]);

    // Recorded facts are signalled once: the same unsubscribe again changes nothing.
    await request(`${baseUrl}${unsubscribePath}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'List-Unsubscribe=One-Click' });
    expect(await leadFactsOf(unsubscribed.campaignId)).to.have.length(1);
  });
});

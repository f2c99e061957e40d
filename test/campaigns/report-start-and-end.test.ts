import { Client, Connection, WorkflowNotFoundError, type WorkflowExecutionDescription } from '@temporalio/client';
import { defaultPayloadConverter } from '@temporalio/common';
import { expect } from 'chai';
import type { ParsedMail } from 'mailparser';
import { QueryTypes } from 'sequelize';
import { createActivities } from '../../activities';
import { startCampaign } from '../../src/campaigns/control/start-campaign';
import { createLogger } from '../../src/log/logger';
import { sweepReportSchedules } from '../../src/worker/report-schedule-sweep';
import { temporalReportNotifier } from '../../src/worker/temporal-report-notifier';
import { reportScheduleWorkflowId, type ReportScheduleInput } from '../../workflows/reports/contract';
import { createAccount, request, surfaceA, testConfig, type JsonResponse } from '../support/api';
import { seedCampaign } from '../support/campaign-seed';
import { useCampaignStack } from '../support/campaign-stack';
import { startFakeApollo, type FakeApollo } from '../support/fake-apollo';
import { pages, startFakeSite, type FakeSite } from '../support/fake-site';

interface ReportRow {
  kind: string;
  period_start: Date;
  period_end: Date;
  recipient: string;
  status: string;
}

/**
 * Where the report schedule begins and ends, on the real stack (PostgreSQL, a Temporal dev server,
 * the worker with the real activities sending into the SMTP sink, the API): a campaign created with
 * `reporting.email` gets `campaign-reports-<id>` (read through the Temporal client), one without
 * does not; a campaign that fails (the lead provider refuses the account's key) or completes gets
 * its final report by email at once, through the record-transition activity's signal; and the
 * worker's sweep starts a schedule that a campaign lacks.
 */
describe('report schedule: started with the campaign, ended by its end (real stack)', function () {
  this.timeout(180_000);
  let apollo: FakeApollo;
  let site: FakeSite;
  const env: Record<string, string> = {};
  // Before the stack's hook: the worker starts with APOLLO_API_URL pointing at the fake.
  before(async () => {
    apollo = await startFakeApollo({ keys: ['the-right-key'] });
    env.APOLLO_API_URL = apollo.url;
    site = await startFakeSite(pages({ '/': [200, { 'content-type': 'text/html' }, '<html><head><title>Acme</title></head><body><p>Acme forecasts demand.</p></body></html>'] }));
  });
  after(async () => {
    await apollo?.close();
    await site?.close();
  });
  const t = useCampaignStack(env);
  let client: Client;
  let connection: Connection;
  before(async () => {
    connection = await Connection.connect({ address: t.temporal.address });
    client = new Client({ connection, namespace: 'default' });
  });
  after(async () => connection?.close());

  const createCampaign = (key: string, body: Record<string, unknown>): Promise<JsonResponse<{ id: string; created_at: string; error?: string }>> =>
    request(`${t.api.baseUrl}/campaigns`, { method: 'POST', headers: { ...surfaceA(key), 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const describeSchedule = (campaignId: string): Promise<WorkflowExecutionDescription> => client.workflow.getHandle(reportScheduleWorkflowId(campaignId)).describe();
  const scheduleInput = async (campaignId: string): Promise<ReportScheduleInput> => {
    const history = await client.workflow.getHandle(reportScheduleWorkflowId(campaignId)).fetchHistory();
    const payload = history.events?.[0]?.workflowExecutionStartedEventAttributes?.input?.payloads?.[0];
    return defaultPayloadConverter.fromPayload<ReportScheduleInput>(payload!);
  };
  const reportRows = (campaignId: string): Promise<ReportRow[]> =>
    t.db.sequelize.query<ReportRow>(`SELECT kind, period_start, period_end, recipient, status FROM campaign_reports WHERE campaign_id = $1 ORDER BY created_at`, {
      bind: [campaignId],
      type: QueryTypes.SELECT,
    });
  async function until<T>(what: string, read: () => Promise<T>, done: (v: T) => boolean, ms = 60_000): Promise<T> {
    const deadline = Date.now() + ms;
    for (;;) {
      const v = await read();
      if (done(v)) return v;
      if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms (last: ${JSON.stringify(v)})`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  const mailsTo = async (address: string, count: number): Promise<ParsedMail[]> => {
    await until(`${count} email(s) to ${address}`, async () => t.sink.to(address).length, (n) => n >= count);
    return Promise.all(t.sink.to(address).map((m) => t.sink.parse(m)));
  };
  const statusOf = async (campaignId: string): Promise<string> =>
    ((await t.db.sequelize.query<{ status: string }>(`SELECT status FROM campaigns WHERE id = $1`, { bind: [campaignId], type: QueryTypes.SELECT }))[0]?.status ?? 'gone');
  // The campaign workflows these tests start would go on planning: end them with the test.
  const campaignsStarted: string[] = [];
  afterEach(async () => {
    for (const id of campaignsStarted.splice(0)) await client.workflow.getHandle(`campaign-${id}`).terminate('test over').catch(() => undefined);
  });

  it('POST /campaigns with reporting.email starts campaign-reports-<id> with the campaign\'s frequency, time zone and creation; without an email there is none', async () => {
    const { apiKey } = await createAccount(t.db.sequelize, 'pro');
    const start = '2099-01-05'; // the campaign waits for its start date: nothing else happens meanwhile
    const withEmail = await createCampaign(apiKey, {
      mcp: 'sales_outreach',
      target_url: 'https://never-resolves.invalid',
      schedule: { start_date: start, timezone: 'Europe/Berlin' },
      reporting: { email: 'owner@client.example', frequency: 'weekly' },
    });
    expect(withEmail.status, withEmail.text).to.equal(201);
    const without = await createCampaign(apiKey, { mcp: 'sales_outreach', target_url: 'https://never-resolves.invalid', schedule: { start_date: start } });
    expect(without.status, without.text).to.equal(201);
    campaignsStarted.push(withEmail.body.id, without.body.id);

    const described = await describeSchedule(withEmail.body.id);
    expect(described.type).to.equal('campaignReportScheduleWorkflow');
    expect(described.status.name).to.equal('RUNNING');
    expect(described.taskQueue).to.equal(t.worker.worker.options.taskQueue);
    const input = await scheduleInput(withEmail.body.id);
    expect(input).to.deep.equal({ campaignId: withEmail.body.id, accountId: input.accountId, frequency: 'weekly', timeZone: 'Europe/Berlin', since: Date.parse(withEmail.body.created_at) });
    let missing: unknown;
    await describeSchedule(without.body.id).catch((err: unknown) => (missing = err));
    expect(missing).to.be.instanceOf(WorkflowNotFoundError);

    // reporting.frequency left out: the spec's example value, daily.
    const byDefault = await createCampaign(apiKey, { mcp: 'sales_outreach', target_url: 'https://never-resolves.invalid', schedule: { start_date: start }, reporting: { email: 'owner@client.example' } });
    campaignsStarted.push(byDefault.body.id);
    expect(await scheduleInput(byDefault.body.id)).to.deep.include({ frequency: 'daily', timeZone: 'UTC' });
  });

  it('a campaign that fails (the lead provider refuses the account\'s key) sends its final report at once, from its creation to the failure, and the schedule ends', async () => {
    const { accountId, apiKey } = await createAccount(t.db.sequelize, 'pro');
    await t.db.sequelize.query(`INSERT INTO account_integrations (account_id, apollo_api_key) VALUES ($1, 'a-revoked-key')`, { bind: [accountId] });
    const recipient = 'failing.owner@client.example';
    const created = await createCampaign(apiKey, { mcp: 'sales_outreach', target_url: site.origin, reporting: { email: recipient, frequency: 'daily' } });
    expect(created.status, created.text).to.equal(201);
    const id = created.body.id;
    campaignsStarted.push(id);

    await until('campaign failed', () => statusOf(id), (s) => s === 'failed');
    const [mail] = await mailsTo(recipient, 1);
    expect(mail?.html || mail?.text, 'a report').to.be.a('string').and.not.equal('');
    await until('schedule completed', async () => (await describeSchedule(id)).status.name, (s) => s === 'COMPLETED');
    const { failed_at: failedAt, status_reason: reason } = (
      await t.db.sequelize.query<{ failed_at: Date; status_reason: string }>(`SELECT failed_at, status_reason FROM campaigns WHERE id = $1`, { bind: [id], type: QueryTypes.SELECT })
    )[0]!;
    expect(reason).to.match(/^ProviderKeyRejected: /);
    const rows = await reportRows(id);
    expect(rows.map((r) => [r.kind, r.period_start.toISOString(), r.period_end.toISOString(), r.recipient, r.status])).to.deep.equal([
      ['final', created.body.created_at, failedAt.toISOString(), recipient, 'sent'],
    ]);
  });

  it('a campaign that completes (the record-transition activity the workflow calls, with the notifier the worker uses) sends its final report; a retried transition sends nothing more', async () => {
    const { accountId, apiKey } = await createAccount(t.db.sequelize, 'pro');
    const recipient = 'completing.owner@client.example';
    const created = await createCampaign(apiKey, { mcp: 'sales_outreach', target_url: 'https://never-resolves.invalid', schedule: { start_date: '2099-01-05' }, reporting: { email: recipient } });
    expect(created.status, created.text).to.equal(201);
    const id = created.body.id;
    campaignsStarted.push(id);
    // A 14-day trial cannot end in real time: the transition the workflow would record, through the real activity.
    const activities = createActivities({ sequelize: t.db.sequelize, config: testConfig(t.env), log: createLogger('silent', 'test'), reports: temporalReportNotifier(client) });
    const completedAt = new Date(Date.parse(created.body.created_at) + 90_000).toISOString();
    const transition = { campaignId: id, accountId, status: 'completed' as const, reason: 'trial_ended', at: completedAt };
    await activities.recordCampaignTransition(transition);

    await mailsTo(recipient, 1);
    await until('schedule completed', async () => (await describeSchedule(id)).status.name, (s) => s === 'COMPLETED');
    await activities.recordCampaignTransition(transition); // Temporal retrying after a lost completion: the schedule is gone, no error
    await new Promise((r) => setTimeout(r, 1_000));
    expect(t.sink.to(recipient), 'one final report').to.have.length(1);
    expect((await reportRows(id)).map((r) => [r.kind, r.period_start.toISOString(), r.period_end.toISOString(), r.status])).to.deep.equal([['final', created.body.created_at, completedAt, 'sent']]);

    // A campaign without a report email has no schedule to tell: its end is no error either.
    const plain = await createCampaign(apiKey, { mcp: 'sales_outreach', target_url: 'https://never-resolves.invalid', schedule: { start_date: '2099-01-05' } });
    campaignsStarted.push(plain.body.id);
    await activities.recordCampaignTransition({ ...transition, campaignId: plain.body.id });
    expect(await statusOf(plain.body.id)).to.equal('completed');
  });

  it('a create whose schedule start Temporal refuses still answers with the campaign; the worker\'s sweep then starts the schedule, once, and leaves ended campaigns alone', async () => {
    const { accountId } = await createAccount(t.db.sequelize, 'pro');
    const taskQueue = t.worker.worker.options.taskQueue;
    // The API's client, except that the report schedule's start fails as an unreachable Temporal would.
    const refusing = new Proxy(client, {
      get(target, prop, receiver) {
        if (prop !== 'workflow') return Reflect.get(target, prop, receiver) as unknown;
        return new Proxy(target.workflow, {
          get(wf, p, r) {
            if (p !== 'start') return Reflect.get(wf, p, r) as unknown;
            return (type: string, options: unknown) => (type === 'campaignReportScheduleWorkflow' ? Promise.reject(new Error('14 UNAVAILABLE: connection refused')) : wf.start(type, options as never));
          },
        });
      },
    });
    const warnings: string[] = [];
    const log = createLogger('silent', 'test');
    log.warn = ((obj: unknown, msg?: string) => warnings.push(msg ?? String(obj))) as typeof log.warn;
    const campaign = await startCampaign(
      { sequelize: t.db.sequelize, temporal: refusing, taskQueue, log },
      { accountId, createdVia: 'a', name: 'Sweep me', mcp: 'sales_outreach', targetUrl: 'https://never-resolves.invalid', scheduleStartDate: '2099-01-05', reportingEmail: 'sweep.owner@client.example', reportingFrequency: 'monthly' },
    );
    campaignsStarted.push(campaign.id);
    expect(await statusOf(campaign.id), 'the campaign was created').to.equal('starting');
    expect(warnings).to.deep.equal(['report schedule not started; the worker sweep will start it']);
    let missing: unknown;
    await describeSchedule(campaign.id).catch((err: unknown) => (missing = err));
    expect(missing).to.be.instanceOf(WorkflowNotFoundError);

    const ended = await seedCampaign(accountId, { status: 'completed', reportingEmail: 'ended.owner@client.example' });
    const sweep = () => sweepReportSchedules({ sequelize: t.db.sequelize, client, taskQueue, log: createLogger('silent', 'test') });
    const first = await sweep();
    expect(first.started, 'the campaign without a schedule').to.equal(1);
    expect(first.failed).to.equal(0);
    expect((await describeSchedule(campaign.id)).status.name).to.equal('RUNNING');
    expect(await scheduleInput(campaign.id)).to.deep.include({ frequency: 'monthly', since: campaign.createdAt.getTime() });
    const second = await sweep();
    expect(second.started, 'nothing left to start').to.equal(0);
    expect(second.running).to.equal(first.started + first.running);
    let none: unknown;
    await describeSchedule(ended.id).catch((err: unknown) => (none = err));
    expect(none, 'an ended campaign gets no schedule').to.be.instanceOf(WorkflowNotFoundError);
  });
});

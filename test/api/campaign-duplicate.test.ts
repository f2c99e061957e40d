import { Client, Connection, WorkflowNotFoundError } from '@temporalio/client';
import { expect } from 'chai';
import { QueryTypes } from 'sequelize';
import { COPIED_ATTRIBUTES, copiedFields, LEAD_CONTROL_COLUMNS, NOT_COPIED_ATTRIBUTES } from '../../src/campaigns/control/duplicate-campaign';
import { Campaign } from '../../src/db/models';
import { createLogger } from '../../src/log/logger';
import { sweepReportSchedules } from '../../src/worker/report-schedule-sweep';
import { campaignWorkflowId } from '../../workflows/campaign/contract';
import { reportScheduleWorkflowId } from '../../workflows/reports/contract';
import { createAccount, request, surfaceA, surfaceB, type JsonResponse } from '../support/api';
import { useCampaignStack } from '../support/campaign-stack';
import { signIn } from '../support/dashboard-session';
import { eventually } from '../support/eventually';
import { pages, startFakeSite, type FakeSite } from '../support/fake-site';

/**
 * Copies and drafts on the real stack (PostgreSQL, Temporal dev server, the worker, the API):
 * POST .../duplicate on both surfaces copies the settings and the sequence in use into a new
 * campaign, started (its workflow running) or as a draft (no workflow); a draft is listed,
 * filtered, shown with zero figures, refuses pause, stop and resume, is ignored by the report
 * sweep, and starts with POST .../start, once.
 */

const HOME = '<html><head><title>Acme Analytics</title><meta name="description" content="Dashboards for finance teams"></head><body><h1>Acme</h1></body></html>';

type Body = Record<string, unknown> & { error?: string };

/** What a GET shows that a copy must not share: its identity, its life so far and its figures. */
const OWN_A = ['id', 'status', 'status_reason', 'created_at', 'dashboard_url', 'stats', 'leads', 'started_at', 'paused_at', 'resumed_at', 'completed_at'];
const OWN_B = ['id', 'name', 'status', 'statusReason', 'createdVia', 'createdAt', 'dashboardUrl', 'stats', 'leads', 'startedAt', 'pausedAt', 'resumedAt', 'completedAt', 'spentTodayUsd'];

/** The settings of a GET body: without the members the copy has of its own, nor counts that move with planning. */
function settingsOf(body: Body, own: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(body)) if (!own.includes(k)) out[k] = v;
  const drop = (o: unknown, ...keys: string[]) => {
    if (o !== null && typeof o === 'object') for (const key of keys) delete (o as Record<string, unknown>)[key];
  };
  const clone = JSON.parse(JSON.stringify(out)) as Record<string, Record<string, unknown>>;
  drop(clone.budget, 'spent_today_usd');
  drop(clone.schedule, 'days_remaining');
  drop(clone.reporting, 'next_report_at', 'nextReportAt');
  drop(clone.audience, 'matched_leads', 'matchedLeads', 'reason');
  drop(clone.sources, 'matched_leads', 'matchedLeads');
  drop(clone.sources?.audience, 'matched_leads', 'matchedLeads', 'reason');
  return clone;
}

describe('duplicating campaigns and drafts on both surfaces (real Temporal dev server)', function () {
  this.timeout(120_000);
  const t = useCampaignStack();
  let site: FakeSite;
  let client: Client;

  before(async () => {
    site = await startFakeSite(pages({ '/': [200, { 'content-type': 'text/html' }, HOME] }));
    client = new Client({ connection: await Connection.connect({ address: t.temporal.address }) });
  });
  after(async () => {
    await client?.connection.close();
    await site?.close();
  });

  const call = <T = Body>(method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<JsonResponse<T & Body>> =>
    request<T & Body>(`${t.api.baseUrl}${path}`, {
      method,
      headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const workflowStatus = async (id: string): Promise<string> => (await client.workflow.getHandle(campaignWorkflowId(id)).describe()).status.name;
  const campaignCount = async (accountId: string): Promise<number> =>
    (await t.db.sequelize.query<{ n: number }>('SELECT count(*)::int AS n FROM campaigns WHERE account_id = $1', { bind: [accountId], type: QueryTypes.SELECT }))[0]!.n;
  const waitForStatus = (path: string, headers: Record<string, string>, status: string) =>
    eventually(async () => ((await call('GET', path, headers)).body.status === status ? true : undefined));

  /** A running campaign on Surface A with every kind of setting, and a second version of its sequence. */
  async function runningOnA(apiKey: string): Promise<string> {
    const list = await call<{ id: string }>('POST', '/lead-lists', surfaceA(apiKey), { name: 'Finance leads' });
    expect(list.status, list.text).to.equal(201);
    const created = await call<{ id: string }>('POST', '/campaigns', surfaceA(apiKey), {
      name: 'Autumn push',
      mcp: 'sales_outreach',
      target_url: site.origin,
      target_audience: 'CFOs in Germany',
      target_outcome: 'a 20-minute demo',
      value_for_target: 'forecasts in a day',
      budget: { max_daily_usd: 5, max_weekly_usd: 20, max_monthly_usd: 60 },
      schedule: { frequency: 'weekdays', trial_days: 21, timezone: 'Europe/Berlin', send_window: { start: '00:00', end: '24:00' } },
      reporting: { frequency: 'weekly', email: 'owner@acme.example' },
      calendar_link: 'https://cal.example/acme',
      tracking: { opens: false, clicks: true },
      plain_text_only: true,
      lead_list_ids: [list.body.id],
      allow_duplicate_leads: true,
      stop_company_on_reply: false,
      max_first_emails_per_domain_per_day: 3,
      skip_risky_leads: true,
      sequence: [
        { delay_days: 0, mode: 'template', subject: 'Hi {{ first_name | default: "there" }}', body: 'First' },
        { delay_days: 3, mode: 'template', body: 'Second' },
      ],
    });
    expect(created.status, created.text).to.equal(201);
    const id = created.body.id;
    await waitForStatus(`/campaigns/${id}`, surfaceA(apiKey), 'running');
    // The schedule rules of 20261130090000-schedule-rules and a start date already past, written
    // on the row (what a create or an edit stores), and a second version of the sequence in use,
    // as an edit makes: the copy takes what the source has now.
    await t.db.sequelize.query(
      `UPDATE campaigns SET schedule_days = $2::jsonb, blackout_dates = $3::jsonb, skip_holidays = true, lead_timezones = true, schedule_start_date = '2020-01-06' WHERE id = $1`,
      { bind: [id, JSON.stringify({ '1': { startMinute: 0, endMinute: 1440 }, '3': { startMinute: 60, endMinute: 1380 } }), JSON.stringify(['2031-12-24', '2031-12-31'])] },
    );
    await t.db.sequelize.query(
      `WITH v AS (INSERT INTO campaign_sequences (campaign_id, version, sequence) VALUES ($1, 2, $2::jsonb) RETURNING campaign_id)
       UPDATE campaigns SET sequence_version = 2 WHERE id = (SELECT campaign_id FROM v)`,
      {
        bind: [
          id,
          JSON.stringify({
            source: 'custom',
            preset: null,
            steps: [
              { delayDays: 0, variants: [{ id: 'A', weight: 1, mode: 'template', subject: 'Hello again', body: 'Edited first', instructions: null }], autoWinner: null },
              { delayDays: 5, variants: [{ id: 'A', weight: 1, mode: 'template', subject: null, body: 'Edited second', instructions: null }], autoWinner: null },
            ],
          }),
        ],
      },
    );
    return id;
  }

  const SCHEDULE_COLUMNS = 'schedule_days, blackout_dates, skip_holidays, lead_timezones, schedule_start_date';
  const scheduleRow = async (id: string) => t.db.sequelize.query(`SELECT ${SCHEDULE_COLUMNS} FROM campaigns WHERE id = $1`, { bind: [id], type: QueryTypes.SELECT, plain: true });

  it('Surface A: a running campaign\'s settings and current steps copied into a new campaign that starts (201, Location, its workflow running)', async () => {
    const { apiKey } = await createAccount(t.db.sequelize, 'pro');
    const sourceId = await runningOnA(apiKey);
    const source = await call('GET', `/campaigns/${sourceId}`, surfaceA(apiKey));

    const copy = await call<{ id: string; status: string; mcp: string; target_url: string }>('POST', `/campaigns/${sourceId}/duplicate`, surfaceA(apiKey));
    expect(copy.status, copy.text).to.equal(201);
    expect(copy.body.id).to.match(/^cmp_/).and.not.equal(sourceId);
    expect(copy.headers.get('location')).to.equal(`/campaigns/${copy.body.id}`);
    expect(copy.body).to.include({ status: 'starting', mcp: 'sales_outreach', target_url: site.origin });
    expect(await workflowStatus(copy.body.id)).to.equal('RUNNING');

    const shown = await call<{ sequence: { version: number; steps: Array<{ variants: Array<{ body: string }> }> }; schedule: { start_date: string | null } }>(
      'GET',
      `/campaigns/${copy.body.id}`,
      surfaceA(apiKey),
    );
    expect(shown.status).to.equal(200);
    // The past start date is dropped (the copy starts now); everything else is the source's.
    expect(shown.body.schedule.start_date).to.equal(null);
    const expected = settingsOf(source.body, OWN_A) as { schedule: Record<string, unknown>; sequence: Record<string, unknown> };
    expected.schedule.start_date = null;
    // The source's current steps (its version 2) are the copy's version 1.
    expected.sequence.version = 1;
    expect(settingsOf(shown.body, OWN_A)).to.deep.equal(expected);
    expect(shown.body.sequence.version).to.equal(1);
    expect(shown.body.sequence.steps.map((s) => s.variants[0]!.body)).to.deep.equal(['Edited first', 'Edited second']);
    const [sourceRules, copyRules] = [await scheduleRow(sourceId), await scheduleRow(copy.body.id)];
    expect(copyRules).to.deep.equal({ ...sourceRules, schedule_start_date: null });
    expect(copyRules).to.deep.include({ skip_holidays: true, lead_timezones: true, blackout_dates: ['2031-12-24', '2031-12-31'] });
    // The name is the source's with " (copy)": Surface B shows it, and that the copy was made on A.
    const onB = await call('GET', `/v1/campaigns/${copy.body.id}`, surfaceB(apiKey));
    expect(onB.body).to.include({ name: 'Autumn push (copy)', createdVia: 'a' });
    // It reports, so its report schedule started as a create's does.
    expect((await client.workflow.getHandle(reportScheduleWorkflowId(copy.body.id)).describe()).status.name).to.equal('RUNNING');
    // The copy runs on its own.
    await waitForStatus(`/campaigns/${copy.body.id}`, surfaceA(apiKey), 'running');
  });

  it('Surface B: a written sequence and a budget copied under a given name, 201 in the create\'s shape with Location', async () => {
    const { apiKey } = await createAccount(t.db.sequelize, 'pro');
    const created = await call<{ id: string }>('POST', '/v1/campaigns', surfaceB(apiKey), {
      name: 'Spring',
      brandUrl: site.origin,
      targetAudience: 'Heads of finance',
      maxBudgetDailyUsd: 12.5,
      mcp: 'recruiting',
      sequence: [
        { delayDays: 0, mode: 'template', subject: 'Hello', body: 'One' },
        { delayDays: 4, variants: [{ mode: 'ai', instructions: 'Mention the remote policy.' }, { weight: 3, mode: 'template', body: 'Two' }], autoWinner: { metric: 'reply_rate', minSends: 40 } },
      ],
      plainTextOnly: true,
    });
    expect(created.status, created.text).to.equal(201);
    await waitForStatus(`/v1/campaigns/${created.body.id}`, surfaceB(apiKey), 'running');
    const source = await call('GET', `/v1/campaigns/${created.body.id}`, surfaceB(apiKey));

    const copy = await call<{ id: string }>('POST', `/v1/campaigns/${created.body.id}/duplicate`, surfaceB(apiKey), { name: 'Spring again', start: true });
    expect(copy.status, copy.text).to.equal(201);
    expect(copy.headers.get('location')).to.equal(`/v1/campaigns/${copy.body.id}`);
    expect(copy.body).to.include({ name: 'Spring again', status: 'starting', createdVia: 'b', maxBudgetDailyUsd: 12.5 });
    expect(await workflowStatus(copy.body.id)).to.equal('RUNNING');
    const shown = await call('GET', `/v1/campaigns/${copy.body.id}`, surfaceB(apiKey));
    expect(settingsOf(shown.body, OWN_B)).to.deep.equal(settingsOf(source.body, OWN_B));
    expect(shown.body.sequence).to.deep.include({ source: 'custom', version: 1 });

    // A copy retried with the same Idempotency-Key answers the first copy again: one copy, not two.
    const key = { ...surfaceB(apiKey), 'Idempotency-Key': `copy-${created.body.id}` };
    const first = await call<{ id: string }>('POST', `/v1/campaigns/${created.body.id}/duplicate`, key, { start: false });
    const retried = await call<{ id: string }>('POST', `/v1/campaigns/${created.body.id}/duplicate`, key, { start: false });
    expect(first.status, first.text).to.equal(201);
    expect([retried.status, retried.body.id]).to.deep.equal([201, first.body.id]);
  });

  it('start: false stores a draft: no workflow, listed and filtered as draft on both surfaces, zero figures, pause, stop and resume refused', async () => {
    const { apiKey } = await createAccount(t.db.sequelize, 'pro');
    const sourceId = await runningOnA(apiKey);
    const draft = await call<{ id: string; status: string }>('POST', `/campaigns/${sourceId}/duplicate`, surfaceA(apiKey), { name: 'Autumn, later', start: false });
    expect(draft.status, draft.text).to.equal(201);
    expect(draft.body.status).to.equal('draft');
    const id = draft.body.id;
    let describeError: unknown;
    try {
      await client.workflow.getHandle(campaignWorkflowId(id)).describe();
    } catch (err) {
      describeError = err;
    }
    expect(describeError).to.be.instanceOf(WorkflowNotFoundError);

    const listA = await call<{ campaigns: Array<{ id: string; status: string }> }>('GET', '/campaigns', surfaceA(apiKey));
    expect(listA.body.campaigns.find((c) => c.id === id)?.status).to.equal('draft');
    expect((await call<{ campaigns: Array<{ id: string }> }>('GET', '/campaigns?status=draft', surfaceA(apiKey))).body.campaigns.map((c) => c.id)).to.deep.equal([id]);
    expect((await call<{ campaigns: Array<{ id: string }> }>('GET', '/v1/campaigns?status=draft', surfaceB(apiKey))).body.campaigns.map((c) => c.id)).to.deep.equal([id]);
    expect((await call<{ campaigns: Array<{ id: string }> }>('GET', '/campaigns?status=running', surfaceA(apiKey))).body.campaigns.map((c) => c.id)).to.deep.equal([sourceId]);

    // The dashboard's list filters it too, and its page opens.
    const session = await signIn(t.api.baseUrl, apiKey);
    const drafts = await session.get('/dashboard/campaigns?status=draft');
    expect(drafts.status).to.equal(200);
    expect(drafts.text).to.include('1 campaign match');
    expect(drafts.text).to.include(`href="/dashboard/campaigns/${id}"`);
    expect(drafts.text).to.include('Draft (not started)');
    expect((await session.get(`/dashboard/campaigns/${id}`)).status).to.equal(200);

    const shown = await call<{ status: string; stats: Record<string, number>; reporting: { next_report_at: string | null }; sequence: { version: number } }>(
      'GET',
      `/campaigns/${id}`,
      surfaceA(apiKey),
    );
    expect(shown.body.status).to.equal('draft');
    expect(shown.body.stats).to.deep.equal({ emails_sent: 0, delivered: 0, opened: 0, replied: 0, meetings_booked: 0 });
    expect(shown.body.reporting.next_report_at).to.equal(null);
    expect(shown.body.sequence.version).to.equal(1);
    const stats = await call<{ status: string; stats: Record<string, number> }>('GET', `/v1/campaigns/${id}/stats`, surfaceB(apiKey));
    expect(stats.status).to.equal(200);
    expect(stats.body.status).to.equal('draft');
    expect(Object.values(stats.body.stats).every((n) => n === 0)).to.equal(true);

    for (const [path, headers] of [
      [`/campaigns/${id}/pause`, surfaceA(apiKey)],
      [`/campaigns/${id}/resume`, surfaceA(apiKey)],
      [`/v1/campaigns/${id}/stop`, surfaceB(apiKey)],
      [`/v1/campaigns/${id}/resume`, surfaceB(apiKey)],
    ] as const) {
      const res = await call('POST', path, headers);
      expect(res.status, path).to.equal(409);
      expect(res.body.error, path).to.match(/is draft/);
    }
    expect((await call('GET', `/campaigns/${id}`, surfaceA(apiKey))).body.status).to.equal('draft');

    // The worker's report sweep starts schedules for campaigns that lack one: never for a draft.
    await sweepReportSchedules({ sequelize: t.db.sequelize, client, taskQueue: t.worker.worker.options.taskQueue, log: createLogger('silent', 'test') });
    let reportError: unknown;
    try {
      await client.workflow.getHandle(reportScheduleWorkflowId(id)).describe();
    } catch (err) {
      reportError = err;
    }
    expect(reportError).to.be.instanceOf(WorkflowNotFoundError);
  });

  it('POST .../start starts a draft once: starting with its workflow, then running; a second start, or a start of anything else, is a 409', async () => {
    const { apiKey } = await createAccount(t.db.sequelize, 'pro');
    const sourceId = await runningOnA(apiKey);
    const draft = await call<{ id: string }>('POST', `/v1/campaigns/${sourceId}/duplicate`, surfaceB(apiKey), { start: false });
    expect(draft.status, draft.text).to.equal(201);
    expect(draft.body).to.include({ status: 'draft', name: 'Autumn push (copy)' });
    const id = draft.body.id;

    const started = await call<{ id: string; status: string }>('POST', `/campaigns/${id}/start`, surfaceA(apiKey));
    expect(started.status, started.text).to.equal(200);
    expect(started.body).to.include({ id, status: 'starting' });
    expect(await workflowStatus(id)).to.equal('RUNNING');
    await waitForStatus(`/campaigns/${id}`, surfaceA(apiKey), 'running');
    const shown = await call<{ schedule: { start_date: string | null }; sequence: { steps: Array<{ variants: Array<{ body: string }> }> }; reporting: { next_report_at: string | null } }>(
      'GET',
      `/campaigns/${id}`,
      surfaceA(apiKey),
    );
    expect(shown.body.sequence.steps.map((s) => s.variants[0]!.body)).to.deep.equal(['Edited first', 'Edited second']);
    expect(shown.body.reporting.next_report_at).to.be.a('string');
    expect((await client.workflow.getHandle(reportScheduleWorkflowId(id)).describe()).status.name).to.equal('RUNNING');

    const again = await call('POST', `/campaigns/${id}/start`, surfaceA(apiKey));
    expect(again.status).to.equal(409);
    expect(again.body.error).to.match(/only a draft campaign can be started/);
    const onB = await call('POST', `/v1/campaigns/${sourceId}/start`, surfaceB(apiKey));
    expect(onB.status).to.equal(409);
    expect(onB.body.error).to.equal(`campaign ${sourceId} is running: only a draft campaign can be started`);
  });

  it('Surface B starts a draft; a completed or failed campaign may be copied too', async () => {
    const { apiKey } = await createAccount(t.db.sequelize, 'pro');
    const created = await call<{ id: string }>('POST', '/v1/campaigns', surfaceB(apiKey), { name: 'Ended', brandUrl: site.origin });
    expect(created.status, created.text).to.equal(201);
    const draft = await call<{ id: string }>('POST', `/v1/campaigns/${created.body.id}/duplicate`, surfaceB(apiKey), { start: false });
    // A failed campaign (written on the row as the workflow records it): copied like any other.
    await t.db.sequelize.query(`UPDATE campaigns SET status = 'failed', status_reason = 'Test: gave up', failed_at = now() WHERE id = $1`, { bind: [draft.body.id] });
    const fromFailed = await call<{ id: string; status: string }>('POST', `/v1/campaigns/${draft.body.id}/duplicate`, surfaceB(apiKey), { start: false });
    expect(fromFailed.status, fromFailed.text).to.equal(201);
    expect(fromFailed.body).to.include({ status: 'draft', name: 'Ended (copy) (copy)' });
    const started = await call<{ status: string }>('POST', `/v1/campaigns/${fromFailed.body.id}/start`, surfaceB(apiKey));
    expect(started.status, started.text).to.equal(200);
    expect(started.body.status).to.equal('starting');
    expect(await workflowStatus(fromFailed.body.id)).to.equal('RUNNING');
  });

  it('a lead enrolled by hand into a draft is held by it: another campaign skips them', async () => {
    const { apiKey } = await createAccount(t.db.sequelize, 'pro');
    const sourceId = await runningOnA(apiKey);
    const draft = await call<{ id: string }>('POST', `/campaigns/${sourceId}/duplicate`, surfaceA(apiKey), { name: 'Held', start: false });
    expect(draft.status, draft.text).to.equal(201);
    const imported = await request(`${t.api.baseUrl}/v1/leads/import`, {
      method: 'POST',
      headers: { ...surfaceB(apiKey), 'content-type': 'text/csv' },
      body: 'email,first_name,last_name,title,company\nheld@draft-hold.example,Hana,Held,CFO,Hold Co',
    });
    expect(imported.status, imported.text).to.equal(200);
    const intoDraft = await call<{ added: number }>('POST', `/campaigns/${draft.body.id}/leads`, surfaceA(apiKey), { emails: ['held@draft-hold.example'] });
    expect(intoDraft.status, intoDraft.text).to.equal(200);
    expect(intoDraft.body.added).to.equal(1);
    // A campaign that takes a person in one campaign at a time (the default), from an empty list.
    const list = await call<{ id: string }>('POST', '/v1/lead-lists', surfaceB(apiKey), { name: 'Nobody yet' });
    const other = await call<{ id: string }>('POST', '/v1/campaigns', surfaceB(apiKey), { name: 'Other', brandUrl: site.origin, leadListIds: [list.body.id] });
    expect(other.status, other.text).to.equal(201);
    const intoRunning = await call<{ added: number; skipped: Record<string, number> }>('POST', `/campaigns/${other.body.id}/leads`, surfaceA(apiKey), { emails: ['held@draft-hold.example'] });
    expect(intoRunning.status, intoRunning.text).to.equal(200);
    expect(intoRunning.body).to.deep.include({ added: 0, skipped: { 'in another campaign (Held)': 1 } });
  });

  it('another account\'s or an unknown campaign is a 404; a bad body is a 400 naming the field, with nothing stored', async () => {
    const { apiKey, accountId } = await createAccount(t.db.sequelize);
    const other = await createAccount(t.db.sequelize);
    const created = await call<{ id: string }>('POST', '/v1/campaigns', surfaceB(apiKey), { name: 'Mine', brandUrl: site.origin });
    expect(created.status, created.text).to.equal(201);
    const id = created.body.id;
    const draft = await call<{ id: string }>('POST', `/campaigns/${id}/duplicate`, surfaceA(apiKey), { start: false });
    expect(draft.status, draft.text).to.equal(201);
    const before = await campaignCount(accountId);

    for (const [path, headers] of [
      [`/campaigns/${id}/duplicate`, surfaceA(other.apiKey)],
      [`/v1/campaigns/${id}/duplicate`, surfaceB(other.apiKey)],
      [`/campaigns/${draft.body.id}/start`, surfaceA(other.apiKey)],
      [`/v1/campaigns/${draft.body.id}/start`, surfaceB(other.apiKey)],
      ['/campaigns/cmp_doesnotexist/duplicate', surfaceA(apiKey)],
      ['/v1/campaigns/cmp_doesnotexist/start', surfaceB(apiKey)],
    ] as const) {
      const res = await call('POST', path, headers, path.endsWith('duplicate') ? { start: false } : undefined);
      expect(res.status, path).to.equal(404);
      expect(res.body.error, path).to.equal('Campaign not found');
    }
    expect((await call('GET', `/campaigns/${draft.body.id}`, surfaceA(apiKey))).body.status).to.equal('draft');

    const cases: Array<[unknown, RegExp]> = [
      [{ start: 'yes' }, /start/],
      [{ name: 'x'.repeat(10_000) }, /name/],
      [{ name: '   ' }, /name/],
      [{ start: false, color: 'blue' }, /color|additional/],
      [[], /body|object/],
    ];
    for (const [body, message] of cases) {
      for (const [path, headers] of [
        [`/campaigns/${id}/duplicate`, surfaceA(apiKey)],
        [`/v1/campaigns/${id}/duplicate`, surfaceB(apiKey)],
      ] as const) {
        const res = await call('POST', path, headers, body);
        expect(res.status, `${path} ${JSON.stringify(body).slice(0, 60)}`).to.equal(400);
        expect(res.body.error, JSON.stringify(body).slice(0, 60)).to.match(message);
      }
    }
    expect(await campaignCount(accountId)).to.equal(before);
  });

  it('every column of the campaigns table is either copied or deliberately not (a new column must be decided on)', async () => {
    const columns = await t.db.sequelize.query<{ column_name: string }>(`SELECT column_name FROM information_schema.columns WHERE table_name = 'campaigns' AND table_schema = 'public'`, {
      type: QueryTypes.SELECT,
    });
    const attributes: Record<string, { field?: string } | undefined> = Campaign.getAttributes();
    const fieldOf = (attribute: string) => attributes[attribute]?.field ?? attribute;
    const decided = new Set([...COPIED_ATTRIBUTES, ...NOT_COPIED_ATTRIBUTES].map(fieldOf).concat(LEAD_CONTROL_COLUMNS));
    expect(columns.map((c) => c.column_name).filter((c) => !decided.has(c))).to.deep.equal([]);
  });

  it('a start date still to come is kept; one already past is dropped; a long name still fits with " (copy)"', () => {
    const now = new Date('2031-03-10T15:00:00Z');
    const source = Campaign.build({ id: 'cmp_x', accountId: 'acc_x', createdVia: 'b', name: 'n'.repeat(200), mcp: 'sales_outreach', targetUrl: 'https://acme.example', scheduleStartDate: '2031-03-10' });
    const today = copiedFields(source, 'acc_x', { via: 'a' }, now);
    expect(today.scheduleStartDate).to.equal('2031-03-10');
    expect(today.name).to.have.length(200);
    expect(today.name.endsWith(' (copy)')).to.equal(true);
    expect(today.createdVia).to.equal('a');
    source.scheduleStartDate = '2031-03-09';
    expect(copiedFields(source, 'acc_x', { via: 'a', name: ' Given ' }, now)).to.include({ scheduleStartDate: null, name: 'Given' });
  });
});

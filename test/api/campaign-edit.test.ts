import { expect } from 'chai';
import { QueryTypes } from 'sequelize';
import { createAccount, request, surfaceA, surfaceB } from '../support/api';
import { useCampaignStack } from '../support/campaign-stack';
import { eventually } from '../support/eventually';
import { pages, startFakeSite, type FakeSite } from '../support/fake-site';

const HOME = '<html><head><title>Acme Analytics</title></head><body><h1>Acme Analytics</h1></body></html>';

interface CampaignView {
  status: string;
  budget: Record<string, number | null>;
  schedule: { days: unknown; blackout_dates: string[]; skip_holidays: boolean };
  reporting: Record<string, unknown>;
}

interface Change {
  kind: string;
  at: string;
  by: Record<string, string>;
  changes: Array<{ field: string; from: unknown; to: unknown }>;
}

/**
 * PATCH of a campaign on both surfaces, while it runs (real Temporal dev server, worker,
 * PostgreSQL and SMTP sink): the Update changes what the next GET shows, a lowered budget pauses
 * and a raised one resumes, every change is in the history with who made it, and a bad change is a
 * 400 naming the field with nothing changed.
 */
describe('campaign edits while running (PATCH, real Temporal dev server)', () => {
  const t = useCampaignStack();
  let site: FakeSite;
  before(async () => {
    site = await startFakeSite(pages({ '/': [200, { 'content-type': 'text/html' }, HOME] }));
  });
  after(async () => {
    await site?.close();
  });

  const call = <T>(method: string, path: string, headers: Record<string, string>, body?: unknown) =>
    request<T & { error?: string }>(`${t.api.baseUrl}${path}`, {
      method,
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
  const allDay = { send_window: { start: '00:00', end: '24:00' } };

  async function importLeads(key: string, count: number, domain: string): Promise<void> {
    const rows = Array.from({ length: count }, (_, i) => `lead${i}@${domain},Lead${i},Person,CTO,Company ${i}`);
    const res = await call('POST', '/v1/leads/import', { ...surfaceB(key), 'content-type': 'text/csv' }, ['email,first_name,last_name,title,company', ...rows].join('\n'));
    expect(res.status, res.text).to.equal(200);
  }

  async function runningCampaign(key: string, extra: Record<string, unknown> = {}): Promise<string> {
    const created = await call<{ id: string }>('POST', '/campaigns', surfaceA(key), { mcp: 'sales_outreach', target_url: site.origin, schedule: allDay, ...extra });
    expect(created.status, created.text).to.equal(201);
    await eventually(async () => ((await call<{ status: string }>('GET', `/campaigns/${created.body.id}`, surfaceA(key))).body.status === 'running' ? true : undefined));
    return created.body.id;
  }

  it('Surface A: name, budget, per-weekday windows, blackout dates and reporting change at once, and the history says who and what', async () => {
    const { apiKey } = await createAccount(t.db.sequelize);
    const id = await runningCampaign(apiKey, { name: 'Before', budget: { max_daily_usd: 50 } });
    const patched = await call<CampaignView>('PATCH', `/campaigns/${id}`, surfaceA(apiKey), {
      name: 'After',
      budget: { max_weekly_usd: 200 },
      schedule: { days: { wed: { start: '14:00', end: '18:00' }, fri: { start: '09:00', end: '12:00' } }, blackout_dates: ['2026-12-24', '2026-12-25'], skip_holidays: true },
      reporting: { email: 'reports@acme.example', frequency: 'weekly' },
    });
    expect(patched.status, patched.text).to.equal(200);
    const got = await call<CampaignView>('GET', `/campaigns/${id}`, surfaceA(apiKey));
    expect((await call<{ name: string }>('GET', `/v1/campaigns/${id}`, surfaceB(apiKey))).body.name).to.equal('After');
    expect(got.body.budget).to.include({ max_daily_usd: 50, max_weekly_usd: 200 });
    expect(got.body.schedule.days).to.deep.equal({ wed: { start: '14:00', end: '18:00' }, fri: { start: '09:00', end: '12:00' } });
    expect(got.body.schedule.blackout_dates).to.deep.equal(['2026-12-24', '2026-12-25']);
    expect(got.body.schedule.skip_holidays).to.equal(true);
    expect(got.body.reporting).to.include({ email: 'reports@acme.example', frequency: 'weekly' });
    expect(got.body.status).to.equal('running');

    const history = await call<{ changes: Change[] }>('GET', `/campaigns/${id}/changes`, surfaceA(apiKey));
    expect(history.status).to.equal(200);
    const [latest] = history.body.changes;
    expect(latest?.kind).to.equal('edit');
    expect(latest?.by).to.include({ via: 'api_a' });
    expect(Date.parse(latest?.at ?? '')).to.be.closeTo(Date.now(), 60_000);
    const fields = Object.fromEntries((latest?.changes ?? []).map((c) => [c.field, c]));
    expect(fields['name']).to.deep.include({ from: 'Before', to: 'After' });
    expect(fields['budget.max_weekly_usd']).to.deep.include({ from: null, to: 200 });
    expect(fields['schedule.blackout_dates']?.to).to.deep.equal(['2026-12-24', '2026-12-25']);
    expect(fields['reporting.email']).to.deep.include({ from: null, to: 'reports@acme.example' });
    expect(Object.keys(fields)).to.not.include('budget.max_daily_usd'); // unchanged members are no change

    // Surface B's history names the same fields in camelCase.
    const onB = await call<{ changes: Change[] }>('GET', `/v1/campaigns/${id}/changes`, surfaceB(apiKey));
    expect(onB.body.changes[0]?.changes.map((c) => c.field)).to.include.members(['budget.maxWeeklyUsd', 'schedule.blackoutDates', 'reporting.email']);
    expect(onB.body.changes[0]?.by).to.have.property('keyPrefix');
  });

  it('Surface B: a daily budget lowered below today\'s spend pauses at once (budget_exceeded); raised, the campaign runs again', async () => {
    const { apiKey } = await createAccount(t.db.sequelize);
    const id = await runningCampaign(apiKey);
    const lowered = await call<{ status: string; statusReason: string }>('PATCH', `/v1/campaigns/${id}`, surfaceB(apiKey), { maxBudgetDailyUsd: 0 });
    expect(lowered.status, lowered.text).to.equal(200);
    expect(lowered.body).to.include({ status: 'budget_paused', statusReason: 'budget_exceeded' });
    const resume = await call<{ error: string }>('POST', `/v1/campaigns/${id}/resume`, surfaceB(apiKey));
    expect(resume.status).to.equal(409);
    expect(resume.body.error).to.match(/daily budget/);
    const raised = await call<{ status: string; maxBudgetDailyUsd: number }>('PATCH', `/v1/campaigns/${id}`, surfaceB(apiKey), { maxBudgetDailyUsd: 25 });
    expect(raised.body).to.include({ status: 'running', maxBudgetDailyUsd: 25 });
    const history = await call<{ changes: Change[] }>('GET', `/v1/campaigns/${id}/changes`, surfaceB(apiKey));
    expect(history.body.changes.map((c) => c.kind)).to.deep.equal(['edit', 'edit']);
    expect(history.body.changes[1]?.changes).to.deep.equal([{ field: 'budget.maxDailyUsd', from: null, to: 0 }]);
  });

  it('pause and resume through the Update are in the history too', async () => {
    const { apiKey } = await createAccount(t.db.sequelize);
    const id = await runningCampaign(apiKey);
    expect((await call('POST', `/campaigns/${id}/pause`, surfaceA(apiKey))).status).to.equal(200);
    expect((await call('POST', `/campaigns/${id}/resume`, surfaceA(apiKey))).status).to.equal(200);
    const history = await call<{ changes: Change[] }>('GET', `/campaigns/${id}/changes`, surfaceA(apiKey));
    expect(history.body.changes.map((c) => [c.kind, c.changes[0]?.to])).to.deep.equal([
      ['resume', 'running'],
      ['pause', 'paused'],
    ]);
  });

  it('bad changes are a 400 naming the field, and nothing changes; another account\'s campaign is a 404; a completed one a 409', async () => {
    const { apiKey, accountId } = await createAccount(t.db.sequelize);
    const other = await createAccount(t.db.sequelize);
    await importLeads(apiKey, 3, 'edit-bad.example');
    const id = await runningCampaign(apiKey, {
      name: 'Unchanged',
      sequence: [
        { delay_days: 0, mode: 'template', subject: 'Hello', body: 'First' },
        { delay_days: 3, mode: 'template', body: 'Second' },
      ],
    });
    // Someone has had the second step already (a fixture: the first step's email, copied as step 2).
    await eventually(async () => {
      const [row] = await t.db.sequelize.query<{ n: number }>(`SELECT count(*)::int AS n FROM emails WHERE campaign_id = $1 AND status = 'sent'`, { bind: [id], type: QueryTypes.SELECT });
      return (row?.n ?? 0) > 0 ? true : undefined;
    });
    await t.db.sequelize.query(
      `INSERT INTO emails (id, account_id, campaign_id, lead_id, step, from_email, to_email, subject, message_id, status, sent_at, created_at, updated_at)
       SELECT id || '_s2', account_id, campaign_id, lead_id, 1, from_email, to_email, subject, '<s2.' || message_id, 'sent', now(), now(), now()
         FROM emails WHERE campaign_id = $1 AND status = 'sent' LIMIT 1`,
      { bind: [id] },
    );
    const cases: Array<[unknown, RegExp]> = [
      [{ name: 'X', schedule: { send_window: { start: '17:00', end: '09:00' } } }, /schedule\.send_window/],
      [{ name: 'X', schedule: { days: { mon: { start: '12:00', end: '08:00' } } } }, /schedule\.days\.mon/],
      [{ name: 'X', schedule: { timezone: 'Mars/Olympus' } }, /schedule\.timezone/],
      [{ name: 'X', schedule: { blackout_dates: Array.from({ length: 367 }, (_, i) => new Date(Date.UTC(2027, 0, 1) + i * 86_400_000).toISOString().slice(0, 10)) } }, /schedule\.blackout_dates/],
      [{ name: 'X', sequence: [{ delay_days: 0, mode: 'template', subject: 'Only', body: 'One' }] }, /sequence: step 2 was already sent/],
      [{ name: 'X', lead_list_ids: ['lst_nope'] }, /lead_list_ids/],
      [{ name: '   ' }, /name/],
      [{ name: 'X', budget: { max_daily_usd: -1 } }, /max_daily_usd/],
      [{ name: 'X', surprise: 1 }, /surprise|additional/],
      [{}, /nothing to change/],
      ['{"name": ', /JSON|body/i],
    ];
    for (const [body, message] of cases) {
      const res = await call('PATCH', `/campaigns/${id}`, surfaceA(apiKey), body);
      expect(res.status, JSON.stringify(body).slice(0, 200)).to.equal(400);
      expect(res.body.error, JSON.stringify(body).slice(0, 200)).to.match(message);
      expect(res.text).to.not.match(/at .*\.ts:\d+/);
    }
    const after = await call<{ name: string; sequence: { version: number; steps: unknown[] } }>('GET', `/v1/campaigns/${id}`, surfaceB(apiKey));
    expect(after.body.name).to.equal('Unchanged');
    expect(after.body.sequence).to.include({ version: 1 });
    expect(after.body.sequence.steps).to.have.length(2);
    expect((await call<{ changes: unknown[] }>('GET', `/campaigns/${id}/changes`, surfaceA(apiKey))).body.changes).to.have.length(0);

    // Rewriting both steps and adding a third is allowed: a new version.
    const rewritten = await call<{ sequence: { version: number; steps: unknown[] } }>('PATCH', `/campaigns/${id}`, surfaceA(apiKey), {
      sequence: [
        { delay_days: 0, mode: 'template', subject: 'Hello again', body: 'First, rewritten' },
        { delay_days: 3, mode: 'template', body: 'Second, rewritten' },
        { delay_days: 5, mode: 'template', body: 'Third' },
      ],
    });
    expect(rewritten.status, rewritten.text).to.equal(200);
    expect(rewritten.body.sequence).to.include({ version: 2 });
    expect(rewritten.body.sequence.steps).to.have.length(3);

    expect((await call('PATCH', `/campaigns/${id}`, surfaceA(other.apiKey), { name: 'Theirs' })).status).to.equal(404);
    expect((await call('PATCH', `/v1/campaigns/${id}`, surfaceB(other.apiKey), { name: 'Theirs' })).status).to.equal(404);
    expect((await call('GET', `/v1/campaigns/${id}/changes`, surfaceB(other.apiKey))).status).to.equal(404);

    await t.db.sequelize.query(`UPDATE campaigns SET status = 'completed' WHERE id = $1 AND account_id = $2`, { bind: [id, accountId] });
    const done = await call<{ error: string }>('PATCH', `/campaigns/${id}`, surfaceA(apiKey), { name: 'Too late' });
    expect(done.status).to.equal(409);
    expect(done.body.error).to.match(/completed/);
  });

  it('a draft is edited without a workflow, and its history says so', async () => {
    const { apiKey } = await createAccount(t.db.sequelize);
    const id = await runningCampaign(apiKey, { name: 'Original' });
    const copy = await call<{ id: string; status: string }>('POST', `/campaigns/${id}/duplicate`, surfaceA(apiKey), { start: false });
    expect(copy.status, copy.text).to.equal(201);
    const edited = await call<{ status: string; schedule: { timezone: string; fallback_timezone: string } }>('PATCH', `/campaigns/${copy.body.id}`, surfaceA(apiKey), {
      name: 'Draft, edited',
      schedule: { timezone: 'lead', fallback_timezone: 'Europe/Berlin' },
    });
    expect(edited.status, edited.text).to.equal(200);
    expect(edited.body).to.include({ status: 'draft' });
    expect(edited.body.schedule).to.include({ timezone: 'lead', fallback_timezone: 'Europe/Berlin' });
    expect((await call<{ name: string }>('GET', `/v1/campaigns/${copy.body.id}`, surfaceB(apiKey))).body.name).to.equal('Draft, edited');
    const history = await call<{ changes: Change[] }>('GET', `/campaigns/${copy.body.id}/changes`, surfaceA(apiKey));
    expect(history.body.changes[0]?.changes.map((c) => c.field)).to.include.members(['name', 'schedule.timezone', 'schedule.fallback_timezone']);
  });
});

import { Client, Connection } from '@temporalio/client';
import { expect } from 'chai';
import { QueryTypes } from 'sequelize';
import type { HttpError } from '../../src/api/http/errors';
import { scheduleFromRequest } from '../../src/api/resources/campaigns/schedule-fields';
import { scheduleFromLegacy, type CampaignSchedule } from '../../src/campaigns/model/schedule';
import { campaignWorkflowId, type CampaignWorkflowInput } from '../../workflows/campaign/contract';
import { createAccount, request, startTestApi, surfaceA, surfaceB, type JsonResponse, type TestApi } from '../support/api';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { startTestDevServer, type TestDevServer } from '../support/temporal-dev';

/**
 * A campaign's schedule through the API (issue 28, point 4): per-weekday windows, blackout dates,
 * skip_holidays and `timezone: "lead"` with its fallback zone, on create and GET of both surfaces,
 * and what the workflow is started with. Bad input is a 400 naming the member as the surface
 * spells it, and nothing is created. Real PostgreSQL and a Temporal dev server (a create starts
 * its workflow), no worker: nothing but the requests changes a campaign.
 */

type Body = Record<string, unknown> & { error?: string };

describe('campaign schedules: create and GET on both surfaces, bad input refused', function () {
  this.timeout(60_000);
  let db: TestDatabase;
  let temporal: TestDevServer;
  let api: TestApi;
  let client: Client;
  let key: string;
  let accountId: string;

  before(async function () {
    this.timeout(120_000);
    [db, temporal] = await Promise.all([createTestDatabase(), startTestDevServer()]);
    api = await startTestApi(db.sequelize, { temporalAddress: temporal.address });
    client = new Client({ connection: await Connection.connect({ address: temporal.address }) });
    ({ apiKey: key, accountId } = await createAccount(db.sequelize, 'pro'));
  });
  after(async function () {
    this.timeout(60_000);
    await client?.connection.close();
    await api?.close();
    await temporal?.stop();
    await db?.drop();
  });

  const call = (headers: Record<string, string>, method: string, path: string, body?: unknown): Promise<JsonResponse<Body>> =>
    request<Body>(`${api.baseUrl}${path}`, {
      method,
      headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  // Targets that do not resolve; no worker runs the workflow anyway.
  const postA = (schedule: unknown) => call(surfaceA(key), 'POST', '/campaigns', { mcp: 'sales_outreach', target_url: 'https://acme.invalid', ...(schedule === undefined ? {} : { schedule }) });
  const postB = (schedule: unknown) => call(surfaceB(key), 'POST', '/v1/campaigns', { name: 'Schedules', brandUrl: 'https://acme.invalid', ...(schedule === undefined ? {} : { schedule }) });
  const scheduleA = async (id: string) => {
    const res = await call(surfaceA(key), 'GET', `/campaigns/${id}`);
    expect(res.status, res.text).to.equal(200);
    return res.body.schedule;
  };
  const scheduleB = async (id: string) => {
    const res = await call(surfaceB(key), 'GET', `/v1/campaigns/${id}`);
    expect(res.status, res.text).to.equal(200);
    return res.body.schedule;
  };
  const campaignCount = async (): Promise<number> =>
    (await db.sequelize.query<{ n: number }>('SELECT count(*)::int AS n FROM campaigns WHERE account_id = $1', { bind: [accountId], type: QueryTypes.SELECT }))[0]!.n;
  /** The input the campaign's workflow was started with (the first event of its history). */
  const workflowInput = async (id: string): Promise<CampaignWorkflowInput> => {
    const history = await client.workflow.getHandle(campaignWorkflowId(id)).fetchHistory();
    const payload = history.events?.[0]?.workflowExecutionStartedEventAttributes?.input?.payloads?.[0]?.data;
    return JSON.parse(Buffer.from(payload as Uint8Array).toString('utf8')) as CampaignWorkflowInput;
  };

  it('Surface A: every member given is stored, shown on both surfaces and handed to the workflow', async () => {
    const res = await postA({
      frequency: 'daily',
      trial_days: 10,
      start_date: '2026-12-01',
      timezone: 'lead',
      fallback_timezone: 'Europe/Berlin',
      send_window: { start: '08:00', end: '18:00' },
      days: { mon: { start: '09:00', end: '12:00' }, thu: { start: '14:00', end: '24:00' } },
      // Unsorted and repeated: stored sorted, once each.
      blackout_dates: ['2026-12-31', '2026-12-24', '2026-12-31'],
      skip_holidays: true,
    });
    expect(res.status, res.text).to.equal(201);
    const id = res.body.id as string;
    expect(await scheduleA(id)).to.deep.equal({
      frequency: 'daily',
      trial_days: 10,
      start_date: '2026-12-01',
      days_remaining: 10,
      timezone: 'lead',
      fallback_timezone: 'Europe/Berlin',
      send_window: { start: '08:00', end: '18:00' },
      days: { mon: { start: '09:00', end: '12:00' }, thu: { start: '14:00', end: '24:00' } },
      blackout_dates: ['2026-12-24', '2026-12-31'],
      skip_holidays: true,
    });
    expect(await scheduleB(id)).to.deep.equal({
      frequency: 'daily',
      trialDays: 10,
      startDate: '2026-12-01',
      daysRemaining: 10,
      timezone: 'lead',
      fallbackTimezone: 'Europe/Berlin',
      sendWindow: { start: '08:00', end: '18:00' },
      days: { mon: { start: '09:00', end: '12:00' }, thu: { start: '14:00', end: '24:00' } },
      blackoutDates: ['2026-12-24', '2026-12-31'],
      skipHolidays: true,
    });
    const input = await workflowInput(id);
    expect(input.schedule).to.deep.equal({
      frequency: 'daily',
      timezone: 'Europe/Berlin',
      leadTimezones: true,
      window: { startMinute: 8 * 60, endMinute: 18 * 60 },
      days: { '1': { startMinute: 9 * 60, endMinute: 12 * 60 }, '4': { startMinute: 14 * 60, endMinute: 1440 } },
      blackoutDates: ['2026-12-24', '2026-12-31'],
      skipHolidays: true,
    });
    // The members campaigns had before schedules stay in the input.
    expect(input).to.deep.include({ frequency: 'daily', timezone: 'Europe/Berlin', sendWindow: { startMinute: 480, endMinute: 1080 }, trialDays: 10, startDate: '2026-12-01' });
  });

  it('Surface B: a schedule on create (camelCase), shown on both surfaces', async () => {
    const res = await postB({
      frequency: 'weekdays',
      trialDays: 5,
      startDate: '2027-01-04',
      timezone: 'America/New_York',
      sendWindow: { start: '10:30', end: '16:00' },
      blackoutDates: ['2027-01-18'],
      skipHolidays: false,
    });
    expect(res.status, res.text).to.equal(201);
    // The create answer is the campaign as GET shows it.
    expect(res.body.schedule).to.deep.equal({
      frequency: 'weekdays',
      trialDays: 5,
      startDate: '2027-01-04',
      daysRemaining: 5,
      timezone: 'America/New_York',
      fallbackTimezone: null,
      sendWindow: { start: '10:30', end: '16:00' },
      days: null,
      blackoutDates: ['2027-01-18'],
      skipHolidays: false,
    });
    const id = res.body.id as string;
    expect(await scheduleB(id)).to.deep.equal(res.body.schedule);
    expect(await scheduleA(id)).to.deep.equal({
      frequency: 'weekdays',
      trial_days: 5,
      start_date: '2027-01-04',
      days_remaining: 5,
      timezone: 'America/New_York',
      fallback_timezone: null,
      send_window: { start: '10:30', end: '16:00' },
      days: null,
      blackout_dates: ['2027-01-18'],
      skip_holidays: false,
    });
    expect((await workflowInput(id)).schedule).to.deep.include({ frequency: 'weekdays', timezone: 'America/New_York', leadTimezones: false, days: null });
  });

  it('Surface B: days with "lead" and no fallback zone take UTC for leads without one; frequency left out is daily', async () => {
    const res = await postB({ timezone: 'lead', days: { sat: { start: '10:00', end: '13:00' } } });
    expect(res.status, res.text).to.equal(201);
    expect(res.body.schedule).to.deep.include({ frequency: 'daily', timezone: 'lead', fallbackTimezone: 'UTC', days: { sat: { start: '10:00', end: '13:00' } } });
  });

  it('without a schedule: every day, 09:00-17:00 UTC, no days, no blackout dates, holidays not skipped (both surfaces)', async () => {
    const defaults = { frequency: 'daily', trial_days: null, start_date: null, days_remaining: null, timezone: 'UTC', fallback_timezone: null, send_window: { start: '09:00', end: '17:00' }, days: null, blackout_dates: [], skip_holidays: false };
    const a = await postA(undefined);
    expect(a.status, a.text).to.equal(201);
    expect(await scheduleA(a.body.id as string)).to.deep.equal(defaults);
    const b = await postB(undefined);
    expect(b.status, b.text).to.equal(201);
    expect(await scheduleA(b.body.id as string)).to.deep.equal(defaults);
    expect((await workflowInput(b.body.id as string)).schedule).to.deep.equal(scheduleFromLegacy('daily', 'UTC', { startMinute: 540, endMinute: 1020 }));
  });

  describe('bad input: a 400 naming the member, nothing created', () => {
    const dates367 = Array.from({ length: 367 }, (_, i) => new Date(Date.UTC(2027, 0, 1 + i)).toISOString().slice(0, 10));
    // [what, Surface A schedule, its error, Surface B schedule, its error]
    const cases: ReadonlyArray<readonly [string, unknown, string, unknown, string]> = [
      [
        'a weekday window whose end is before its start',
        { days: { mon: { start: '09:00', end: '08:00' } } },
        'schedule.days.mon: end 08:00 is before start 09:00',
        { days: { mon: { start: '09:00', end: '08:00' } } },
        'schedule.days.mon: end 08:00 is before start 09:00',
      ],
      [
        'a send window whose end is before its start',
        { send_window: { start: '17:00', end: '09:00' } },
        'schedule.send_window: end must be after start (end 09:00 is before start 17:00)',
        { sendWindow: { start: '17:00', end: '09:00' } },
        'schedule.sendWindow: end must be after start (end 09:00 is before start 17:00)',
      ],
      [
        'an unknown zone',
        { timezone: 'Mars/Olympus' },
        'schedule.timezone: unknown time zone "Mars/Olympus" (use an IANA name such as Europe/Berlin)',
        { timezone: 'Mars/Olympus' },
        'schedule.timezone: unknown time zone "Mars/Olympus" (use an IANA name such as Europe/Berlin)',
      ],
      [
        'an unknown fallback zone',
        { timezone: 'lead', fallback_timezone: 'Atlantis/Capital' },
        'schedule.fallback_timezone: unknown time zone "Atlantis/Capital" (use an IANA name such as Europe/Berlin)',
        { timezone: 'lead', fallbackTimezone: 'Atlantis/Capital' },
        'schedule.fallbackTimezone: unknown time zone "Atlantis/Capital" (use an IANA name such as Europe/Berlin)',
      ],
      [
        'a fallback zone without "lead"',
        { timezone: 'Europe/Paris', fallback_timezone: 'UTC' },
        'schedule.fallback_timezone: only with timezone "lead" (a campaign in one zone has no fallback)',
        { fallbackTimezone: 'UTC' },
        'schedule.fallbackTimezone: only with timezone "lead" (a campaign in one zone has no fallback)',
      ],
      ['367 blackout dates', { blackout_dates: dates367 }, 'schedule.blackout_dates: at most 366 dates (got 367)', { blackoutDates: dates367 }, 'schedule.blackoutDates: at most 366 dates (got 367)'],
      [
        'a blackout date off the calendar',
        { blackout_dates: ['2026-12-24', '2026-02-30'] },
        'schedule.blackout_dates: "2026-02-30" is not a date (YYYY-MM-DD, a day of the calendar)',
        { blackoutDates: ['24.12.2026'] },
        'schedule.blackoutDates: "24.12.2026" is not a date (YYYY-MM-DD, a day of the calendar)',
      ],
      [
        'days with frequency weekly',
        { frequency: 'weekly', days: { tue: { start: '09:00', end: '12:00' } } },
        'schedule.days: cannot be combined with frequency weekly: days names the sending weekdays itself (leave frequency out or make it daily)',
        { frequency: 'weekdays', days: { tue: { start: '09:00', end: '12:00' } } },
        'schedule.days: cannot be combined with frequency weekdays: days names the sending weekdays itself (leave frequency out or make it daily)',
      ],
      [
        'days naming no weekday',
        { days: {} },
        'schedule.days: names no weekday: name at least one, or leave days out to send on every day of frequency',
        { days: {} },
        'schedule.days: names no weekday: name at least one, or leave days out to send on every day of frequency',
      ],
      [
        'an unknown weekday',
        { days: { funday: { start: '09:00', end: '12:00' } } },
        'body.schedule.days has unknown field "funday"',
        { days: { funday: { start: '09:00', end: '12:00' } } },
        'body.schedule.days has unknown field "funday"',
      ],
    ];

    for (const [what, a, errorA, b, errorB] of cases) {
      it(`${what}: ${errorA}`, async () => {
        const before = await campaignCount();
        const resA = await postA(a);
        expect(resA.status, resA.text).to.equal(400);
        expect(resA.body).to.deep.equal({ error: errorA });
        const resB = await postB(b);
        expect(resB.status, resB.text).to.equal(400);
        expect(resB.body).to.deep.equal({ error: errorB });
        expect(await campaignCount()).to.equal(before);
      });
    }

    it('an hour that is no time of day is refused by the schema, naming the member', async () => {
      const res = await postA({ days: { fri: { start: '25:00', end: '26:00' } } });
      expect(res.status, res.text).to.equal(400);
      expect(res.body.error).to.match(/^body\.schedule\.days\.fri\.start must match pattern/);
    });
  });

  describe('scheduleFromRequest over a current schedule (what a PATCH merges)', () => {
    const current: CampaignSchedule = {
      ...scheduleFromLegacy('weekly', 'Europe/Berlin', { startMinute: 540, endMinute: 1020 }),
      blackoutDates: ['2026-12-24'],
      skipHolidays: true,
    };
    const badRequestOf = (fn: () => unknown): HttpError => {
      try {
        fn();
      } catch (err) {
        return err as HttpError;
      }
      throw new Error('no error');
    };

    it('members left out keep their value; the ones given replace theirs', () => {
      expect(scheduleFromRequest({ blackout_dates: ['2027-01-01'] }, 'snake', current)).to.deep.equal({ ...current, blackoutDates: ['2027-01-01'] });
      expect(scheduleFromRequest({ sendWindow: { start: '07:00', end: '11:00' } }, 'camel', current)).to.deep.equal({ ...current, window: { startMinute: 420, endMinute: 660 } });
      expect(scheduleFromRequest({}, 'camel', current)).to.deep.equal(current);
    });

    it('"lead" keeps the campaign zone as the fallback; a zone turns "lead" off; days take frequency daily; days: null clears them', () => {
      const lead = scheduleFromRequest({ timezone: 'lead' }, 'snake', current);
      expect(lead).to.deep.include({ leadTimezones: true, timezone: 'Europe/Berlin' });
      expect(scheduleFromRequest({ fallback_timezone: 'Asia/Tokyo' }, 'snake', lead)).to.deep.include({ leadTimezones: true, timezone: 'Asia/Tokyo' });
      expect(scheduleFromRequest({ timezone: 'UTC' }, 'snake', lead)).to.deep.include({ leadTimezones: false, timezone: 'UTC' });
      const withDays = scheduleFromRequest({ days: { wed: { start: '10:00', end: '11:00' } } }, 'snake', current);
      expect(withDays).to.deep.include({ frequency: 'daily', days: { '3': { startMinute: 600, endMinute: 660 } } });
      expect(scheduleFromRequest({ days: null }, 'snake', withDays).days).to.equal(null);
    });

    it('a change that contradicts what stays is refused: weekly over days', () => {
      const withDays = scheduleFromRequest({ days: { wed: { start: '10:00', end: '11:00' } } }, 'snake', current);
      const err = badRequestOf(() => scheduleFromRequest({ frequency: 'weekly' }, 'snake', withDays));
      expect([err.status, err.message]).to.deep.equal([400, 'schedule.days: cannot be combined with frequency weekly: days names the sending weekdays itself (leave frequency out or make it daily)']);
    });
  });
});

import { ApplicationFailure } from '@temporalio/common';
import { expect } from 'chai';
import { campaignEndedSignal, reportingChangedSignal } from '../../workflows/reports/contract';
import { at, DAY, FakeReportActivity, firstWeekday, HOUR, iso, lastSunday, MINUTE, ReportHarness, type ReportCall } from './support/report-harness';

/**
 * A campaign's report schedule on the time-skipping server, with a fake activity that records each
 * report asked for and the simulated instant the server scheduled it. Expected instants are written
 * out with fixed UTC offsets (Berlin +1 in winter, +2 in summer; New York -5 in winter), not taken
 * from the code under test. Each test picks its dates in the year after the simulated now, so the
 * tests do not depend on one another's order; titles name the local dates they cross.
 */
describe('campaign report schedule workflow (time-skipping)', function () {
  this.timeout(120_000);
  const h = new ReportHarness();
  before(() => h.start());
  after(() => h.stop());

  /** How far a report may go out after its time (real processing); a timer never fires early. */
  const SLACK = 2_000;
  const clock = (): Promise<number> => h.now();
  const nextYear = async (): Promise<number> => new Date(await h.now()).getUTCFullYear() + 1;
  const expectAt = (call: ReportCall | undefined, due: number, what: string): void => {
    expect(call, what).to.not.equal(undefined);
    expect((call as ReportCall).scheduledAt - due, `${what}: sent ${iso((call as ReportCall).scheduledAt)}, due ${iso(due)}`).to.be.within(0, SLACK);
  };
  const period = (kind: string, start: number, end: number): string => `${kind} ${iso(start)}..${iso(end)}`;

  it('daily in Europe/Berlin: a week of reports at 08:00 local (07:00 UTC), each covering the previous local day, the first from the creation (Mon 10:30 .. next Mon 07:59, January)', async () => {
    const y = await nextYear();
    const mon = firstWeekday(y, 1, 1) + 7; // the second Monday of January: winter time, UTC+1
    const since = at(1, y, 1, mon, 10, 30);
    const fake = new FakeReportActivity(clock);
    await h.schedule(since, { frequency: 'daily', timeZone: 'Europe/Berlin', since }, fake.activities(), async (handle) => {
      await h.sleepUntil(at(1, y, 1, mon + 8, 7, 59));
      expect((await handle.describe()).status.name, 'still scheduling').to.equal('RUNNING');
    });
    expect(fake.periods).to.deep.equal([
      period('scheduled', since, at(1, y, 1, mon + 1)),
      ...[2, 3, 4, 5, 6, 7].map((d) => period('scheduled', at(1, y, 1, mon + d - 1), at(1, y, 1, mon + d))),
    ]);
    fake.calls.forEach((c, i) => expectAt(c, at(1, y, 1, mon + i + 1, 8), `report ${i + 1}`));
    // Local midnight in Berlin's winter is 23:00 UTC the day before.
    expect(iso(fake.calls[1]!.input.periodStart)).to.equal(`${y}-01-${String(mon).padStart(2, '0')}T23:00:00.000Z`);
  });

  it('weekly in Europe/Berlin: Mondays at 08:00 local, each covering the previous Monday..Sunday; the week of the spring change is 167 h and its report is at 06:00 UTC (Fri 17 days before the change .. the Monday after, March)', async () => {
    const y = await nextYear();
    const change = lastSunday(y, 3); // summer time from 01:00 UTC that Sunday: UTC+1 before, UTC+2 after
    const since = at(1, y, 3, change - 16, 12); // a Friday
    const fake = new FakeReportActivity(clock);
    await h.schedule(since, { frequency: 'weekly', timeZone: 'Europe/Berlin', since }, fake.activities(), async () => {
      await h.sleepUntil(at(2, y, 3, change + 8, 7, 59));
    });
    const mondays = [at(1, y, 3, change - 13), at(1, y, 3, change - 6), at(2, y, 3, change + 1)];
    expect(fake.periods).to.deep.equal([
      period('scheduled', since, mondays[0]!),
      period('scheduled', mondays[0]!, mondays[1]!),
      period('scheduled', mondays[1]!, mondays[2]!),
    ]);
    expect(mondays[2]! - mondays[1]!, 'the week with the spring change').to.equal(167 * HOUR);
    expectAt(fake.calls[0], at(1, y, 3, change - 13, 8), 'first Monday');
    expectAt(fake.calls[1], at(1, y, 3, change - 6, 8), 'second Monday');
    expectAt(fake.calls[2], at(2, y, 3, change + 1, 8), 'the Monday after the change');
  });

  it('monthly in Europe/Berlin: the 1st at 08:00 local, each covering the previous calendar month; October with the autumn change is 31 days and 1 h (Sep 15 .. Dec 1, then none until Jan 1)', async () => {
    const y = await nextYear();
    const since = at(2, y, 9, 15, 9);
    const fake = new FakeReportActivity(clock);
    await h.schedule(since, { frequency: 'monthly', timeZone: 'Europe/Berlin', since }, fake.activities(), async () => {
      await h.sleepUntil(at(1, y, 12, 31, 23));
    });
    const firsts = [at(2, y, 10, 1), at(1, y, 11, 1), at(1, y, 12, 1)];
    expect(fake.periods).to.deep.equal([period('scheduled', since, firsts[0]!), period('scheduled', firsts[0]!, firsts[1]!), period('scheduled', firsts[1]!, firsts[2]!)]);
    expect(firsts[1]! - firsts[0]!, 'October, the autumn change inside it').to.equal(31 * DAY + HOUR);
    expect(lastSunday(y, 10), 'the change is in October').to.be.within(25, 31);
    expectAt(fake.calls[0], at(2, y, 10, 1, 8), 'Oct 1 (summer time, 06:00 UTC)');
    expectAt(fake.calls[1], at(1, y, 11, 1, 8), 'Nov 1 (winter time, 07:00 UTC)');
    expectAt(fake.calls[2], at(1, y, 12, 1, 8), 'Dec 1');
  });

  it('campaignEnded: the final report goes at once, from the end of the last report\'s period to the end, and the workflow completes; a repeated signal adds nothing (America/New_York, Feb 3 09:00 .. Feb 5 15:00, then 2 days)', async () => {
    const y = await nextYear();
    const since = at(-5, y, 2, 3, 9);
    const fake = new FakeReportActivity(clock);
    await h.schedule(since, { frequency: 'daily', timeZone: 'America/New_York', since }, fake.activities(), async (handle) => {
      const endedAt = at(-5, y, 2, 5, 15);
      await h.sleepUntil(endedAt);
      await handle.signal(campaignEndedSignal, { at: endedAt, status: 'completed' });
      await handle.signal(campaignEndedSignal, { at: endedAt, status: 'completed' }); // a retried record-transition activity
      const result = await h.resultBy(handle, endedAt + MINUTE);
      expect(result).to.deep.equal({ outcome: 'campaign_ended', reportsSent: 2, final: { reportId: 'rep_3', status: 'sent' } });
      expectAt(fake.calls[2], endedAt, 'the final report');
      await h.sleepUntil(endedAt + 2 * DAY);
    });
    expect(fake.periods).to.deep.equal([
      period('scheduled', since, at(-5, y, 2, 4)),
      period('scheduled', at(-5, y, 2, 4), at(-5, y, 2, 5)),
      period('final', at(-5, y, 2, 5), at(-5, y, 2, 5, 15)),
    ]);
  });

  it('a campaign that ends before its first report gets one final report from its creation to its end (failed; UTC, Mar 10 09:00 .. 17:30)', async () => {
    const y = await nextYear();
    const since = at(0, y, 3, 10, 9);
    const endedAt = at(0, y, 3, 10, 17, 30);
    const fake = new FakeReportActivity(clock);
    await h.schedule(since, { frequency: 'weekly', timeZone: 'UTC', since }, fake.activities(), async (handle) => {
      await h.sleepUntil(endedAt + 5 * MINUTE);
      await handle.signal(campaignEndedSignal, { at: endedAt, status: 'failed' });
      expect(await h.resultBy(handle, endedAt + 10 * MINUTE)).to.deep.include({ outcome: 'campaign_ended', reportsSent: 0 });
    });
    expect(fake.periods).to.deep.equal([period('final', since, endedAt)]);
  });

  it('continues as new every 3 reports with nothing lost or doubled: 8 daily reports over 3 runs, periods end to end, then the final one (UTC, Apr 1 12:00 .. Apr 9 10:00)', async () => {
    const y = await nextYear();
    const since = at(0, y, 4, 1, 12);
    const fake = new FakeReportActivity(clock);
    await h.schedule(since, { frequency: 'daily', timeZone: 'UTC', since, maxReportsPerRun: 3 }, fake.activities(), async (handle) => {
      await h.sleepUntil(at(0, y, 4, 9, 10));
      const running = await handle.describe();
      expect(running.runId, 'a later run than the first').to.not.equal(handle.firstExecutionRunId);
      await handle.signal(campaignEndedSignal, { at: at(0, y, 4, 9, 10), status: 'completed' });
      expect(await h.resultBy(handle, at(0, y, 4, 9, 10, 1))).to.deep.include({ outcome: 'campaign_ended', reportsSent: 8 });
    });
    expect(fake.periods).to.deep.equal([
      period('scheduled', since, at(0, y, 4, 2)),
      ...[3, 4, 5, 6, 7, 8, 9].map((d) => period('scheduled', at(0, y, 4, d - 1), at(0, y, 4, d))),
      period('final', at(0, y, 4, 9), at(0, y, 4, 9, 10)),
    ]);
    fake.calls.slice(0, 8).forEach((c, i) => expectAt(c, at(0, y, 4, i + 2, 8), `report ${i + 1}`));
    const runs = fake.calls.map((c) => c.runId);
    expect(new Set(runs.slice(0, 3)).size, 'reports 1-3 in one run').to.equal(1);
    expect(new Set(runs).size, 'three runs').to.equal(3);
    expect(runs[3], 'report 4 in the second run').to.not.equal(runs[2]);
  });

  it('reportingChanged: daily to weekly on a Wednesday, the next report is Monday\'s covering Wednesday..Sunday (nothing left out); without an email the workflow ends with no final report (UTC, June)', async () => {
    const y = await nextYear();
    const mon = firstWeekday(y, 6, 1);
    const since = at(0, y, 6, mon, 9);
    const fake = new FakeReportActivity(clock);
    await h.schedule(since, { frequency: 'daily', timeZone: 'UTC', since }, fake.activities(), async (handle) => {
      await h.sleepUntil(at(0, y, 6, mon + 2, 12)); // Wednesday noon: Tuesday's and Wednesday's reports are out
      await handle.signal(reportingChangedSignal, { frequency: 'weekly', timeZone: 'UTC', hasEmail: true });
      await h.sleepUntil(at(0, y, 6, mon + 7, 12));
      await handle.signal(reportingChangedSignal, { frequency: 'weekly', timeZone: 'UTC', hasEmail: false });
      expect(await h.resultBy(handle, at(0, y, 6, mon + 7, 12, 1))).to.deep.equal({ outcome: 'reporting_removed', reportsSent: 3, final: null });
    });
    expect(fake.periods).to.deep.equal([
      period('scheduled', since, at(0, y, 6, mon + 1)),
      period('scheduled', at(0, y, 6, mon + 1), at(0, y, 6, mon + 2)),
      period('scheduled', at(0, y, 6, mon + 2), at(0, y, 6, mon + 7)),
    ]);
    expectAt(fake.calls[2], at(0, y, 6, mon + 7, 8), 'the first weekly report');
  });

  it('an activity in trouble is retried with a backoff (10 s, then 20 s) and its report sent once; one refused for good is passed over and the next day\'s goes as usual (UTC, Jul 1 .. Jul 4)', async () => {
    const y = await nextYear();
    const since = at(0, y, 7, 1, 9);
    const fake = new FakeReportActivity(clock, (input, attempt) => {
      if (input.periodEnd === at(0, y, 7, 2) && attempt < 3) return ApplicationFailure.retryable('connection to the database was lost', 'DatabaseUnavailable');
      if (input.periodEnd === at(0, y, 7, 3)) return ApplicationFailure.nonRetryable('campaign cmp_x not found', 'CampaignNotFound');
      return 'sent';
    });
    await h.schedule(since, { frequency: 'daily', timeZone: 'UTC', since }, fake.activities(), async (handle) => {
      await h.sleepUntil(at(0, y, 7, 4, 9));
      expect((await handle.describe()).status.name).to.equal('RUNNING');
    });
    const first = fake.calls.filter((c) => c.input.periodEnd === at(0, y, 7, 2));
    expect(first.map((c) => [c.attempt, c.outcome])).to.deep.equal([
      [1, 'threw'],
      [2, 'threw'],
      [3, 'sent'],
    ]);
    expectAt(first[0], at(0, y, 7, 2, 8), 'the first attempt');
    expect(first[1]!.serverNow - first[0]!.serverNow, 'first backoff').to.be.within(10_000, 10_000 + SLACK);
    expect(first[2]!.serverNow - first[1]!.serverNow, 'second backoff').to.be.within(20_000, 20_000 + SLACK);
    expect(fake.calls.filter((c) => c.input.periodEnd === at(0, y, 7, 3)).map((c) => c.outcome), 'not retried').to.deep.equal(['threw']);
    expect(fake.periods).to.deep.equal([period('scheduled', since, at(0, y, 7, 2)), period('scheduled', at(0, y, 7, 3), at(0, y, 7, 4))]);
    expectAt(fake.answered[1], at(0, y, 7, 4, 8), 'the day after the refused one');
    // The refused report's row is marked failed with its error, not left pending.
    expect(fake.marks.map((m) => ('kind' in m ? [m.kind, m.periodEnd, m.error] : m))).to.deep.equal([['scheduled', at(0, y, 7, 3), 'campaign cmp_x not found']]);
  });

  it('the on-demand workflow sends the row the API inserted, kind on_demand, with its period', async () => {
    const now = await h.now();
    const fake = new FakeReportActivity(clock);
    const input = { reportId: `rep_${now}`, campaignId: 'cmp_ondemand', periodStart: now - 5 * HOUR, periodEnd: now };
    expect(await h.onDemand(input, fake.activities())).to.deep.equal({ reportId: input.reportId, status: 'sent' });
    expect(fake.calls.map((c) => c.input)).to.deep.equal([{ campaignId: 'cmp_ondemand', kind: 'on_demand', periodStart: now - 5 * HOUR, periodEnd: now, reportId: input.reportId }]);
    expect(fake.marks).to.deep.equal([]);
  });

  it('an on-demand report refused for good is not retried: its row is marked failed with the error, and the workflow says failed', async () => {
    const now = await h.now();
    const fake = new FakeReportActivity(clock, () => ApplicationFailure.nonRetryable('report template broke', 'TypeError'));
    const input = { reportId: `rep_${now}_x`, campaignId: 'cmp_ondemand', periodStart: now - HOUR, periodEnd: now };
    expect(await h.onDemand(input, fake.activities())).to.deep.equal({ reportId: input.reportId, status: 'failed' });
    expect(fake.calls).to.have.length(1);
    expect(fake.marks).to.deep.equal([{ reportId: input.reportId, error: 'report template broke' }]);
  });
});

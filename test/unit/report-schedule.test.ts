import { expect } from 'chai';
import { currentPeriod, nextReportAt, periodOfReportAt, type ReportFrequency } from '../../src/campaigns/model/report-schedule';

/**
 * When emailed reports go and what they cover: 08:00 local time, daily / Mondays / the 1st, the
 * previous local day, week or month; across the 2026 DST changes of Berlin (29 March, 25 October)
 * and New York (8 March, 1 November), month and year ends, and leap years.
 */
describe('report schedule', () => {
  const t = (s: string): number => Date.parse(s);
  const iso = (ms: number): string => new Date(ms).toISOString();
  const next = (f: ReportFrequency, zone: string, after: string): string => iso(nextReportAt(f, zone, t(after)));
  const period = (f: ReportFrequency, zone: string, at: string): [string, string] => {
    const p = periodOfReportAt(f, zone, t(at));
    return [iso(p.start), iso(p.end)];
  };
  const HOUR = 3_600_000;

  describe('nextReportAt', () => {
    it('is strictly after the given instant: 08:00 itself gives the next day', () => {
      expect(next('daily', 'UTC', '2026-11-16T08:00:00.000Z')).to.equal('2026-11-17T08:00:00.000Z');
      expect(next('daily', 'UTC', '2026-11-16T07:59:59.999Z')).to.equal('2026-11-16T08:00:00.000Z');
    });

    it('weekly reports go on Mondays, monthly ones on the 1st', () => {
      // 2026-11-16 is a Monday.
      expect(next('weekly', 'UTC', '2026-11-16T07:00:00.000Z')).to.equal('2026-11-16T08:00:00.000Z');
      expect(next('weekly', 'UTC', '2026-11-16T09:00:00.000Z')).to.equal('2026-11-23T08:00:00.000Z');
      expect(next('weekly', 'UTC', '2026-11-21T12:00:00.000Z')).to.equal('2026-11-23T08:00:00.000Z');
      expect(next('monthly', 'UTC', '2026-11-01T08:00:00.000Z')).to.equal('2026-12-01T08:00:00.000Z');
      expect(next('monthly', 'UTC', '2026-12-05T00:00:00.000Z')).to.equal('2027-01-01T08:00:00.000Z');
    });

    it('is 08:00 local time in the campaign zone, on either side of Berlin DST changes', () => {
      // 28 March is CET (UTC+1), 29 March CEST (UTC+2).
      expect(next('daily', 'Europe/Berlin', '2026-03-27T08:00:00.000Z')).to.equal('2026-03-28T07:00:00.000Z');
      expect(next('daily', 'Europe/Berlin', '2026-03-28T07:00:00.000Z')).to.equal('2026-03-29T06:00:00.000Z');
      // 25 October back to CET: 08:00 is 07:00 UTC again.
      expect(next('daily', 'Europe/Berlin', '2026-10-24T06:00:00.000Z')).to.equal('2026-10-25T07:00:00.000Z');
      // Weekly: Monday 30 March (CEST) at 06:00 UTC.
      expect(next('weekly', 'Europe/Berlin', '2026-03-24T00:00:00.000Z')).to.equal('2026-03-30T06:00:00.000Z');
    });

    it('is 08:00 local time in New York across its DST changes', () => {
      // Monday 9 March 2026 is EDT (UTC-4); Monday 2 March was EST (UTC-5).
      expect(next('weekly', 'America/New_York', '2026-03-02T13:00:00.000Z')).to.equal('2026-03-09T12:00:00.000Z');
      // 1 November: clocks go back at 02:00, so 08:00 is EST (13:00 UTC).
      expect(next('monthly', 'America/New_York', '2026-10-10T00:00:00.000Z')).to.equal('2026-11-01T13:00:00.000Z');
      // Late on 31 October local time (UTC is already 1 November): the report is still the 1st's.
      expect(next('monthly', 'America/New_York', '2026-11-01T03:30:00.000Z')).to.equal('2026-11-01T13:00:00.000Z');
    });

    it('counts leap days: 29 February 2028 has a daily report, 2027 goes from the 28th to 1 March', () => {
      expect(next('daily', 'UTC', '2028-02-28T09:00:00.000Z')).to.equal('2028-02-29T08:00:00.000Z');
      expect(next('daily', 'UTC', '2027-02-28T09:00:00.000Z')).to.equal('2027-03-01T08:00:00.000Z');
      expect(next('monthly', 'UTC', '2028-02-15T00:00:00.000Z')).to.equal('2028-03-01T08:00:00.000Z');
    });
  });

  describe('periodOfReportAt', () => {
    it('a daily report covers the previous local day; in Berlin the spring day has 23 hours, the autumn one 25', () => {
      const spring = periodOfReportAt('daily', 'Europe/Berlin', t('2026-03-30T06:00:00.000Z'));
      expect([iso(spring.start), iso(spring.end)]).to.deep.equal(['2026-03-28T23:00:00.000Z', '2026-03-29T22:00:00.000Z']);
      expect(spring.end - spring.start).to.equal(23 * HOUR);
      const autumn = periodOfReportAt('daily', 'Europe/Berlin', t('2026-10-26T07:00:00.000Z'));
      expect([iso(autumn.start), iso(autumn.end)]).to.deep.equal(['2026-10-24T22:00:00.000Z', '2026-10-25T23:00:00.000Z']);
      expect(autumn.end - autumn.start).to.equal(25 * HOUR);
    });

    it('a weekly report covers Monday 00:00 to the next Monday 00:00, local time', () => {
      expect(period('weekly', 'UTC', '2026-11-23T08:00:00.000Z')).to.deep.equal(['2026-11-16T00:00:00.000Z', '2026-11-23T00:00:00.000Z']);
      // The New York week holding the spring change: 2 March EST to 9 March EDT, 167 hours.
      const p = periodOfReportAt('weekly', 'America/New_York', t('2026-03-09T12:00:00.000Z'));
      expect([iso(p.start), iso(p.end)]).to.deep.equal(['2026-03-02T05:00:00.000Z', '2026-03-09T04:00:00.000Z']);
      expect(p.end - p.start).to.equal(167 * HOUR);
    });

    it('a monthly report covers the previous calendar month, February 2028 with its 29 days', () => {
      expect(period('monthly', 'UTC', '2028-03-01T08:00:00.000Z')).to.deep.equal(['2028-02-01T00:00:00.000Z', '2028-03-01T00:00:00.000Z']);
      expect(period('monthly', 'UTC', '2027-03-01T08:00:00.000Z')).to.deep.equal(['2027-02-01T00:00:00.000Z', '2027-03-01T00:00:00.000Z']);
      // December across the year end, in Berlin.
      expect(period('monthly', 'Europe/Berlin', '2027-01-01T07:00:00.000Z')).to.deep.equal(['2026-11-30T23:00:00.000Z', '2026-12-31T23:00:00.000Z']);
      // New York's October: EDT at both ends (the change is at 02:00 on 1 November).
      expect(period('monthly', 'America/New_York', '2026-11-01T13:00:00.000Z')).to.deep.equal(['2026-10-01T04:00:00.000Z', '2026-11-01T04:00:00.000Z']);
      // New York's November: 1 November EDT midnight to 1 December EST midnight.
      expect(period('monthly', 'America/New_York', '2026-12-01T13:00:00.000Z')).to.deep.equal(['2026-11-01T04:00:00.000Z', '2026-12-01T05:00:00.000Z']);
    });
  });

  describe('currentPeriod', () => {
    it('runs from the start of the unfinished local day, week or month up to now', () => {
      const now = t('2026-11-25T10:00:00.000Z'); // a Wednesday
      const week = currentPeriod('weekly', 'Europe/Berlin', now);
      expect([iso(week.start), week.end]).to.deep.equal(['2026-11-22T23:00:00.000Z', now]);
      expect(iso(currentPeriod('monthly', 'America/New_York', now).start)).to.equal('2026-11-01T04:00:00.000Z');
      // 22:00 on 24 November in New York (03:00 UTC on the 25th): the local day is the 24th.
      expect(iso(currentPeriod('daily', 'America/New_York', t('2026-11-25T03:00:00.000Z')).start)).to.equal('2026-11-24T05:00:00.000Z');
    });
  });

  describe('a year of reports', () => {
    // Santiago's clocks skip local midnight (6 September 2026, 00:00 -> 01:00): the day starts at 01:00.
    const zones = ['UTC', 'Europe/Berlin', 'America/New_York', 'America/Santiago', 'Australia/Lord_Howe', 'Asia/Kathmandu'];
    for (const frequency of ['daily', 'weekly', 'monthly'] as const) {
      it(`${frequency}: periods follow each other without gap or overlap, each reported after it ends, in ${zones.join(', ')}`, () => {
        for (const zone of zones) {
          let at = nextReportAt(frequency, zone, t('2026-01-01T00:00:00.000Z'));
          let prev = periodOfReportAt(frequency, zone, at);
          for (let n = 0; at < t('2027-01-10T00:00:00.000Z'); n++) {
            const nextAt = nextReportAt(frequency, zone, at);
            const p = periodOfReportAt(frequency, zone, nextAt);
            expect(p.start, `${zone} report ${iso(nextAt)}`).to.equal(prev.end);
            expect(p.end).to.be.at.most(nextAt);
            // A report goes 8 hours (7 to 9 across a DST change) after its period ends.
            expect(nextAt - p.end).to.be.within(6.5 * HOUR, 9 * HOUR);
            // The instant before the period ends is in that period's unfinished "current" one.
            expect(currentPeriod(frequency, zone, p.end - 1).start).to.equal(p.start);
            prev = p;
            at = nextAt;
          }
        }
      });
    }
  });
});

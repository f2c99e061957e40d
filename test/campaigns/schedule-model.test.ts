import { expect } from 'chai';
import {
  MAX_BLACKOUT_DATES,
  nextScheduleSlot,
  scheduleFromLegacy,
  scheduleProblem,
  windowOn,
  type CampaignSchedule,
} from '../../src/campaigns/model/schedule';
import { addDays, isoWeekday } from '../../src/campaigns/model/calendar';
import { scheduleColumns, scheduleOfRow } from '../../src/campaigns/model/schedule-row';

/**
 * The schedule model (src/campaigns/model/schedule.ts): sending days and windows by weekday,
 * blackout dates, a weekly anchor, the 2026 DST changes of both hemispheres (Berlin 29 March and
 * 25 October, Sydney 5 April and 4 October, New York 8 March and 1 November), a day that never
 * comes, and what a schedule may not be. Every instant is a fixed date: nothing depends on today.
 */
describe('campaign schedule model', () => {
  const t = (s: string): number => Date.parse(s);
  const iso = (ms: number): string => new Date(ms).toISOString();
  const h = (hour: number, minute = 0) => hour * 60 + minute;
  const NINE_TO_FIVE = { startMinute: h(9), endMinute: h(17) };
  const schedule = (s: Partial<CampaignSchedule> = {}): CampaignSchedule => ({ ...scheduleFromLegacy('daily', 'UTC', NINE_TO_FIVE), ...s });
  /** The next slot as ISO strings; anchor Monday unless given. */
  const slot = (now: string, s: Partial<CampaignSchedule>, lastTickDay: string | null = null, anchor = 1): { day: string; at: string } | null => {
    const found = nextScheduleSlot(t(now), schedule(s), anchor, lastTickDay);
    return found === null ? null : { day: found.day, at: iso(found.at) };
  };

  describe('windowOn', () => {
    it('daily: every day in the window; weekdays: Monday to Friday; weekly: the anchor weekday only', () => {
      // 2026-06-01 is a Monday.
      const week = Array.from({ length: 7 }, (_, i) => addDays('2026-06-01', i));
      const sending = (s: Partial<CampaignSchedule>, anchor = 1) => week.filter((d) => windowOn(schedule(s), d, anchor) !== null);
      expect(sending({})).to.deep.equal(week);
      expect(sending({ frequency: 'weekdays' })).to.deep.equal(week.slice(0, 5));
      expect(sending({ frequency: 'weekly' }, 3)).to.deep.equal(['2026-06-03']);
      expect(windowOn(schedule(), '2026-06-06', 1)).to.deep.equal(NINE_TO_FIVE);
    });

    it('per-weekday windows: only the weekdays named, each in its own hours', () => {
      const s = schedule({ days: { '1': { startMinute: h(9), endMinute: h(12) }, '4': { startMinute: h(14), endMinute: h(18) } } });
      expect(windowOn(s, '2026-06-01', 1)).to.deep.equal({ startMinute: h(9), endMinute: h(12) });
      expect(windowOn(s, '2026-06-04', 1)).to.deep.equal({ startMinute: h(14), endMinute: h(18) });
      expect(['2026-06-02', '2026-06-03', '2026-06-05', '2026-06-06', '2026-06-07'].map((d) => windowOn(s, d, 1))).to.deep.equal([null, null, null, null, null]);
    });

    it('a blackout date sends nothing, whatever the frequency or days say', () => {
      expect(windowOn(schedule({ blackoutDates: ['2026-06-02'] }), '2026-06-02', 1)).to.equal(null);
      expect(windowOn(schedule({ blackoutDates: ['2026-06-02'] }), '2026-06-03', 1)).to.deep.equal(NINE_TO_FIVE);
      expect(windowOn(schedule({ days: { '1': NINE_TO_FIVE }, blackoutDates: ['2026-06-01'] }), '2026-06-01', 1)).to.equal(null);
    });
  });

  describe('nextScheduleSlot', () => {
    it('now when the window is open, its start later today, tomorrow after it closed, never twice a day', () => {
      expect(slot('2026-06-01T12:00:00Z', {})).to.deep.equal({ day: '2026-06-01', at: '2026-06-01T12:00:00.000Z' });
      expect(slot('2026-06-01T06:00:00Z', {})).to.deep.equal({ day: '2026-06-01', at: '2026-06-01T09:00:00.000Z' });
      expect(slot('2026-06-01T17:00:00Z', {})).to.deep.equal({ day: '2026-06-02', at: '2026-06-02T09:00:00.000Z' });
      expect(slot('2026-06-01T12:00:00Z', {}, '2026-06-01')).to.deep.equal({ day: '2026-06-02', at: '2026-06-02T09:00:00.000Z' });
    });

    it('per-weekday windows in Berlin: Monday 09:00-12:00 and Thursday 14:00-18:00 local', () => {
      const days = { '1': { startMinute: h(9), endMinute: h(12) }, '4': { startMinute: h(14), endMinute: h(18) } } as const;
      const s = { timezone: 'Europe/Berlin', days };
      // Monday 11:00 CEST: open. Monday 12:30 CEST: closed, Thursday 14:00 CEST (12:00 UTC) next.
      expect(slot('2026-06-01T09:00:00Z', s)).to.deep.equal({ day: '2026-06-01', at: '2026-06-01T09:00:00.000Z' });
      expect(slot('2026-06-01T10:30:00Z', s)).to.deep.equal({ day: '2026-06-04', at: '2026-06-04T12:00:00.000Z' });
      // Thursday 18:00 CEST closed: next Monday 09:00 CEST.
      expect(slot('2026-06-04T16:00:00Z', s)).to.deep.equal({ day: '2026-06-08', at: '2026-06-08T07:00:00.000Z' });
    });

    it('blackout dates are passed over: a Monday evening with Tuesday and Wednesday blacked out sends Thursday', () => {
      expect(slot('2026-06-01T18:00:00Z', { blackoutDates: ['2026-06-02', '2026-06-03'] })).to.deep.equal({ day: '2026-06-04', at: '2026-06-04T09:00:00.000Z' });
      // A blackout date is a date of the schedule's zone: at 15:30 UTC on 1 June it is 2 June in Tokyo.
      expect(slot('2026-06-01T15:30:00Z', { timezone: 'Asia/Tokyo', window: { startMinute: 0, endMinute: h(24) }, blackoutDates: ['2026-06-02'] })).to.deep.equal({
        day: '2026-06-03',
        at: '2026-06-02T15:00:00.000Z',
      });
    });

    it('weekly: the anchor weekday, then a week later', () => {
      // Monday 1 June, anchor Wednesday.
      expect(slot('2026-06-01T12:00:00Z', { frequency: 'weekly' }, null, 3)).to.deep.equal({ day: '2026-06-03', at: '2026-06-03T09:00:00.000Z' });
      expect(slot('2026-06-03T12:00:00Z', { frequency: 'weekly' }, '2026-06-03', 3)).to.deep.equal({ day: '2026-06-10', at: '2026-06-10T09:00:00.000Z' });
    });

    it('weekly with a year of its weekdays blacked out: the first one after them, more than a year ahead', () => {
      const wednesdays = Array.from({ length: 53 }, (_, i) => addDays('2026-06-03', 7 * i));
      expect(wednesdays.every((d) => isoWeekday(d) === 3)).to.equal(true);
      expect(slot('2026-06-01T12:00:00Z', { frequency: 'weekly', blackoutDates: wednesdays }, null, 3)).to.deep.equal({ day: '2027-06-09', at: '2027-06-09T09:00:00.000Z' });
    });

    it('a day that never comes: every Monday blacked out and days naming Monday only is null, not an error', () => {
      const mondays = Array.from({ length: 60 }, (_, i) => addDays('2026-06-01', 7 * i));
      const s = schedule({ days: { '1': NINE_TO_FIVE }, blackoutDates: mondays });
      // A valid schedule (the API takes it): the campaign waits for a change rather than failing.
      expect(scheduleProblem(s)).to.equal(null);
      expect(nextScheduleSlot(t('2026-06-01T06:00:00Z'), s, 1, null)).to.equal(null);
      // One Monday lifted from the blackout, 30 weeks on: that is the next slot.
      const lifted = mondays.filter((_, i) => i !== 30);
      expect(slot('2026-06-01T06:00:00Z', { days: { '1': NINE_TO_FIVE }, blackoutDates: lifted })).to.deep.equal({ day: mondays[30], at: `${mondays[30]}T09:00:00.000Z` });
    });

    describe('DST, northern hemisphere', () => {
      it('Berlin, 29 March 2026 (clocks go forward): 09:00 is 08:00 UTC the day before, 07:00 UTC that day', () => {
        const s = { timezone: 'Europe/Berlin' };
        expect(slot('2026-03-28T05:00:00Z', s)).to.deep.equal({ day: '2026-03-28', at: '2026-03-28T08:00:00.000Z' });
        expect(slot('2026-03-28T12:00:00Z', s, '2026-03-28')).to.deep.equal({ day: '2026-03-29', at: '2026-03-29T07:00:00.000Z' });
      });

      it('Berlin, 25 October 2026 (clocks go back): 09:00 is 07:00 UTC the day before, 08:00 UTC that day', () => {
        const s = { timezone: 'Europe/Berlin' };
        expect(slot('2026-10-24T05:00:00Z', s)).to.deep.equal({ day: '2026-10-24', at: '2026-10-24T07:00:00.000Z' });
        expect(slot('2026-10-24T18:00:00Z', s, '2026-10-24')).to.deep.equal({ day: '2026-10-25', at: '2026-10-25T08:00:00.000Z' });
        // A window opening in the repeated hour (02:30 twice) opens at its first occurrence (CEST).
        expect(slot('2026-10-24T18:00:00Z', { ...s, window: { startMinute: h(2, 30), endMinute: h(6) } }, '2026-10-24')).to.deep.equal({ day: '2026-10-25', at: '2026-10-25T00:30:00.000Z' });
      });

      it('New York, 8 March and 1 November 2026: 09:00 is 13:00 UTC in summer time, 14:00 UTC in winter', () => {
        const s = { timezone: 'America/New_York' };
        expect(slot('2026-03-07T20:00:00Z', s, '2026-03-07')).to.deep.equal({ day: '2026-03-08', at: '2026-03-08T13:00:00.000Z' });
        expect(slot('2026-03-07T10:00:00Z', s)).to.deep.equal({ day: '2026-03-07', at: '2026-03-07T14:00:00.000Z' });
        expect(slot('2026-10-31T10:00:00Z', s)).to.deep.equal({ day: '2026-10-31', at: '2026-10-31T13:00:00.000Z' });
        expect(slot('2026-10-31T20:00:00Z', s, '2026-10-31')).to.deep.equal({ day: '2026-11-01', at: '2026-11-01T14:00:00.000Z' });
      });
    });

    describe('DST, southern hemisphere', () => {
      it('Sydney, 5 April 2026 (clocks go back): 09:00 is 22:00 UTC the day before in summer time, 23:00 UTC after', () => {
        const s = { timezone: 'Australia/Sydney' };
        expect(slot('2026-04-03T20:00:00Z', s)).to.deep.equal({ day: '2026-04-04', at: '2026-04-03T22:00:00.000Z' });
        expect(slot('2026-04-03T23:30:00Z', s, '2026-04-04')).to.deep.equal({ day: '2026-04-05', at: '2026-04-04T23:00:00.000Z' });
      });

      it('Sydney, 4 October 2026 (clocks go forward): 09:00 is 23:00 UTC the day before, 22:00 UTC after', () => {
        const s = { timezone: 'Australia/Sydney' };
        expect(slot('2026-10-02T20:00:00Z', s)).to.deep.equal({ day: '2026-10-03', at: '2026-10-02T23:00:00.000Z' });
        expect(slot('2026-10-03T01:00:00Z', s, '2026-10-03')).to.deep.equal({ day: '2026-10-04', at: '2026-10-03T22:00:00.000Z' });
      });

      it('a window opening in the skipped hour opens shifted by the gap: 02:30 on 4 October is 03:30 AEDT', () => {
        const s = { timezone: 'Australia/Sydney', window: { startMinute: h(2, 30), endMinute: h(5) } };
        // 03:30 AEDT (UTC+11) is 16:30 UTC the day before.
        expect(slot('2026-10-03T10:00:00Z', s, '2026-10-03')).to.deep.equal({ day: '2026-10-04', at: '2026-10-03T16:30:00.000Z' });
      });
    });

    it('Berlin, 29 March: a window opening in the skipped hour opens at 03:30 CEST; one ending before that has no slot that day', () => {
      const opens = { timezone: 'Europe/Berlin', window: { startMinute: h(2, 30), endMinute: h(5) } };
      expect(slot('2026-03-28T12:00:00Z', opens, '2026-03-28')).to.deep.equal({ day: '2026-03-29', at: '2026-03-29T01:30:00.000Z' });
      // 02:30-03:15: its start is 03:30 that day, after its end: the next slot is the 30th, 02:30 CEST.
      const empty = { timezone: 'Europe/Berlin', window: { startMinute: h(2, 30), endMinute: h(3, 15) } };
      expect(slot('2026-03-28T12:00:00Z', empty, '2026-03-28')).to.deep.equal({ day: '2026-03-30', at: '2026-03-30T00:30:00.000Z' });
    });
  });

  describe('scheduleProblem', () => {
    const problem = (s: Partial<CampaignSchedule>) => scheduleProblem(schedule(s));

    it('a valid schedule has none; the legacy one is the frequency, zone and window alone', () => {
      expect(problem({})).to.equal(null);
      expect(problem({ timezone: 'Australia/Sydney', leadTimezones: true, skipHolidays: true, blackoutDates: ['2026-12-24', '2026-12-25'], days: { '1': NINE_TO_FIVE, '7': { startMinute: 0, endMinute: h(24) } } })).to.equal(null);
      expect(scheduleFromLegacy('weekly', 'Europe/Berlin', NINE_TO_FIVE)).to.deep.equal({
        frequency: 'weekly',
        timezone: 'Europe/Berlin',
        leadTimezones: false,
        window: NINE_TO_FIVE,
        days: null,
        blackoutDates: [],
        skipHolidays: false,
      });
    });

    it('names the field and says what is wrong', () => {
      expect(problem({ window: { startMinute: h(17), endMinute: h(9) } })).to.deep.equal({ field: 'window', message: 'end 09:00 is before start 17:00' });
      expect(problem({ window: { startMinute: h(9), endMinute: h(9) } })).to.deep.equal({ field: 'window', message: 'end 09:00 is the same as start 09:00' });
      expect(problem({ days: { '1': { startMinute: h(9), endMinute: h(8) } } })).to.deep.equal({ field: 'days.mon', message: 'end 08:00 is before start 09:00' });
      expect(problem({ days: { '7': { startMinute: h(9), endMinute: h(25) } } })).to.deep.equal({ field: 'days.sun', message: 'needs a start and an end between 00:00 and 24:00' });
      expect(problem({ days: {} })?.field).to.equal('days');
      expect(problem({ frequency: 'weekly', days: { '1': NINE_TO_FIVE } })?.message).to.match(/^cannot be combined with frequency weekly/);
      expect(problem({ frequency: 'weekdays', days: { '1': NINE_TO_FIVE } })?.field).to.equal('days');
      expect(problem({ timezone: 'Mars/Olympus' })).to.deep.equal({ field: 'timezone', message: 'unknown time zone "Mars/Olympus" (use an IANA name such as Europe/Berlin)' });
      expect(problem({ blackoutDates: ['2026-02-30'] })).to.deep.equal({ field: 'blackoutDates', message: '"2026-02-30" is not a date (YYYY-MM-DD, a day of the calendar)' });
      expect(problem({ blackoutDates: ['2026-1-05'] })?.field).to.equal('blackoutDates');
      const many = Array.from({ length: MAX_BLACKOUT_DATES + 1 }, (_, i) => addDays('2026-01-01', i));
      expect(problem({ blackoutDates: many })).to.deep.equal({ field: 'blackoutDates', message: 'at most 366 dates (got 367)' });
      expect(problem({ blackoutDates: many.slice(1) })).to.equal(null);
      expect(problem({ frequency: 'hourly' as never })?.field).to.equal('frequency');
    });

    it('a malformed edit (JSON from an Update) is a problem, never an exception', () => {
      const junk = (s: Record<string, unknown>) => scheduleProblem({ ...schedule(), ...s } as unknown as CampaignSchedule);
      expect(junk({ days: [] })?.field).to.equal('days');
      expect(junk({ days: undefined })?.field).to.equal('days');
      expect(junk({ days: { '1': null } })).to.deep.equal({ field: 'days.mon', message: 'needs a start and an end between 00:00 and 24:00' });
      expect(junk({ window: undefined })?.field).to.equal('window');
      expect(junk({ blackoutDates: '2026-12-24' })?.field).to.equal('blackoutDates');
      expect(junk({ blackoutDates: [20261224] })?.field).to.equal('blackoutDates');
      expect(junk({ timezone: 42 })?.field).to.equal('timezone');
      expect(junk({ skipHolidays: 'yes' })?.field).to.equal('skipHolidays');
    });
  });

  it('a schedule survives its row: columns and back', () => {
    const s = schedule({ timezone: 'Asia/Tokyo', leadTimezones: true, days: { '2': NINE_TO_FIVE }, blackoutDates: ['2026-12-31'], skipHolidays: true });
    expect(scheduleOfRow(scheduleColumns(s))).to.deep.equal(s);
    // A row from before the schedule-rules columns: the legacy schedule.
    expect(scheduleOfRow({ scheduleFrequency: 'weekdays', timezone: 'UTC', sendWindowStartMinute: 60, sendWindowEndMinute: 120 })).to.deep.equal(
      scheduleFromLegacy('weekdays', 'UTC', { startMinute: 60, endMinute: 120 }),
    );
  });
});

import { expect } from 'chai';
import {
  addDays,
  budgetWindowKey,
  isoWeekday,
  isSendDay,
  localDate,
  localInstant,
  nextBudgetReset,
  nextSendSlot,
  type SlotRules,
} from '../../src/campaigns/model/calendar';

/**
 * The campaign calendar: sending slots by frequency, time zone (including the 2026 DST changes of
 * New York, 8 March, and Berlin, 29 March) and window; the UTC budget windows.
 */
describe('campaign calendar', () => {
  const t = (s: string): number => Date.parse(s);
  const iso = (ms: number): string => new Date(ms).toISOString();
  const NINE_TO_FIVE = { startMinute: 9 * 60, endMinute: 17 * 60 };
  const rules = (r: Partial<SlotRules> = {}): SlotRules => ({ frequency: 'daily', timeZone: 'UTC', window: NINE_TO_FIVE, anchorWeekday: 1, lastTickDay: null, ...r });
  const slot = (now: string, r: Partial<SlotRules> = {}): { day: string; at: string } => {
    const s = nextSendSlot(t(now), rules(r));
    return { day: s.day, at: iso(s.at) };
  };

  describe('dates', () => {
    it('ISO weekdays, adding days across month and year ends', () => {
      expect(['2026-03-02', '2026-03-07', '2026-03-08'].map(isoWeekday)).to.deep.equal([1, 6, 7]);
      expect(addDays('2026-02-27', 2)).to.equal('2026-03-01');
      expect(addDays('2028-02-28', 1)).to.equal('2028-02-29');
      expect(addDays('2026-12-31', 1)).to.equal('2027-01-01');
      expect(addDays('2026-03-01', -1)).to.equal('2026-02-28');
    });

    it('the local date of an instant depends on the time zone', () => {
      const instant = t('2026-03-08T03:00:00Z');
      expect(localDate(instant, 'UTC')).to.equal('2026-03-08');
      expect(localDate(instant, 'America/New_York')).to.equal('2026-03-07'); // 22:00 EST
      expect(localDate(t('2026-03-07T15:30:00Z'), 'Asia/Tokyo')).to.equal('2026-03-08'); // 00:30 JST
    });

    it('send days: daily every day, weekdays Monday to Friday, weekly on the anchor weekday', () => {
      const week = ['2026-03-02', '2026-03-03', '2026-03-04', '2026-03-05', '2026-03-06', '2026-03-07', '2026-03-08'];
      expect(week.filter((d) => isSendDay(d, 'daily', 3))).to.deep.equal(week);
      expect(week.filter((d) => isSendDay(d, 'weekdays', 3))).to.deep.equal(week.slice(0, 5));
      expect(week.filter((d) => isSendDay(d, 'weekly', 3))).to.deep.equal(['2026-03-04']);
    });
  });

  describe('local instants across DST', () => {
    it('New York, 8 March 2026: 09:00 is 14:00 UTC the day before and 13:00 UTC that day', () => {
      expect(iso(localInstant('2026-03-07', 540, 'America/New_York'))).to.equal('2026-03-07T14:00:00.000Z');
      expect(iso(localInstant('2026-03-08', 540, 'America/New_York'))).to.equal('2026-03-08T13:00:00.000Z');
      expect(iso(localInstant('2026-03-08', 0, 'America/New_York'))).to.equal('2026-03-08T05:00:00.000Z'); // midnight, still EST
      expect(iso(localInstant('2026-03-08', 180, 'America/New_York'))).to.equal('2026-03-08T07:00:00.000Z'); // 03:00 EDT
    });

    it('Berlin, 29 March 2026: 09:00 is 08:00 UTC the day before and 07:00 UTC that day', () => {
      expect(iso(localInstant('2026-03-28', 540, 'Europe/Berlin'))).to.equal('2026-03-28T08:00:00.000Z');
      expect(iso(localInstant('2026-03-29', 540, 'Europe/Berlin'))).to.equal('2026-03-29T07:00:00.000Z');
    });

    // The gap (02:00-03:00 local) does not exist: a window edge inside it must not move before
    // the gap (that would open the window an hour early); calendar.ts says "just after the gap".
    for (const [zone, date, gapEnd] of [
      ['America/New_York', '2026-03-08', '2026-03-08T07:00:00.000Z'],
      ['Europe/Berlin', '2026-03-29', '2026-03-29T01:00:00.000Z'],
    ] as const) {
      it(`${zone}, ${date}: a time inside the DST gap maps to an instant after the gap`, () => {
        for (const minute of [120, 150]) {
          const instant = localInstant(date, minute, zone);
          expect(instant, `${minute} minutes`).to.be.within(t(gapEnd), t(gapEnd) + 30 * 60_000);
        }
      });
    }

    it('a repeated hour (end of DST) maps to one of the two instants with that wall time', () => {
      const ny = iso(localInstant('2026-11-01', 90, 'America/New_York'));
      expect(['2026-11-01T05:30:00.000Z', '2026-11-01T06:30:00.000Z']).to.include(ny);
      const berlin = iso(localInstant('2026-10-25', 150, 'Europe/Berlin'));
      expect(['2026-10-25T00:30:00.000Z', '2026-10-25T01:30:00.000Z']).to.include(berlin);
    });

    it('zones with half-hour offsets and east of UTC', () => {
      expect(iso(localInstant('2026-03-08', 540, 'Asia/Kolkata'))).to.equal('2026-03-08T03:30:00.000Z');
      expect(iso(localInstant('2026-03-08', 0, 'Asia/Tokyo'))).to.equal('2026-03-07T15:00:00.000Z');
    });
  });

  describe('nextSendSlot', () => {
    it('daily in UTC: the window start, now when the window is open, the next day once it closed', () => {
      expect(slot('2026-03-02T08:00:00Z')).to.deep.equal({ day: '2026-03-02', at: '2026-03-02T09:00:00.000Z' });
      expect(slot('2026-03-02T10:15:00Z')).to.deep.equal({ day: '2026-03-02', at: '2026-03-02T10:15:00.000Z' });
      expect(slot('2026-03-02T16:59:59Z')).to.deep.equal({ day: '2026-03-02', at: '2026-03-02T16:59:59.000Z' });
      expect(slot('2026-03-02T17:00:00Z')).to.deep.equal({ day: '2026-03-03', at: '2026-03-03T09:00:00.000Z' }); // the end is exclusive
    });

    it('lastTickDay: at most one sending day per date', () => {
      expect(slot('2026-03-02T10:00:00Z', { lastTickDay: '2026-03-02' })).to.deep.equal({ day: '2026-03-03', at: '2026-03-03T09:00:00.000Z' });
      expect(slot('2026-03-02T10:00:00Z', { lastTickDay: '2026-03-01' })).to.deep.equal({ day: '2026-03-02', at: '2026-03-02T10:00:00.000Z' });
    });

    it('weekdays: Friday after the window and the weekend go to Monday', () => {
      expect(slot('2026-03-06T18:00:00Z', { frequency: 'weekdays' })).to.deep.equal({ day: '2026-03-09', at: '2026-03-09T09:00:00.000Z' });
      expect(slot('2026-03-07T10:00:00Z', { frequency: 'weekdays' })).to.deep.equal({ day: '2026-03-09', at: '2026-03-09T09:00:00.000Z' });
      expect(slot('2026-03-06T10:00:00Z', { frequency: 'weekdays' })).to.deep.equal({ day: '2026-03-06', at: '2026-03-06T10:00:00.000Z' });
    });

    it('weekly: the anchor weekday only, a week later once that day is done', () => {
      const weekly = { frequency: 'weekly', anchorWeekday: 3 } as const; // Wednesdays
      expect(slot('2026-03-05T08:00:00Z', weekly)).to.deep.equal({ day: '2026-03-11', at: '2026-03-11T09:00:00.000Z' });
      expect(slot('2026-03-04T08:00:00Z', weekly)).to.deep.equal({ day: '2026-03-04', at: '2026-03-04T09:00:00.000Z' });
      expect(slot('2026-03-04T10:00:00Z', { ...weekly, lastTickDay: '2026-03-04' })).to.deep.equal({ day: '2026-03-11', at: '2026-03-11T09:00:00.000Z' });
    });

    it('in New York across 8 March 2026: 14:00 UTC on Saturday, 13:00 UTC on Sunday and Monday', () => {
      const ny = { timeZone: 'America/New_York' };
      expect(slot('2026-03-07T12:00:00Z', ny)).to.deep.equal({ day: '2026-03-07', at: '2026-03-07T14:00:00.000Z' });
      expect(slot('2026-03-07T23:00:00Z', ny)).to.deep.equal({ day: '2026-03-08', at: '2026-03-08T13:00:00.000Z' }); // after 17:00 EST
      expect(slot('2026-03-08T03:00:00Z', { ...ny, lastTickDay: '2026-03-07' })).to.deep.equal({ day: '2026-03-08', at: '2026-03-08T13:00:00.000Z' });
      expect(slot('2026-03-08T21:00:00Z', ny)).to.deep.equal({ day: '2026-03-09', at: '2026-03-09T13:00:00.000Z' }); // 17:00 EDT: closed
      expect(slot('2026-03-08T20:59:00Z', ny)).to.deep.equal({ day: '2026-03-08', at: '2026-03-08T20:59:00.000Z' });
    });

    it('in Berlin across 29 March 2026: 08:00 UTC on Saturday, 07:00 UTC on Sunday', () => {
      const berlin = { timeZone: 'Europe/Berlin' };
      expect(slot('2026-03-28T06:00:00Z', berlin)).to.deep.equal({ day: '2026-03-28', at: '2026-03-28T08:00:00.000Z' });
      expect(slot('2026-03-28T18:00:00Z', berlin)).to.deep.equal({ day: '2026-03-29', at: '2026-03-29T07:00:00.000Z' });
    });

    it('weekdays follow the local date, not the UTC one', () => {
      // Friday 20:00 UTC is already Saturday 05:00 in Tokyo: next is Monday 09:00 JST.
      expect(slot('2026-03-06T20:00:00Z', { frequency: 'weekdays', timeZone: 'Asia/Tokyo' })).to.deep.equal({ day: '2026-03-09', at: '2026-03-09T00:00:00.000Z' });
      // Sunday 23:30 UTC is Monday 08:30 in Tokyo: today's window opens in half an hour.
      expect(slot('2026-03-08T23:30:00Z', { frequency: 'weekdays', timeZone: 'Asia/Tokyo' })).to.deep.equal({ day: '2026-03-09', at: '2026-03-09T00:00:00.000Z' });
    });

    it('a custom window: 07:30-08:00', () => {
      const early = { window: { startMinute: 450, endMinute: 480 } };
      expect(slot('2026-03-02T07:45:00Z', early)).to.deep.equal({ day: '2026-03-02', at: '2026-03-02T07:45:00.000Z' });
      expect(slot('2026-03-02T08:00:00Z', early)).to.deep.equal({ day: '2026-03-03', at: '2026-03-03T07:30:00.000Z' });
    });
  });

  describe('budget windows', () => {
    it('daily: the UTC date; resets at the next 00:00 UTC', () => {
      expect(budgetWindowKey('daily', t('2026-03-02T23:59:59.999Z'))).to.equal('2026-03-02');
      expect(budgetWindowKey('daily', t('2026-03-03T00:00:00Z'))).to.equal('2026-03-03');
      expect(iso(nextBudgetReset('daily', t('2026-03-02T00:00:00Z')))).to.equal('2026-03-03T00:00:00.000Z');
      expect(iso(nextBudgetReset('daily', t('2026-12-31T23:59:59.999Z')))).to.equal('2027-01-01T00:00:00.000Z');
    });

    it('weekly: its Monday; resets on the next Monday 00:00 UTC, across month and year ends', () => {
      expect(budgetWindowKey('weekly', t('2026-03-01T12:00:00Z'))).to.equal('2026-02-23'); // a Sunday
      expect(iso(nextBudgetReset('weekly', t('2026-03-01T12:00:00Z')))).to.equal('2026-03-02T00:00:00.000Z');
      expect(budgetWindowKey('weekly', t('2026-03-02T00:00:00Z'))).to.equal('2026-03-02'); // a Monday
      expect(iso(nextBudgetReset('weekly', t('2026-03-02T00:00:00Z')))).to.equal('2026-03-09T00:00:00.000Z');
      expect(budgetWindowKey('weekly', t('2027-01-01T08:00:00Z'))).to.equal('2026-12-28'); // a Friday
      expect(iso(nextBudgetReset('weekly', t('2027-01-01T08:00:00Z')))).to.equal('2027-01-04T00:00:00.000Z');
    });

    it('monthly: its month; resets on the 1st 00:00 UTC, across year ends and leap Februaries', () => {
      expect(budgetWindowKey('monthly', t('2026-01-31T23:00:00Z'))).to.equal('2026-01');
      expect(iso(nextBudgetReset('monthly', t('2026-01-31T23:00:00Z')))).to.equal('2026-02-01T00:00:00.000Z');
      expect(iso(nextBudgetReset('monthly', t('2026-01-01T00:00:00Z')))).to.equal('2026-02-01T00:00:00.000Z');
      expect(budgetWindowKey('monthly', t('2026-12-31T23:59:59.999Z'))).to.equal('2026-12');
      expect(iso(nextBudgetReset('monthly', t('2026-12-31T23:59:59.999Z')))).to.equal('2027-01-01T00:00:00.000Z');
      expect(iso(nextBudgetReset('monthly', t('2028-02-29T10:00:00Z')))).to.equal('2028-03-01T00:00:00.000Z');
    });
  });
});

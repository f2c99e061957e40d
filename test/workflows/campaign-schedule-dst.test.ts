import { expect } from 'chai';
import { aSchedule, CampaignHarness, plusDays } from './support/campaign-harness';

/**
 * A campaign's schedule over days of simulated time (time-skipping, fake activities): sending
 * begins at the window's local opening on both sides of a DST change, north (Berlin, clocks forward
 * on the last Sunday of March) and south (Sydney, clocks back on the first Sunday of April), on
 * the weekdays `days` names, never on a blackout date.
 */
describe('campaign workflow schedules across DST changes (time-skipping)', function () {
  this.timeout(180_000);
  const h = new CampaignHarness();
  before(() => h.start());
  after(() => h.stop());

  const schedule = aSchedule;
  /** The instants (ISO, to the minute) batches began at, each once: one a sending day (the clock only moves forward in a file, so the tests run in date order). */
  const openings = (batches: ReadonlyArray<{ calledAt: number }>): string[] => [...new Set(batches.map((b) => new Date(b.calledAt).toISOString().slice(0, 16)))].sort();

  it('per-weekday windows and blackout dates: Tuesdays 10:00-12:00 and Thursdays 15:00-18:00 New York time, one Thursday blacked out', async () => {
    const startDate = '2027-03-01'; // a Monday; New York changes to EDT on Sunday 2027-03-14
    const days = { '2': { startMinute: 600, endMinute: 720 }, '4': { startMinute: 900, endMinute: 1080 } };
    const setup = { startDate, trialDays: 18, schedule: schedule({ timezone: 'America/New_York', days, blackoutDates: ['2027-03-11'] }) };
    await h.campaign(setup, {}, async ({ fake, handle }) => {
      await h.resultBy(handle, Date.parse(`${plusDays(startDate, 18)}T00:01:00Z`));
      expect(openings(fake.batches)).to.deep.equal([
        '2027-03-02T15:00', // Tuesday 10:00 EST
        '2027-03-04T20:00', // Thursday 15:00 EST
        '2027-03-09T15:00', // Tuesday
        // Thursday 2027-03-11 is blacked out
        '2027-03-16T14:00', // Tuesday 10:00 EDT
        '2027-03-18T19:00', // Thursday 15:00 EDT
      ]);
    });
  });

  it('Europe/Berlin: 09:00 local is 08:00 UTC before the spring change (2027-03-28) and 07:00 UTC after', async () => {
    const startDate = '2027-03-26';
    await h.campaign({ startDate, trialDays: 4, schedule: schedule({ timezone: 'Europe/Berlin' }) }, {}, async ({ fake, handle }) => {
      await h.resultBy(handle, Date.parse('2027-03-30T00:01:00Z'));
      expect(openings(fake.batches)).to.deep.equal(['2027-03-26T08:00', '2027-03-27T08:00', '2027-03-28T07:00', '2027-03-29T07:00']);
    });
  });

  it('Australia/Sydney: 09:00 local is 22:00 UTC the day before under AEDT and 23:00 UTC after the autumn change (2027-04-04)', async () => {
    // The start date's 00:00 UTC is 11:00 in Sydney, inside that day's window: it sends at once.
    const startDate = '2027-04-02';
    await h.campaign({ startDate, trialDays: 4, schedule: schedule({ timezone: 'Australia/Sydney' }) }, {}, async ({ fake, handle }) => {
      await h.resultBy(handle, Date.parse('2027-04-06T00:01:00Z'));
      // Sydney 04-03 09:00 AEDT; 04-04 09:00 AEST (clocks went back at 03:00 that night); 04-05 and 04-06 09:00 AEST.
      expect(openings(fake.batches)).to.deep.equal(['2027-04-02T00:00', '2027-04-02T22:00', '2027-04-03T23:00', '2027-04-04T23:00', '2027-04-05T23:00']);
    });
  });

});

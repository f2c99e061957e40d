import { expect } from 'chai';
import { isPublicHoliday } from '../../src/campaigns/schedule/holidays';
import { leadTimeZone, leadZoneFacts } from '../../src/campaigns/schedule/lead-zone';
import type { CampaignSchedule } from '../../src/campaigns/model/schedule';
import { nextWakeAt, sendableGroups } from '../../src/campaigns/schedule/zone-groups';

const place = (city: string | null, country: string | null, countryCode: string | null = null) => ({ city, country, countryCode });

/** A lead's own zone from their city or country (city-timezones, countries-and-timezones) and the public holidays of their country (date-holidays). Pure. */
describe('a lead\'s zone and holidays', () => {
  describe('leadTimeZone', () => {
    it('takes the city\'s zone, within the lead\'s country when it is known', () => {
      expect(leadTimeZone(place('Tokyo', 'Japan', 'JP'))).to.deep.equal({ zone: 'Asia/Tokyo', source: 'city' });
      expect(leadTimeZone(place('Portland', 'United States', 'US'))).to.deep.equal({ zone: 'America/Los_Angeles', source: 'city' });
      // Sydney, Nova Scotia: the Canadian lead is not put in Australia.
      expect(leadTimeZone(place('Sydney', 'Canada', 'CA'))).to.deep.equal({ zone: 'America/Glace_Bay', source: 'city' });
    });

    it('without a country, takes the most populous city of that name', () => {
      expect(leadTimeZone(place('Sydney', null))).to.deep.equal({ zone: 'Australia/Sydney', source: 'city' });
      expect(leadTimeZone(place('New York', null))).to.deep.equal({ zone: 'America/New_York', source: 'city' });
    });

    it('reads local names and nicknames, and a city written with its state', () => {
      expect(leadTimeZone(place('München', 'Deutschland'))).to.deep.equal({ zone: 'Europe/Berlin', source: 'city' });
      expect(leadTimeZone(place('NYC', 'US'))).to.deep.equal({ zone: 'America/New_York', source: 'city' });
      expect(leadTimeZone(place('Austin, TX', 'USA'))).to.deep.equal({ zone: 'America/Chicago', source: 'city' });
    });

    it('falls back on the country\'s main zone: its only one, or the zone of its most populous city', () => {
      expect(leadTimeZone(place(null, 'Japan'))).to.deep.equal({ zone: 'Asia/Tokyo', source: 'country' });
      expect(leadTimeZone(place(null, null, 'US'))).to.deep.equal({ zone: 'America/New_York', source: 'country' });
      expect(leadTimeZone(place(null, 'Australia'))).to.deep.equal({ zone: 'Australia/Sydney', source: 'country' });
      expect(leadTimeZone(place(null, 'Russia'))).to.deep.equal({ zone: 'Europe/Moscow', source: 'country' });
      expect(leadTimeZone(place(null, 'Brazil'))).to.deep.equal({ zone: 'America/Sao_Paulo', source: 'country' });
      // Germany's list has Büsingen's Europe/Zurich too.
      expect(leadTimeZone(place(null, 'DE'))).to.deep.equal({ zone: 'Europe/Berlin', source: 'country' });
    });

    it('a city the data does not know, or one of that name only in another country, gives the country\'s zone', () => {
      expect(leadTimeZone(place('Smallville', 'Canada'))).to.deep.equal({ zone: 'America/Toronto', source: 'country' });
      expect(leadTimeZone(place('Paris', 'USA', 'US'))).to.deep.equal({ zone: 'America/New_York', source: 'country' });
    });

    it('null when neither city nor country gives a zone', () => {
      expect(leadTimeZone(place(null, null))).to.equal(null);
      expect(leadTimeZone(place('  ', ''))).to.equal(null);
      expect(leadTimeZone(place('Nowhereville', null))).to.equal(null);
    });

    it('reads the country code from the profile, else the country column as a code or a name', () => {
      expect(leadZoneFacts(place(null, null, 'jp')).countryCode).to.equal('JP');
      expect(leadZoneFacts(place(null, 'United Kingdom')).countryCode).to.equal('GB');
      expect(leadZoneFacts(place('Berlin', 'DEU')).countryCode).to.equal('DE');
      expect(leadZoneFacts(place('Berlin', null)).countryCode).to.equal(null);
    });
  });

  describe('isPublicHoliday', () => {
    it('national public holidays, observed substitutes included', () => {
      expect(isPublicHoliday('US', '2026-11-26'), 'Thanksgiving').to.equal(true);
      expect(isPublicHoliday('US', '2026-07-03'), 'Independence Day observed').to.equal(true);
      expect(isPublicHoliday('US', '2026-11-27')).to.equal(false);
      expect(isPublicHoliday('DE', '2026-10-03'), 'Tag der Deutschen Einheit').to.equal(true);
      expect(isPublicHoliday('jp', '2027-01-01'), 'case ignored, another year').to.equal(true);
    });

    it('not bank holidays, observances or a state\'s own', () => {
      expect(isPublicHoliday('DE', '2026-12-24'), 'Heiliger Abend (bank)').to.equal(false);
      expect(isPublicHoliday('DE', '2026-02-16'), 'Rosenmontag (observance)').to.equal(false);
      expect(isPublicHoliday('DE', '2026-01-06'), 'Heilige Drei Könige (some states)').to.equal(false);
    });

    it('a code the data does not know holds nobody back', () => {
      expect(isPublicHoliday('ZZ', '2026-01-01')).to.equal(false);
      expect(isPublicHoliday('', '2026-01-01')).to.equal(false);
    });
  });

  describe('zone groups', () => {
    const schedule = (s: Partial<CampaignSchedule> = {}): CampaignSchedule => ({
      frequency: 'daily',
      timezone: 'UTC',
      leadTimezones: true,
      window: { startMinute: 540, endMinute: 1020 },
      days: null,
      blackoutDates: [],
      skipHolidays: false,
      ...s,
    });
    const at = Date.parse('2026-12-02T01:00:00Z');

    it('a group is sendable on its own local date while its window holds the instant; a group without a zone takes the campaign\'s', () => {
      const groups = [
        { timeZone: 'Asia/Tokyo', countryCode: 'JP' },
        { timeZone: 'Europe/Berlin', countryCode: 'DE' },
        { timeZone: '', countryCode: '' },
      ];
      expect(sendableGroups(groups, { at, schedule: schedule(), anchorWeekday: 1 })).to.deep.equal([{ time_zone: 'Asia/Tokyo', country_code: 'JP', day: '2026-12-02' }]);
      expect(sendableGroups(groups, { at, schedule: schedule({ timezone: 'Asia/Tokyo' }), anchorWeekday: 1 }).map((g) => g.time_zone)).to.deep.equal(['Asia/Tokyo', '']);
      // Not in lead mode: everyone in the campaign's zone (Berlin, 02:00): nobody.
      expect(sendableGroups(groups, { at, schedule: schedule({ timezone: 'Europe/Berlin', leadTimezones: false }), anchorWeekday: 1 })).to.deep.equal([]);
    });

    it('per-weekday hours: Wednesday 10:00-12:00 in Tokyo holds 01:00 UTC, Wednesday 11:00-12:00 does not', () => {
      const tokyo = [{ timeZone: 'Asia/Tokyo', countryCode: 'JP' }];
      expect(sendableGroups(tokyo, { at, schedule: schedule({ days: { '3': { startMinute: 600, endMinute: 720 } } }), anchorWeekday: 1 })).to.have.length(1);
      expect(sendableGroups(tokyo, { at, schedule: schedule({ days: { '3': { startMinute: 660, endMinute: 720 } } }), anchorWeekday: 1 })).to.have.length(0);
    });

    it('the next wake-up counts only rows waiting: those due later than their date, or in a closed window', () => {
      const rules = { at, schedule: schedule(), anchorWeekday: 1 };
      // Tokyo is open and its rows are due: nothing to wake for there. Berlin opens at 08:00 UTC.
      expect(nextWakeAt([{ timeZone: 'Asia/Tokyo', countryCode: 'JP', days: [null, '2026-12-01'] }], rules)).to.equal(null);
      expect(nextWakeAt([{ timeZone: 'Asia/Tokyo', countryCode: 'JP', days: [null] }, { timeZone: 'Europe/Berlin', countryCode: 'DE', days: [null] }], rules)).to.equal(Date.parse('2026-12-02T08:00:00Z'));
      // A Tokyo follow-up due on the 4th: 09:00 there.
      expect(nextWakeAt([{ timeZone: 'Asia/Tokyo', countryCode: 'JP', days: ['2026-12-04'] }], rules)).to.equal(Date.parse('2026-12-04T00:00:00Z'));
    });
  });
});

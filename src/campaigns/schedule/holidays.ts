/**
 * Public holidays of a country, for `schedule.skip_holidays`: date-holidays' national holidays of
 * type `public` (the days off by law, observed substitutes included: the US's 2026-07-03 for a
 * Saturday 4 July), not bank holidays, observances or a state's own. Dates are the country's local
 * dates, which is what a lead's local date is compared with. The data (~100 ms to load) is read on
 * the first lookup; each country's year is computed once.
 */
import { createRequire } from 'node:module';

interface Holiday {
  readonly date: string;
  readonly type: string;
}

interface HolidaysInstance {
  getHolidays(year: number): Holiday[] | undefined;
}

type HolidaysClass = new (country: string) => HolidaysInstance;

let Holidays: HolidaysClass | undefined;
/** `CC|year` to that year's public holiday dates. */
const years = new Map<string, ReadonlySet<string>>();

function holidaysClass(): HolidaysClass {
  // Loaded here, not imported at the top, so only a process that sends pays for it.
  Holidays ??= createRequire(__filename)('date-holidays') as HolidaysClass;
  return Holidays;
}

function publicHolidays(countryCode: string, year: number): ReadonlySet<string> {
  const key = `${countryCode}|${year}`;
  let dates = years.get(key);
  if (dates === undefined) {
    // A code date-holidays does not know yields no holidays (the lead is not held back).
    const list = new (holidaysClass())(countryCode).getHolidays(year) ?? [];
    dates = new Set(list.filter((h) => h.type === 'public').map((h) => h.date.slice(0, 10)));
    years.set(key, dates);
  }
  return dates;
}

/** Is `localDate` (YYYY-MM-DD) a national public holiday of the country (ISO 3166-1 alpha-2)? */
export function isPublicHoliday(countryCode: string, localDate: string): boolean {
  const code = countryCode.trim().toUpperCase();
  if (!/^[A-Z]{2}$/.test(code)) return false;
  return publicHolidays(code, Number(localDate.slice(0, 4))).has(localDate);
}

/** How the pages write numbers, money, rates and times: one place, so every page (and the report) agrees. */

/** Counts, money and rates are written as the emailed report writes them. */
export { CATEGORY_LABEL, count, percent, usd } from '../../campaigns/reporting/report-view';

const dateTimes = new Map<string, Intl.DateTimeFormat>();
/** "27 Nov 2026, 08:00 CET" in the given zone (the campaign's): what its owner's calendar says. */
export function dateTime(at: Date | number | null, timeZone = 'UTC'): string {
  if (at === null) return '—';
  let f = dateTimes.get(timeZone);
  if (f === undefined) {
    f = new Intl.DateTimeFormat('en-GB', { timeZone, day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', timeZoneName: 'short' });
    dateTimes.set(timeZone, f);
  }
  return f.format(typeof at === 'number' ? new Date(at) : at);
}

/** "Mon 30 Nov 2026" for a YYYY-MM-DD date. */
export function day(date: string | null): string {
  if (date === null) return '—';
  return new Date(`${date}T12:00:00Z`).toLocaleDateString('en-GB', { timeZone: 'UTC', weekday: 'short', day: 'numeric', month: 'short', year: 'numeric' });
}

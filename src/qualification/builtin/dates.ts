/** Calendar-date helpers on UTC dates; qualification speaks in whole days (YYYY-MM-DD). */

/**
 * Dates are read from the head of the reply only: absence notices and "try again next quarter"
 * say it in the first lines, and date parsing over 100 KB would take a second.
 */
export const DATE_SCAN_CHARS = 4000;

export function isoDate(year: number, month: number, day: number): string {
  return new Date(Date.UTC(year, month - 1, day)).toISOString().slice(0, 10);
}

export function isoDay(d: Date): string {
  return d.toISOString().slice(0, 10);
}

export function addDays(d: Date, days: number): Date {
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + days));
}

export function addMonths(d: Date, months: number): Date {
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + months, d.getUTCDate()));
}

/** The first day of the first calendar quarter after the one `d` is in. */
export function startOfNextQuarter(d: Date): Date {
  const q = Math.floor(d.getUTCMonth() / 3);
  return new Date(Date.UTC(d.getUTCFullYear(), (q + 1) * 3, 1));
}

/** The next first of `month` (1-12) strictly after `d`'s month. */
export function nextFirstOfMonth(d: Date, month: number): Date {
  const year = d.getUTCMonth() + 1 < month ? d.getUTCFullYear() : d.getUTCFullYear() + 1;
  return new Date(Date.UTC(year, month - 1, 1));
}

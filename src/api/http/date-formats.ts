import type Ajv from 'ajv';
import { fullFormats } from 'ajv-formats/dist/formats';

/**
 * The days a request may name, in every `date` (YYYY-MM-DD) and `date-time` field of every route,
 * body and query alike. PostgreSQL has no year 0 (`0000-01-01` was a database error, a 500), and
 * JavaScript's Date reads the years 0-99 as 1900-1999; nothing this service stores or reports
 * happened before the epoch. Four-digit years end at 9999.
 */
export const FIRST_DAY = '1970-01-01';
export const LAST_DAY = '9999-12-31';

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** A day of the calendar (no 2026-02-30, no month 13) from FIRST_DAY to LAST_DAY. */
export function isDayInRange(text: string): boolean {
  const m = DAY.exec(text);
  if (m === null) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return false;
  return text >= FIRST_DAY && text <= LAST_DAY;
}

const RFC3339 = fullFormats['date-time'] as { validate: (s: string) => boolean };

/** An RFC 3339 date-time (with its offset) whose day is a day of isDayInRange. */
function isDateTimeInRange(text: string): boolean {
  return RFC3339.validate(text) && isDayInRange(text.slice(0, 10));
}

/** Replaces ajv-formats' `date` and `date-time` (any year from 0000) with the ranged ones. */
export function addDateFormats(ajv: Ajv): void {
  ajv.addFormat('date', { type: 'string', validate: isDayInRange });
  ajv.addFormat('date-time', { type: 'string', validate: isDateTimeInRange });
}

/** What a `date` or `date-time` field takes, for the 400 that refuses another value. */
export const FORMAT_RULES: Readonly<Record<string, string>> = {
  date: `must be a date YYYY-MM-DD, a real day from ${FIRST_DAY} to ${LAST_DAY}`,
  'date-time': `must be a date-time (RFC 3339, e.g. 2026-01-31T09:00:00Z) on a real day from ${FIRST_DAY} to ${LAST_DAY}`,
};

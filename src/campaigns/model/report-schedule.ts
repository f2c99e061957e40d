/**
 * When a campaign's emailed reports go out and which period each covers (docs/decisions.md,
 * "Reports by email"). Pure and deterministic: the report workflow passes in its own clock, the API
 * its wall clock (GET /campaigns/:id's `next_report_at`).
 *
 * Every report goes at 08:00 local time in the campaign's zone: daily every day, weekly on Mondays,
 * monthly on the 1st. A report covers the local period that ended at its local midnight: the
 * previous day, the previous Monday..Sunday, the previous calendar month. Periods are half-open
 * `[start, end)` in epoch ms; local midnights come from `localInstant`, so a period across a DST
 * change is 23 or 25 hours (a day) long, never shifted by the hour.
 */
import { addDays, isoWeekday, localDate, localInstant } from './calendar';

export type ReportFrequency = 'daily' | 'weekly' | 'monthly';
export const REPORT_FREQUENCIES: readonly ReportFrequency[] = ['daily', 'weekly', 'monthly'];

/** Minutes after local midnight a report is sent: 08:00. */
export const REPORT_MINUTE = 8 * 60;

export interface ReportPeriod {
  /** Epoch ms, inclusive. */
  readonly start: number;
  /** Epoch ms, exclusive. */
  readonly end: number;
}

/** The first local date of the period holding `date`: itself, its Monday, or its month's 1st. */
function periodFirstDate(frequency: ReportFrequency, date: string): string {
  if (frequency === 'daily') return date;
  if (frequency === 'weekly') return addDays(date, 1 - isoWeekday(date));
  return `${date.slice(0, 7)}-01`;
}

/** The first local date of the period before the one starting on `first`. */
function previousPeriodFirstDate(frequency: ReportFrequency, first: string): string {
  if (frequency === 'daily') return addDays(first, -1);
  if (frequency === 'weekly') return addDays(first, -7);
  return `${addDays(first, -1).slice(0, 7)}-01`;
}

/** Is `date` a report day: every day, a Monday, or a 1st. */
function isReportDay(frequency: ReportFrequency, date: string): boolean {
  return periodFirstDate(frequency, date) === date;
}

/** The first report time strictly after `afterMs`: 08:00 local on the next report day. */
export function nextReportAt(frequency: ReportFrequency, timeZone: string, afterMs: number): number {
  const today = localDate(afterMs, timeZone);
  // A month holds at most 31 days, so a 1st (and its 08:00 after afterMs) falls within 32.
  for (let i = 0; i <= 32; i++) {
    const day = addDays(today, i);
    if (!isReportDay(frequency, day)) continue;
    const at = localInstant(day, REPORT_MINUTE, timeZone);
    if (at > afterMs) return at;
  }
  throw new Error(`no ${frequency} report time within 32 days of ${new Date(afterMs).toISOString()}`);
}

/**
 * The period a report sent at `reportAtMs` covers: the local period that ended at or before the
 * report's local date (for a report at its time, the previous day, week or month).
 */
export function periodOfReportAt(frequency: ReportFrequency, timeZone: string, reportAtMs: number): ReportPeriod {
  const endDate = periodFirstDate(frequency, localDate(reportAtMs, timeZone));
  const startDate = previousPeriodFirstDate(frequency, endDate);
  return { start: localInstant(startDate, 0, timeZone), end: localInstant(endDate, 0, timeZone) };
}

/** The unfinished period holding `nowMs`, up to now: what an on-demand report covers. */
export function currentPeriod(frequency: ReportFrequency, timeZone: string, nowMs: number): ReportPeriod {
  const startDate = periodFirstDate(frequency, localDate(nowMs, timeZone));
  return { start: localInstant(startDate, 0, timeZone), end: nowMs };
}

/**
 * A campaign's report frequency: the stored one, else daily (the spec's example value, and what a
 * user asking for reports by email without saying how often is best served by).
 */
export const DEFAULT_REPORT_FREQUENCY: ReportFrequency = 'daily';

export function reportFrequencyOf(stored: string | null | undefined): ReportFrequency {
  return (REPORT_FREQUENCIES as readonly string[]).includes(stored ?? '') ? (stored as ReportFrequency) : DEFAULT_REPORT_FREQUENCY;
}

/**
 * The first report time after `afterMs` whose period ends after `floorMs` (the end of what was
 * already reported, or the campaign's creation): a report time with nothing new to cover is passed
 * over. A campaign created at 03:00 gets its first daily report tomorrow, not at 08:00 today; a
 * change of frequency passes over at most a month of report times.
 */
export function nextReportEndingAfter(frequency: ReportFrequency, timeZone: string, afterMs: number, floorMs: number): number {
  let after = afterMs;
  for (let tries = 0; tries <= 40; tries++) {
    const at = nextReportAt(frequency, timeZone, after);
    if (periodOfReportAt(frequency, timeZone, at).end > floorMs) return at;
    after = at;
  }
  throw new Error(`no ${frequency} report after ${new Date(afterMs).toISOString()} covers time after ${new Date(floorMs).toISOString()}`);
}

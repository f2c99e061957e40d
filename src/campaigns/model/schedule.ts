/**
 * A campaign's sending schedule as the domain holds it: which days it sends, in which hours, in
 * whose time zone, and which dates it never sends. Pure (types, constants, Intl arithmetic), so
 * the workflow bundle may import it; the API builds it from a request, the row stores it, the
 * workflow's input and its edits carry it.
 */
import { addDays, isoWeekday, isSendDay, localDate, localInstant, startOfUtcDate, utcDate, type SendSlot } from './calendar';
import { SEND_FREQUENCIES, type SendFrequency, type SendWindow } from './status';

/** ISO weekday: 1 = Monday ... 7 = Sunday. */
export type IsoWeekday = 1 | 2 | 3 | 4 | 5 | 6 | 7;

/** The request's names of the weekdays, Monday first (index + 1 is the ISO weekday). */
export const WEEKDAY_NAMES = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type WeekdayName = (typeof WEEKDAY_NAMES)[number];

/** At most this many blackout dates (a year and a day: more is a 400). */
export const MAX_BLACKOUT_DATES = 366;

/**
 * How far ahead nextScheduleSlot looks for a sending day: past a year, so that a year's blackout
 * dates (MAX_BLACKOUT_DATES) cannot hide the day after them.
 */
export const SLOT_SEARCH_DAYS = 400;

/** Minutes in a day: a window's end may be 24:00, the end of the day. */
const DAY_MINUTES = 1440;

export interface CampaignSchedule {
  readonly frequency: SendFrequency;
  /**
   * The campaign's IANA zone: the zone of its sending days, and, when `leadTimezones` is set, the
   * zone of every lead whose own zone is not known.
   */
  readonly timezone: string;
  /** `schedule.timezone: "lead"`: each lead is written in their own local window (see lead-zone.ts). */
  readonly leadTimezones: boolean;
  /** The window of every sending day that `days` does not name. */
  readonly window: SendWindow;
  /**
   * Per-weekday windows (`schedule.days`): when set, the campaign sends only on the weekdays named,
   * each in its own hours (keys are ISO weekdays as strings, for JSON). Null: every sending day of
   * `frequency`, in `window`.
   */
  readonly days: Readonly<Partial<Record<`${IsoWeekday}`, SendWindow>>> | null;
  /** Local dates (YYYY-MM-DD, sorted, unique) on which nothing is sent, in the zone of whoever is written. */
  readonly blackoutDates: readonly string[];
  /** Skip the public holidays of each lead's country (leads without a country are not held back). */
  readonly skipHolidays: boolean;
}

/** A schedule's problem: `field` is a path in the domain's words ('days.mon', 'blackoutDates', 'window', 'timezone', 'frequency'). */
export interface ScheduleProblem {
  readonly field: string;
  readonly message: string;
}

/**
 * The window of a local date, or null when nothing is sent that day: a blackout date, or a day
 * that is not a sending day. With `days`, the weekdays named are the sending days, each in its
 * own window (`days` replaces the day choice of `frequency`); without, the days of `frequency`
 * (weekly: `anchorWeekday`) in `window`.
 */
export function windowOn(schedule: CampaignSchedule, date: string, anchorWeekday: number): SendWindow | null {
  if (schedule.blackoutDates.includes(date)) return null;
  if (schedule.days !== null) return schedule.days[`${isoWeekday(date)}` as `${IsoWeekday}`] ?? null;
  return isSendDay(date, schedule.frequency, anchorWeekday) ? schedule.window : null;
}

/**
 * The first sending slot at or after `now`, in `schedule.timezone` (nextSendSlot's rules: at most
 * one slot per local day after `lastTickDay`; a wall time that occurs twice is its first
 * occurrence, one skipped by DST is shifted forward by the gap). A window whose end comes before
 * its start so shifted (02:30-03:15 on a day that skips 02:00-03:00) has no slot that day. Looks
 * SLOT_SEARCH_DAYS ahead;
 * null when no day comes in that time (e.g. every sending weekday a blackout date): the caller
 * waits for a change of schedule rather than failing.
 */
export function nextScheduleSlot(now: number, schedule: CampaignSchedule, anchorWeekday: number, lastTickDay: string | null): SendSlot | null {
  const zone = schedule.timezone;
  const today = localDate(now, zone);
  for (let i = 0; i <= SLOT_SEARCH_DAYS; i++) {
    const day = addDays(today, i);
    if (lastTickDay !== null && day <= lastTickDay) continue;
    const window = windowOn(schedule, day, anchorWeekday);
    if (window === null) continue;
    const end = localInstant(day, window.endMinute, zone);
    const at = Math.max(now, localInstant(day, window.startMinute, zone));
    if (at >= end) continue;
    return { day, at };
  }
  return null;
}

/** The schedule of a campaign created before schedules existed: its frequency, zone and window, nothing more. */
export function scheduleFromLegacy(frequency: SendFrequency, timezone: string, window: SendWindow): CampaignSchedule {
  return { frequency, timezone, leadTimezones: false, window, days: null, blackoutDates: [], skipHolidays: false };
}

/** Is `name` a time zone Intl knows (an IANA name such as Europe/Berlin, or UTC)? */
export function isTimeZone(name: string): boolean {
  if (typeof name !== 'string' || name === '') return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A day of the calendar, YYYY-MM-DD (no 2026-02-30, no month 13), from 1970-01-01 on as every date of the API is. */
export function isCalendarDate(text: string): boolean {
  if (typeof text !== 'string' || !DATE.test(text) || text < '1970-01-01') return false;
  const ms = startOfUtcDate(text);
  return Number.isFinite(ms) && utcDate(ms) === text;
}

/** Minutes after midnight as HH:MM (1440 is 24:00, the end of the day). */
export function clockOf(minutes: number): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`;
}

function windowProblem(window: SendWindow | undefined, field: string): ScheduleProblem | null {
  const minute = (m: unknown): m is number => Number.isInteger(m) && (m as number) >= 0 && (m as number) <= DAY_MINUTES;
  if (window === undefined || window === null || !minute(window.startMinute) || !minute(window.endMinute)) {
    return { field, message: 'needs a start and an end between 00:00 and 24:00' };
  }
  if (window.endMinute <= window.startMinute) {
    return { field, message: `end ${clockOf(window.endMinute)} is ${window.endMinute === window.startMinute ? 'the same as' : 'before'} start ${clockOf(window.startMinute)}` };
  }
  return null;
}

/**
 * The first problem of a schedule, or null when it is valid. Checked by the API before anything is
 * stored and by the workflow's edit validator before an edit enters the history. `days` replaces
 * the day choice of `frequency`, so it goes only with frequency daily (weekdays or weekly would
 * contradict it).
 */
export function scheduleProblem(schedule: CampaignSchedule): ScheduleProblem | null {
  if (!SEND_FREQUENCIES.includes(schedule.frequency)) {
    return { field: 'frequency', message: `must be one of ${SEND_FREQUENCIES.join(', ')}` };
  }
  if (!isTimeZone(schedule.timezone)) {
    return { field: 'timezone', message: `unknown time zone ${JSON.stringify(String(schedule.timezone).slice(0, 100))} (use an IANA name such as Europe/Berlin)` };
  }
  const window = windowProblem(schedule.window, 'window');
  if (window !== null) return window;
  if (schedule.days !== null) {
    // An edit arrives as JSON: its shape is checked too, so that the validator never throws.
    if (typeof schedule.days !== 'object' || Array.isArray(schedule.days)) return { field: 'days', message: 'must be an object of weekdays, or null' };
    if (schedule.frequency !== 'daily') {
      return { field: 'days', message: `cannot be combined with frequency ${schedule.frequency}: days names the sending weekdays itself (leave frequency out or make it daily)` };
    }
    const keys = Object.keys(schedule.days);
    const unknown = keys.find((k) => !/^[1-7]$/.test(k));
    if (unknown !== undefined) return { field: 'days', message: `unknown weekday ${JSON.stringify(unknown.slice(0, 20))}` };
    if (keys.length === 0) return { field: 'days', message: 'names no weekday: name at least one, or leave days out to send on every day of frequency' };
    for (const [i, name] of WEEKDAY_NAMES.entries()) {
      const key = `${i + 1}` as `${IsoWeekday}`;
      if (!(key in schedule.days)) continue;
      const problem = windowProblem(schedule.days[key], `days.${name}`);
      if (problem !== null) return problem;
    }
  }
  if (!Array.isArray(schedule.blackoutDates)) return { field: 'blackoutDates', message: 'must be a list of dates' };
  if (schedule.blackoutDates.length > MAX_BLACKOUT_DATES) {
    return { field: 'blackoutDates', message: `at most ${MAX_BLACKOUT_DATES} dates (got ${schedule.blackoutDates.length})` };
  }
  if (typeof schedule.skipHolidays !== 'boolean' || typeof schedule.leadTimezones !== 'boolean') {
    return { field: typeof schedule.skipHolidays !== 'boolean' ? 'skipHolidays' : 'leadTimezones', message: 'must be true or false' };
  }
  const bad = schedule.blackoutDates.find((d) => !isCalendarDate(d));
  if (bad !== undefined) return { field: 'blackoutDates', message: `${JSON.stringify(String(bad).slice(0, 40))} is not a date (YYYY-MM-DD, a day of the calendar)` };
  return null;
}

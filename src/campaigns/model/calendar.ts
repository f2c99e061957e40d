/**
 * Calendar arithmetic of a campaign, pure and deterministic (the workflow passes in its own clock):
 * sending days and windows in the campaign's time zone, and the UTC budget windows.
 *
 * Dates are `YYYY-MM-DD` strings; instants are epoch milliseconds. Time zones go through
 * `Intl.DateTimeFormat`, which the workflow sandbox provides.
 */
import type { BudgetType, SendFrequency, SendWindow } from './status';

export const MINUTE_MS = 60_000;
export const DAY_MS = 86_400_000;

/** 00:00 UTC of a date. */
export function startOfUtcDate(date: string): number {
  return Date.parse(`${date}T00:00:00.000Z`);
}

export function utcDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

export function addDays(date: string, days: number): string {
  return utcDate(startOfUtcDate(date) + days * DAY_MS);
}

/** ISO weekday of a date: 1 = Monday ... 7 = Sunday. */
export function isoWeekday(date: string): number {
  const d = new Date(startOfUtcDate(date)).getUTCDay();
  return d === 0 ? 7 : d;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (f === undefined) {
    f = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });
    formatters.set(timeZone, f);
  }
  return f;
}

/** The wall clock of `ms` in `timeZone`, as if that wall clock were UTC (epoch ms). */
function wallClock(ms: number, timeZone: string): number {
  const parts: Record<string, number> = {};
  for (const p of formatter(timeZone).formatToParts(new Date(ms))) {
    if (p.type !== 'literal') parts[p.type] = Number(p.value);
  }
  const { year = 1970, month = 1, day = 1, hour = 0, minute = 0, second = 0 } = parts;
  return Date.UTC(year, month - 1, day, hour, minute, second) + (ms % 1000 + 1000) % 1000;
}

/** The local date of an instant in a time zone. */
export function localDate(ms: number, timeZone: string): string {
  return utcDate(wallClock(ms, timeZone));
}

/**
 * The instant of `minute` minutes after local midnight on `date` in `timeZone`. A wall time that
 * occurs twice (DST ends) is its first occurrence; one that does not exist (DST begins) is shifted
 * forward by the gap (02:30 in a skipped 02:00-03:00 hour is 03:30).
 */
export function localInstant(date: string, minute: number, timeZone: string): number {
  const wall = startOfUtcDate(date) + minute * MINUTE_MS;
  // The offsets a day either side: equal except across a DST change.
  const before = wall - (wallClock(wall - DAY_MS, timeZone) - (wall - DAY_MS));
  const after = wall - (wallClock(wall + DAY_MS, timeZone) - (wall + DAY_MS));
  const valid = [before, after].filter((c) => wallClock(c, timeZone) === wall).sort((a, b) => a - b);
  // A repeated hour: its first occurrence. A skipped hour: the wall time shifted by the gap.
  return valid[0] ?? Math.max(before, after);
}

/** Does the campaign send on this local date? `anchorWeekday` is the weekly campaign's day. */
export function isSendDay(date: string, frequency: SendFrequency, anchorWeekday: number): boolean {
  const wd = isoWeekday(date);
  if (frequency === 'weekdays') return wd <= 5;
  if (frequency === 'weekly') return wd === anchorWeekday;
  return true;
}

export interface SendSlot {
  /** Local date of the slot. */
  readonly day: string;
  /** When sending may begin: the window's start, or now when the window is already open. */
  readonly at: number;
}

export interface SlotRules {
  readonly frequency: SendFrequency;
  readonly timeZone: string;
  readonly window: SendWindow;
  readonly anchorWeekday: number;
  /** Local date of the last tick: at most one tick per sending day. */
  readonly lastTickDay: string | null;
}

/** The first sending slot at or after `now` (within the next 8 days, which always holds one). */
export function nextSendSlot(now: number, rules: SlotRules): SendSlot {
  const today = localDate(now, rules.timeZone);
  for (let i = 0; i <= 8; i++) {
    const day = addDays(today, i);
    if (!isSendDay(day, rules.frequency, rules.anchorWeekday)) continue;
    if (rules.lastTickDay !== null && day <= rules.lastTickDay) continue;
    const end = localInstant(day, rules.window.endMinute, rules.timeZone);
    if (now >= end) continue;
    return { day, at: Math.max(now, localInstant(day, rules.window.startMinute, rules.timeZone)) };
  }
  throw new Error(`no sending day within 8 days of ${new Date(now).toISOString()}`);
}

/** The budget window an instant falls in: its UTC date, the date of its Monday, or its month. */
export function budgetWindowKey(type: BudgetType, ms: number): string {
  const date = utcDate(ms);
  if (type === 'daily') return date;
  if (type === 'weekly') return addDays(date, 1 - isoWeekday(date));
  return date.slice(0, 7);
}

/** When the window holding `ms` ends: next 00:00 UTC, next Monday 00:00 UTC, or the next 1st. */
export function nextBudgetReset(type: BudgetType, ms: number): number {
  const date = utcDate(ms);
  if (type === 'daily') return startOfUtcDate(addDays(date, 1));
  if (type === 'weekly') return startOfUtcDate(addDays(date, 8 - isoWeekday(date)));
  const d = new Date(startOfUtcDate(date));
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
}

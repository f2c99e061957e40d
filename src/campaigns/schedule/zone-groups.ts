/**
 * Which of a campaign's leads may be written at an instant, decided per group of leads that share a
 * zone and a country rather than per lead: a campaign of 50,000 leads has a few dozen such groups,
 * each decided once in JS, and the batch's statement takes the sendable ones as a recordset.
 *
 * A group is sendable at `at` when, on its local date at `at`, the schedule has a window
 * (`windowOn`: weekdays, per-weekday hours, blackout dates in the group's own zone) holding `at`,
 * and the date is not a public holiday of the group's country (with `skipHolidays`). Its rows are
 * then due when their `next_send_day` is on or before that local date (null: a new queued row).
 */
import { addDays, localDate, localInstant } from '../model/calendar';
import { SLOT_SEARCH_DAYS, windowOn, type CampaignSchedule } from '../model/schedule';
import type { SendWindow } from '../model/status';
import { isPublicHoliday } from './holidays';

/** Rows of a campaign sharing a stored zone and country ('' for none), with the days their next steps are due on. */
export interface ZoneGroup {
  readonly timeZone: string;
  readonly countryCode: string;
  /** The rows' distinct next_send_day values; null for rows due as soon as possible (new queued rows). */
  readonly days: readonly (string | null)[];
}

export interface ZoneRules {
  /** The workflow's clock, epoch ms. */
  readonly at: number;
  readonly schedule: CampaignSchedule;
  /** The weekly campaign's weekday (ISO). */
  readonly anchorWeekday: number;
}

/** A group the batch may take rows of now: rows due on or before `day`, the group's local date. */
export interface SendableGroup {
  readonly time_zone: string;
  readonly country_code: string;
  readonly day: string;
}

/**
 * localDate and localInstant, remembered for one decision: groups of one zone (several countries,
 * or every group outside lead mode) ask the same instants, and each is a few Intl calls.
 */
interface Clock {
  date(zone: string): string;
  instant(date: string, minute: number, zone: string): number;
}

function clockAt(at: number): Clock {
  const dates = new Map<string, string>();
  const instants = new Map<string, number>();
  return {
    date(zone) {
      let d = dates.get(zone);
      if (d === undefined) dates.set(zone, (d = localDate(at, zone)));
      return d;
    },
    instant(date, minute, zone) {
      const key = `${date}|${minute}|${zone}`;
      let i = instants.get(key);
      if (i === undefined) instants.set(key, (i = localInstant(date, minute, zone)));
      return i;
    },
  };
}

/** The zone a group is written in: its own in lead mode when known, else the campaign's. */
export function zoneOfGroup(group: Pick<ZoneGroup, 'timeZone'>, schedule: CampaignSchedule): string {
  return schedule.leadTimezones && group.timeZone !== '' ? group.timeZone : schedule.timezone;
}

/** The window of a local date for the group's country: null on a day it is not written (holidays included). */
function windowFor(rules: ZoneRules, countryCode: string, date: string): SendWindow | null {
  const window = windowOn(rules.schedule, date, rules.anchorWeekday);
  if (window === null) return null;
  if (rules.schedule.skipHolidays && countryCode !== '' && isPublicHoliday(countryCode, date)) return null;
  return window;
}

/** The group's local date at `at`, when its window holds `at` there; null when it is closed. */
function sendableDay(group: Omit<ZoneGroup, 'days'>, rules: ZoneRules, clock: Clock): string | null {
  const zone = zoneOfGroup(group, rules.schedule);
  const date = clock.date(zone);
  const window = windowFor(rules, group.countryCode, date);
  if (window === null) return null;
  const open = rules.at >= clock.instant(date, window.startMinute, zone) && rules.at < clock.instant(date, window.endMinute, zone);
  return open ? date : null;
}

/** The groups whose window is open at `at`, with their local dates. */
export function sendableGroups(groups: readonly Omit<ZoneGroup, 'days'>[], rules: ZoneRules): SendableGroup[] {
  const clock = clockAt(rules.at);
  return groups.flatMap((g) => {
    const day = sendableDay(g, rules, clock);
    return day === null ? [] : [{ time_zone: g.timeZone, country_code: g.countryCode, day }];
  });
}

/**
 * The first window opening after `at` on or after the local date `from` in the group's zone,
 * within SLOT_SEARCH_DAYS; null when none comes (every day blacked out or a holiday).
 */
function nextOpening(group: ZoneGroup, rules: ZoneRules, clock: Clock, zone: string, from: string): number | null {
  for (let i = 0; i <= SLOT_SEARCH_DAYS; i++) {
    const date = addDays(from, i);
    const window = windowFor(rules, group.countryCode, date);
    if (window === null) continue;
    const start = clock.instant(date, window.startMinute, zone);
    // A window wholly inside an hour DST skips has no real time.
    if (start > rules.at && start < clock.instant(date, window.endMinute, zone)) return start;
  }
  return null;
}

/**
 * When the workflow should wake: the earliest instant after `at` at which a row that is not
 * sendable now becomes sendable (its group's window opens on or after its next_send_day), or null
 * when none does within the search horizon. Rows sendable now do not count: the batch takes them.
 */
export function nextWakeAt(groups: readonly ZoneGroup[], rules: ZoneRules): number | null {
  const clock = clockAt(rules.at);
  let earliest: number | null = null;
  for (const g of groups) {
    const zone = zoneOfGroup(g, rules.schedule);
    const today = clock.date(zone);
    const open = sendableDay(g, rules, clock) !== null;
    // Rows due later than today wait either way; rows due by today wait only while the window is closed.
    const waiting = g.days.map((d) => (d === null || d < today ? today : d)).filter((d) => !open || d > today);
    if (waiting.length === 0) continue;
    const from = waiting.reduce((a, b) => (a < b ? a : b));
    const at = nextOpening(g, rules, clock, zone, from);
    if (at !== null && (earliest === null || at < earliest)) earliest = at;
  }
  return earliest;
}

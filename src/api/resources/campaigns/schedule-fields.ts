import type { Static } from '@sinclair/typebox';
import {
  clockOf,
  MAX_BLACKOUT_DATES,
  scheduleFromLegacy,
  scheduleProblem,
  WEEKDAY_NAMES,
  type CampaignSchedule,
  type IsoWeekday,
  type ScheduleProblem,
} from '../../../campaigns/model/schedule';
import type { SendFrequency, SendWindow } from '../../../campaigns/model/status';
import { badRequest } from '../../http/errors';
import { cased, type Casing } from './casing';
import { DEFAULT_SCHEDULE } from './create-fields';
import type { ScheduleA, ScheduleB } from './schedule-schemas';

export { scheduleColumns, scheduleOfRow } from '../../../campaigns/model/schedule-row';

/**
 * A request's `schedule` as the domain's CampaignSchedule, on either surface: built over the
 * defaults (create) or merged over the campaign's schedule (PATCH), checked by scheduleProblem,
 * and refused with a 400 whose message starts with the member as the surface spells it.
 */

type GivenA = Static<typeof ScheduleA>;
type GivenB = Static<typeof ScheduleB>;

/** `timezone: "lead"`: each lead in their own zone. */
export const LEAD_TIMEZONE = 'lead';

/** A campaign's schedule when the request says nothing (DEFAULT_SCHEDULE: every day, 09:00-17:00 UTC). */
export const DEFAULT_CAMPAIGN_SCHEDULE: CampaignSchedule = scheduleFromLegacy(DEFAULT_SCHEDULE.scheduleFrequency, DEFAULT_SCHEDULE.timezone, {
  startMinute: DEFAULT_SCHEDULE.sendWindowStartMinute,
  endMinute: DEFAULT_SCHEDULE.sendWindowEndMinute,
});

type HourWindow = { readonly start: string; readonly end: string };

/** The members of either surface, named once (trial and start date are not the schedule's: trialColumns). */
interface Members {
  readonly frequency?: SendFrequency;
  readonly timezone?: string;
  readonly fallbackTimezone?: string;
  readonly window?: HourWindow;
  readonly days?: Readonly<Partial<Record<(typeof WEEKDAY_NAMES)[number], HourWindow>>> | null;
  readonly blackoutDates?: readonly string[];
  readonly skipHolidays?: boolean;
}

function membersOf(given: GivenA | GivenB, casing: Casing): Members {
  if (casing === 'snake') {
    const g = given as GivenA;
    return { frequency: g.frequency, timezone: g.timezone, fallbackTimezone: g.fallback_timezone, window: g.send_window, days: g.days, blackoutDates: g.blackout_dates, skipHolidays: g.skip_holidays };
  }
  const g = given as GivenB;
  return { frequency: g.frequency, timezone: g.timezone, fallbackTimezone: g.fallbackTimezone, window: g.sendWindow, days: g.days, blackoutDates: g.blackoutDates, skipHolidays: g.skipHolidays };
}

/** HH:MM (the schema checked the pattern; 24:00 is 1440) as minutes after midnight. */
function minutesOf(hhmm: string): number {
  const [h, m] = hhmm.split(':').map(Number) as [number, number];
  return h * 60 + m;
}

const windowOf = (w: HourWindow): SendWindow => ({ startMinute: minutesOf(w.start), endMinute: minutesOf(w.end) });

function daysOf(days: NonNullable<Members['days']>): NonNullable<CampaignSchedule['days']> {
  const out: Partial<Record<`${IsoWeekday}`, SendWindow>> = {};
  for (const [i, name] of WEEKDAY_NAMES.entries()) {
    const w = days[name];
    if (w !== undefined) out[`${i + 1}` as `${IsoWeekday}`] = windowOf(w);
  }
  return out;
}

/** The member a domain field is, in the surface's spelling (`timezone` of a "lead" schedule is its fallback zone). */
function requestField(problem: ScheduleProblem, casing: Casing, leadTimezones: boolean): string {
  const [head = '', ...rest] = problem.field.split('.');
  const names: Record<string, string> = {
    frequency: 'frequency',
    timezone: leadTimezones ? 'fallback_timezone' : 'timezone',
    window: 'send_window',
    days: 'days',
    blackoutDates: 'blackout_dates',
  };
  return ['schedule', cased(casing, names[head] ?? head), ...rest].join('.');
}

/**
 * The schedule a request asks for: `given` over `current` (a PATCH: members left out keep their
 * value, `days: null` clears the per-weekday windows) or over the defaults (a create). A 400 names
 * the first member in the way, e.g. `schedule.days.mon: end 08:00 is before start 09:00`.
 */
export function scheduleFromRequest(given: GivenA | undefined, casing: 'snake', current?: CampaignSchedule): CampaignSchedule;
export function scheduleFromRequest(given: GivenB | undefined, casing: 'camel', current?: CampaignSchedule): CampaignSchedule;
export function scheduleFromRequest(given: GivenA | GivenB | undefined, casing: Casing, current: CampaignSchedule = DEFAULT_CAMPAIGN_SCHEDULE): CampaignSchedule {
  const m = membersOf(given ?? {}, casing);
  const field = (snake: string) => `schedule.${cased(casing, snake)}`;

  // The zone: "lead" (its fallback the zone of leads without one) or one zone for everyone.
  let leadTimezones = current.leadTimezones;
  let timezone = current.timezone;
  if (m.timezone !== undefined) {
    leadTimezones = m.timezone === LEAD_TIMEZONE;
    if (!leadTimezones) timezone = m.timezone;
  }
  if (m.fallbackTimezone !== undefined) {
    if (!leadTimezones) throw badRequest(`${field('fallback_timezone')}: only with timezone "${LEAD_TIMEZONE}" (a campaign in one zone has no fallback)`);
    timezone = m.fallbackTimezone;
  }

  if (m.blackoutDates !== undefined && m.blackoutDates.length > MAX_BLACKOUT_DATES) {
    throw badRequest(`${field('blackout_dates')}: at most ${MAX_BLACKOUT_DATES} dates (got ${m.blackoutDates.length})`);
  }
  const days = m.days === undefined ? current.days : m.days === null ? null : daysOf(m.days);
  const schedule: CampaignSchedule = {
    // Days given without a frequency take daily: days choose the weekdays themselves.
    frequency: m.frequency ?? (m.days !== undefined && m.days !== null ? 'daily' : current.frequency),
    timezone,
    leadTimezones,
    window: m.window === undefined ? current.window : windowOf(m.window),
    days,
    blackoutDates: m.blackoutDates === undefined ? current.blackoutDates : [...new Set(m.blackoutDates)].sort(),
    skipHolidays: m.skipHolidays ?? current.skipHolidays,
  };
  const problem = scheduleProblem(schedule);
  if (problem !== null) throw badRequest(`${requestField(problem, casing, leadTimezones)}: ${surfaceMessage(problem)}`);
  return schedule;
}

/** Surface A's send_window has always said "end must be after start": kept, with the hours. */
function surfaceMessage(problem: ScheduleProblem): string {
  return problem.field === 'window' && /^end /.test(problem.message) ? `end must be after start (${problem.message})` : problem.message;
}

/** The trial members of a request's schedule as the row's columns (null: none given). */
export function trialColumns(given: GivenA | GivenB | undefined, casing: Casing): { scheduleTrialDays: number | null; scheduleStartDate: string | null } {
  if (given === undefined) return { scheduleTrialDays: null, scheduleStartDate: null };
  if (casing === 'snake') {
    const g = given as GivenA;
    return { scheduleTrialDays: g.trial_days ?? null, scheduleStartDate: g.start_date ?? null };
  }
  const g = given as GivenB;
  return { scheduleTrialDays: g.trialDays ?? null, scheduleStartDate: g.startDate ?? null };
}

/** A schedule's window as the surfaces show it. */
export const windowView = (w: SendWindow): HourWindow => ({ start: clockOf(w.startMinute), end: clockOf(w.endMinute) });

/** `days` as the surfaces show it (weekday names), or null. */
export function daysView(days: CampaignSchedule['days']): Partial<Record<(typeof WEEKDAY_NAMES)[number], HourWindow>> | null {
  if (days === null) return null;
  const out: Partial<Record<(typeof WEEKDAY_NAMES)[number], HourWindow>> = {};
  for (const [i, name] of WEEKDAY_NAMES.entries()) {
    const w = days[`${i + 1}` as `${IsoWeekday}`];
    if (w !== undefined) out[name] = windowView(w);
  }
  return out;
}

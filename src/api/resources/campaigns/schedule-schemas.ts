import { Type, type TOptional, type TSchema } from '@sinclair/typebox';
import { MAX_BLACKOUT_DATES, WEEKDAY_NAMES, type WeekdayName } from '../../../campaigns/model/schedule';
import { SEND_FREQUENCIES } from '../../../campaigns/model/status';
import { StringEnum } from '../string-enum';
import { CasedObject, type Casing } from './casing';
import { Nullable } from './schemas';

/**
 * A campaign's `schedule` on both surfaces (docs/decisions.md, "Schedules"): ScheduleA in
 * snake_case, ScheduleB in camelCase, every member optional so that a create and a PATCH take the
 * same object. What JSON Schema cannot say (a real zone, an end after its start, a date of the
 * calendar, at most MAX_BLACKOUT_DATES dates, `days` only with frequency daily) is checked by
 * scheduleFromRequest (schedule-fields.ts), with a message naming the member.
 */

/** A day, YYYY-MM-DD: every `date` is a real day from 1970-01-01 to 9999-12-31 (http/date-formats.ts). */
const Day = (description: string) => Type.String({ format: 'date', description });

const HourMinute = Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$|^24:00$', description: 'HH:MM, 24-hour clock; an end may be 24:00.' });
const HourMinuteView = (description: string) => Type.String({ pattern: '^[0-2][0-9]:[0-5][0-9]$', description });

const WindowBody = (description: string) => Type.Object({ start: HourMinute, end: HourMinute }, { additionalProperties: false, description });
const WindowView = (description: string) =>
  Type.Object(
    { start: HourMinuteView('HH:MM, local time.'), end: HourMinuteView('HH:MM (exclusive; 24:00 is the end of the day).') },
    { additionalProperties: false, description },
  );

/** `days`: mon..sun, each optional, each a window (a body's or a view's). */
function Weekdays<T extends TSchema>(window: (description: string) => T, description: string) {
  const days = Object.fromEntries(WEEKDAY_NAMES.map((name) => [name, Type.Optional(window(`The hours of ${name}.`))])) as unknown as Record<WeekdayName, TOptional<T>>;
  return Type.Object(days, { additionalProperties: false, description });
}

const DAYS_DESCRIPTION =
  'Per-weekday windows, e.g. {"mon": {"start": "09:00", "end": "12:00"}, "thu": {"start": "14:00", "end": "18:00"}}: the campaign sends only on the weekdays named, each in its own hours. ' +
  'It replaces the day choice of frequency, which must then be daily or left out. Null (or left out): every day of frequency, in send_window.';

/** The request's schedule in `casing`; every member optional (create: defaults; PATCH: unchanged). */
function ScheduleBody<C extends Casing>(casing: C) {
  return CasedObject(
    casing,
    {
      frequency: Type.Optional(StringEnum(SEND_FREQUENCIES, { description: 'Sending days: daily, weekdays (Monday to Friday) or weekly (the weekday the campaign started). Default daily.' })),
      trial_days: Type.Optional(Type.Integer({ minimum: 1, maximum: 365, description: 'The campaign completes this many days after it started.' })),
      start_date: Type.Optional(Day('YYYY-MM-DD, from 1970-01-01 to 9999-12-31; nothing is sent before 00:00 UTC of this date.')),
      timezone: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 64,
          description: 'IANA time zone of the sending windows and blackout dates (default UTC), or "lead": each lead is written in their own local window (the zone of their city, else of their country, else fallback_timezone).',
        }),
      ),
      fallback_timezone: Type.Optional(
        Type.String({ minLength: 1, maxLength: 64, description: 'With timezone "lead": the IANA zone of leads whose own zone is not known (default UTC). Only with timezone "lead".' }),
      ),
      send_window: Type.Optional(WindowBody('Local hours emails leave in on every sending day days does not name. Default 09:00-17:00.')),
      days: Type.Optional(Nullable(Weekdays(WindowBody, DAYS_DESCRIPTION), DAYS_DESCRIPTION)),
      blackout_dates: Type.Optional(
        Type.Array(Type.String({ maxLength: 40 }), {
          maxItems: 10_000,
          description: `Dates (YYYY-MM-DD, at most ${MAX_BLACKOUT_DATES}) on which nothing is sent, local to whoever is written: the campaign's zone, or each lead's with timezone "lead".`,
        }),
      ),
      skip_holidays: Type.Optional(Type.Boolean({ description: "Send nothing to a lead on a public holiday of the lead's country (leads without a known country are not held back). Default false." })),
    },
    { additionalProperties: false },
  );
}

export const ScheduleA = ScheduleBody('snake');
export const ScheduleB = ScheduleBody('camel');

/** The schedule a campaign shows (GET of a campaign): every member, in `casing`. */
export function ScheduleView<C extends Casing>(casing: C) {
  return CasedObject(
    casing,
    {
      frequency: Type.String({ description: 'daily, weekdays or weekly.' }),
      trial_days: Nullable(Type.Integer({ minimum: 1 }), 'Null: no trial; the campaign runs until its leads are done or it is paused.'),
      start_date: Nullable(Day('Nothing is sent before 00:00 UTC of this date.')),
      days_remaining: Nullable(
        Type.Integer({ minimum: 0 }),
        'Trial days left: trial_days before the campaign has started, then the days (a day begun counts) until started_at + trial_days; 0 once the trial is over or the campaign has ended; null without a trial.',
      ),
      timezone: Type.String({ description: 'IANA time zone of the sending windows, or "lead": each lead in their own zone.' }),
      fallback_timezone: Nullable(Type.String(), 'With timezone "lead": the zone of leads whose own zone is not known; null otherwise.'),
      send_window: WindowView('Local hours of every sending day days does not name.'),
      days: Nullable(Weekdays(WindowView, 'The weekdays the campaign sends on, each with its hours.'), 'Null: every day of frequency, in send_window.'),
      blackout_dates: Type.Array(Day('A local date.'), { description: 'Dates on which nothing is sent, sorted.' }),
      skip_holidays: Type.Boolean({ description: "Public holidays of each lead's country are skipped." }),
    },
    { additionalProperties: false },
  );
}

/**
 * A campaign's schedule to and from its row's columns (the migration 20261130090000-schedule-rules
 * added all but frequency, zone and window). Structural types, so the model row (`Campaign`), the
 * read model and raw rows in camelCase all fit.
 */
import { scheduleFromLegacy, type CampaignSchedule } from './schedule';
import { SEND_FREQUENCIES, type SendFrequency } from './status';

/** The columns a schedule is stored in, by their attribute names. */
export interface ScheduleColumns {
  readonly scheduleFrequency: string;
  readonly timezone: string;
  readonly sendWindowStartMinute: number;
  readonly sendWindowEndMinute: number;
  readonly scheduleDays: CampaignSchedule['days'];
  readonly blackoutDates: readonly string[];
  readonly skipHolidays: boolean;
  readonly leadTimezones: boolean;
}

/** The row's columns of a schedule. */
export function scheduleColumns(s: CampaignSchedule): ScheduleColumns {
  return {
    scheduleFrequency: s.frequency,
    timezone: s.timezone,
    sendWindowStartMinute: s.window.startMinute,
    sendWindowEndMinute: s.window.endMinute,
    scheduleDays: s.days,
    blackoutDates: [...s.blackoutDates],
    skipHolidays: s.skipHolidays,
    leadTimezones: s.leadTimezones,
  };
}

/**
 * The schedule of a row. A row stored before the new columns reads as its legacy schedule (the
 * migration's defaults: no days, no blackout dates, no holidays, the campaign's zone).
 */
export function scheduleOfRow(row: Partial<ScheduleColumns> & Pick<ScheduleColumns, 'scheduleFrequency' | 'timezone' | 'sendWindowStartMinute' | 'sendWindowEndMinute'>): CampaignSchedule {
  const frequency: SendFrequency = (SEND_FREQUENCIES as readonly string[]).includes(row.scheduleFrequency) ? (row.scheduleFrequency as SendFrequency) : 'daily';
  const legacy = scheduleFromLegacy(frequency, row.timezone, { startMinute: row.sendWindowStartMinute, endMinute: row.sendWindowEndMinute });
  return {
    ...legacy,
    days: row.scheduleDays ?? null,
    blackoutDates: row.blackoutDates ?? [],
    skipHolidays: row.skipHolidays ?? false,
    leadTimezones: row.leadTimezones ?? false,
  };
}

/**
 * A campaign's history of changes as the pages show it: when (in the campaign's zone), who (where
 * the change was made and the prefix of the key it was made with) and what (each field from -> to,
 * short). Values are text; the template escapes them.
 */
import { clockOf, WEEKDAY_NAMES } from '../../../campaigns/model/schedule';
import type { StoredChange } from '../../../campaigns/edit/change-repository';
import { dateTime } from '../../view/format';

const VIA: Readonly<Record<string, string>> = { api_a: 'API', api_b: 'API (/v1)', dashboard: 'Dashboard' };
const KIND: Readonly<Record<string, string>> = { edit: 'Edited', pause: 'Paused', stop: 'Stopped', resume: 'Resumed' };

/** Longest value shown in a row; the whole history is in GET /campaigns/:id/changes. */
const MAX_VALUE = 120;

export interface ChangeRow {
  readonly id: string;
  readonly at: string;
  readonly iso: string;
  readonly kind: string;
  readonly who: string;
  readonly fields: ReadonlyArray<{ readonly field: string; readonly from: string; readonly to: string }>;
}

type Hours = { start: string; end: string };
/** A window as the history keeps it: the surfaces' HH:MM. */
const isWindow = (x: unknown): x is Hours => typeof x === 'object' && x !== null && typeof (x as Hours).start === 'string' && typeof (x as Hours).end === 'string' && Object.keys(x).length === 2;
const hours = (w: Hours): string => `${w.start}–${w.end}`;

type Minutes = { startMinute: number; endMinute: number };
const isMinutes = (x: unknown): x is Minutes => typeof x === 'object' && x !== null && typeof (x as Minutes).startMinute === 'number' && typeof (x as Minutes).endMinute === 'number';

/**
 * Per-weekday windows in words, Monday first: "Wed 14:00–18:00, Fri 09:00–12:00". Takes either
 * shape: the row's (ISO weekday keys, minutes: the campaign page) or the history's (the surfaces'
 * {wed: {start, end}}); null when the object is neither.
 */
export function weekdayWindowsText(days: Readonly<Record<string, unknown>>): string | null {
  const keys = Object.keys(days);
  const fromRow = keys.every((k) => /^[1-7]$/.test(k) && isMinutes(days[k]));
  const fromHistory = keys.every((k) => (WEEKDAY_NAMES as readonly string[]).includes(k) && isWindow(days[k]));
  if (!fromRow && !fromHistory) return null;
  return WEEKDAY_NAMES.flatMap((day, i) => {
    const w = fromRow ? days[String(i + 1)] : days[day];
    if (w === undefined) return [];
    const text = fromRow ? `${clockOf((w as Minutes).startMinute)}–${clockOf((w as Minutes).endMinute)}` : hours(w as Hours);
    return [`${day[0]!.toUpperCase()}${day.slice(1)} ${text}`];
  }).join(', ');
}

function short(text: string): string {
  return text.length > MAX_VALUE ? `${text.slice(0, MAX_VALUE - 1)}…` : text;
}

/** One value, short: none, text as it is, a window or weekdays in hours, lists joined, other objects as JSON. */
export function valueText(value: unknown): string {
  if (value === null || value === undefined) return 'none';
  if (typeof value === 'string') return short(value === '' ? '(empty)' : value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (isWindow(value)) return hours(value);
  if (Array.isArray(value)) return value.length === 0 ? 'none' : short(value.every((x) => typeof x === 'string') ? value.join(', ') : JSON.stringify(value));
  if (typeof value === 'object') {
    const days = weekdayWindowsText(value as Record<string, unknown>);
    if (days !== null && days !== '') return short(days);
    if ('steps' in value && Object.keys(value).length === 1) return `${String((value as { steps: unknown }).steps)} steps`;
  }
  return short(JSON.stringify(value));
}

export function changeRow(c: StoredChange, timeZone: string): ChangeRow {
  return {
    id: c.id,
    at: dateTime(c.at, timeZone),
    iso: c.at.toISOString(),
    kind: KIND[c.kind] ?? c.kind,
    who: `${VIA[c.by.via] ?? c.by.via}, key ${c.by.keyPrefix}`,
    fields: c.fields.map((f) => ({ field: f.field, from: valueText(f.from), to: valueText(f.to) })),
  };
}

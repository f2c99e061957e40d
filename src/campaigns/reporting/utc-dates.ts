/**
 * Calendar arithmetic on UTC dates written `YYYY-MM-DD` (and months `YYYY-MM`). Reports count days
 * and months in UTC, as budgets and quotas do, whatever the campaign's sending time zone.
 */

const DAY_MS = 86_400_000;

export function utcDate(t: Date): string {
  return t.toISOString().slice(0, 10);
}

/** Midnight UTC at the start of `date`. */
export function startOfUtcDay(date: string): Date {
  return new Date(`${date}T00:00:00.000Z`);
}

export function addDays(date: string, days: number): string {
  return utcDate(new Date(startOfUtcDay(date).getTime() + days * DAY_MS));
}

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return Math.round((startOfUtcDay(to).getTime() - startOfUtcDay(from).getTime()) / DAY_MS);
}

export { DAY_MS };

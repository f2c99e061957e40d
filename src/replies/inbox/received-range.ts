const DAY_MS = 86_400_000;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The instants of a received-date filter: a day (YYYY-MM-DD) is the whole UTC day, a date-time
 * is that instant, both ends included. `from` is the first instant in, `before` the first one out.
 * The strings are valid already (the request schema checked their format).
 */
export function receivedRange(from: string | undefined, to: string | undefined): { receivedFrom?: Date; receivedBefore?: Date } {
  const range: { receivedFrom?: Date; receivedBefore?: Date } = {};
  if (from !== undefined) range.receivedFrom = new Date(DATE_ONLY.test(from) ? `${from}T00:00:00Z` : from);
  if (to !== undefined) range.receivedBefore = DATE_ONLY.test(to) ? new Date(Date.parse(`${to}T00:00:00Z`) + DAY_MS) : new Date(Date.parse(to) + 1);
  return range;
}

/** Pure date arithmetic shared by the workflow and its tests (no I/O, no clock of its own). */

export const DAY_MS = 86_400_000;

/** 00:00 UTC of a YYYY-MM-DD date, in epoch ms. */
export function startOfUtcDate(date: string): number {
  return Date.parse(`${date}T00:00:00.000Z`);
}

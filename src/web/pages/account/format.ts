/**
 * How the account pages write times and amounts. Times are UTC, to the minute: the figures they
 * sit beside (usage months, budget windows) are UTC too, and the `<time>` element carries the
 * exact instant for anyone who needs it.
 */

export interface ShownTime {
  /** ISO 8601, for `<time datetime>`. */
  readonly iso: string;
  /** `2026-11-01 10:00 UTC` */
  readonly text: string;
}

export function shownTime(d: Date): ShownTime;
export function shownTime(d: Date | null): ShownTime | null;
export function shownTime(d: Date | null): ShownTime | null {
  if (d === null) return null;
  const iso = d.toISOString();
  return { iso, text: `${iso.slice(0, 16).replace('T', ' ')} UTC` };
}

export { count, usd } from '../../view/format';

/**
 * The message a page shows for a `?notice=` code: only codes the page knows, each with its fixed
 * text, so nothing from the address is ever echoed into the page.
 */
export function noticeText(messages: Readonly<Record<string, string>>, code: unknown): string | undefined {
  return typeof code === 'string' && Object.hasOwn(messages, code) ? messages[code] : undefined;
}

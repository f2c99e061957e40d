import type { HttpAnswer } from './http';

const SECOND = 1000;

/**
 * How long to wait before retrying a 429, in milliseconds. `Retry-After` (seconds or an HTTP date)
 * when Apollo sends it. Otherwise Apollo's usage headers: a spent daily or hourly allowance will
 * not come back within a request's lifetime (the long wait makes the caller give up at once), a
 * spent minute allowance comes back within the minute. Without any of them, 1 s, 2 s, 4 s, ...
 */
export function retryDelayMs(res: HttpAnswer, attempt: number, now: () => number = Date.now): number {
  const retryAfter = res.header('retry-after')?.trim();
  if (retryAfter !== undefined && retryAfter !== '') {
    if (/^\d+(\.\d+)?$/.test(retryAfter)) return Math.round(Number(retryAfter) * SECOND);
    const at = Date.parse(retryAfter);
    if (!Number.isNaN(at)) return Math.max(0, at - now());
  }
  const spent = (name: string): boolean => res.header(name)?.trim() === '0';
  if (spent('x-daily-requests-left')) return 24 * 3600 * SECOND;
  if (spent('x-hourly-requests-left')) return 3600 * SECOND;
  if (spent('x-minute-requests-left')) return 60 * SECOND;
  return SECOND * 2 ** Math.min(attempt, 5);
}

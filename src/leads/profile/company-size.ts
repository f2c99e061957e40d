/** Company sizes as exports write them ("51-200", "1,000", "10001+", "1k-5k", 250). */

/** One number as written: thousands separators (',' or '.' before three digits) and a 'k' suffix. */
export function parseCount(text: string): number | null {
  const m = /^(\d{1,3}(?:[,.]\d{3})+|\d+(?:\.\d+)?)\s*(k|m)?$/i.exec(text.trim());
  if (m === null) return null;
  const digits = /[,.]\d{3}(?:[,.]|$)/.test(m[1]!) ? m[1]!.replace(/[,.]/g, '') : m[1]!;
  const n = Number(digits) * (m[2] === undefined ? 1 : m[2].toLowerCase() === 'k' ? 1_000 : 1_000_000);
  return Number.isFinite(n) ? Math.round(n) : null;
}

/**
 * The one number a company size stands for: a band's middle ("51-200" is 126: the company is as
 * likely near either end, and the middle lies in every range that holds most of the band, so
 * "1,000-4,999" is not in "200-1000 employees" and "11-50" is in "fewer than 50"), an open band's
 * lower end ("10001+" is 10001), a count itself ("1,000"); else null.
 */
export function companySizeOf(value: string | number | null | undefined): number | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? Math.floor(value) : null;
  const m = /(\d[\d,.]*\s*[km]?)(?:\s*(?:-|–|to)\s*(\d[\d,.]*\s*[km]?))?/i.exec(value);
  if (m === null) return null;
  const low = parseCount(m[1]!);
  const high = m[2] === undefined ? null : parseCount(m[2]);
  if (low === null) return null;
  return high === null || high < low ? low : Math.round((low + high) / 2);
}

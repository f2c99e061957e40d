/** Company sizes as exports write them ("51-200", "1,000", "10001+", "1k-5k", 250). */

/** One number as written: thousands separators (',' or '.' before three digits) and a 'k' suffix. */
export function parseCount(text: string): number | null {
  const m = /^(\d{1,3}(?:[,.]\d{3})+|\d+(?:\.\d+)?)\s*(k|m)?$/i.exec(text.trim());
  if (m === null) return null;
  const digits = /[,.]\d{3}(?:[,.]|$)/.test(m[1]!) ? m[1]!.replace(/[,.]/g, '') : m[1]!;
  const n = Number(digits) * (m[2] === undefined ? 1 : m[2].toLowerCase() === 'k' ? 1_000 : 1_000_000);
  return Number.isFinite(n) ? Math.round(n) : null;
}

/** A company size's lower end: "51-200" is 51, "10001+" is 10001, "1,000" is 1000; else null. */
export function companySizeLowerEnd(value: string | number | null | undefined): number | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? Math.floor(value) : null;
  const m = /(\d[\d,.]*\s*[km]?)/i.exec(value);
  return m === null ? null : parseCount(m[1]!);
}

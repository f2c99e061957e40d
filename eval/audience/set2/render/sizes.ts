/**
 * Company sizes: the truth is a number of employees; exports write bands ("51-200",
 * "1,001-5,000", "10001+", "201-500 employees", "1k-5k", ZoomInfo's "250 - 499") or a number
 * ("5000", "1,200").
 *
 * A band hides the number, so to keep every label recoverable from what the export says: the
 * number is drawn from strictly inside a LinkedIn band (never its edge: a "11-50" company has 12 to
 * 49 employees), and a band is written only when every size range a phrase may ask (SIZE_RANGES_ASKED)
 * is answered the same for all numbers strictly inside it. ZoomInfo's "100 - 249" straddles 200, so
 * a company written that way would be ambiguous for "startups": such a band is never used.
 */
import type { Rng } from '../random';
import { SIZE_RANGES_ASKED, type SizeRange } from '../truth';
import { pickRendering, type Part } from './reserve';

export const SIZE_FORMATS = ['band', 'k_band', 'other_band', 'exact', 'blank'] as const;
export type SizeFormat = (typeof SIZE_FORMATS)[number];

interface Band {
  readonly lo: number;
  /** Open bands ("10,001+") have no upper edge. */
  readonly hi: number | null;
}

/** LinkedIn's bands: the truth's number is drawn from one of them, with these weights. */
const LINKEDIN: readonly (Band & { readonly weight: number })[] = [
  { lo: 1, hi: 10, weight: 6 },
  { lo: 11, hi: 50, weight: 16 },
  { lo: 51, hi: 200, weight: 22 },
  { lo: 201, hi: 500, weight: 16 },
  { lo: 501, hi: 1000, weight: 12 },
  { lo: 1001, hi: 5000, weight: 15 },
  { lo: 5001, hi: 10000, weight: 6 },
  { lo: 10001, hi: null, weight: 7 },
];

const ZOOMINFO: readonly Band[] = [
  { lo: 1, hi: 9 },
  { lo: 10, hi: 19 },
  { lo: 20, hi: 49 },
  { lo: 50, hi: 99 },
  { lo: 100, hi: 249 },
  { lo: 250, hi: 499 },
  { lo: 500, hi: 999 },
  { lo: 1000, hi: 4999 },
  { lo: 5000, hi: 9999 },
  { lo: 10000, hi: null },
];

/** Whether a range answers the same for every number strictly inside the band. */
function constantInside(r: SizeRange, b: Band): boolean {
  const a = b.lo + 1;
  const z = b.hi === null ? Infinity : b.hi - 1;
  const minCuts = r.min !== undefined && a < r.min && r.min <= z;
  const maxCuts = r.max !== undefined && a <= r.max && r.max < z;
  return !minCuts && !maxCuts;
}

const decides = (b: Band): boolean => SIZE_RANGES_ASKED.every((r) => constantInside(r, b));
const strictlyInside = (n: number, b: Band): boolean => n > b.lo && (b.hi === null || n < b.hi);

/** Round numbers exports write exactly ("5000", "200"); they sit on the edges of the asked ranges. */
const EDGES = [10, 50, 200, 500, 1000, 5000, 10000];

/** A number of employees for a new company: inside a LinkedIn band, now and then a round edge. */
export function drawEmployees(rng: Rng): number {
  if (rng.chance(0.06)) return rng.pick(EDGES);
  const i = Number(rng.weighted(Object.fromEntries(LINKEDIN.map((b, k) => [String(k), b.weight]))));
  const b = LINKEDIN[i]!;
  return rng.int(b.lo + 1, (b.hi ?? 60000) - 1);
}

const withCommas = (n: number): string => n.toLocaleString('en-US');
const k = (n: number): string => (n >= 1000 && n % 1000 === 0 ? `${n / 1000}k` : String(n));

type Writer = (b: Band) => string;

const BAND_STYLES: readonly Writer[] = [
  (b) => (b.hi === null ? `${withCommas(b.lo)}+` : `${withCommas(b.lo)}-${withCommas(b.hi)}`),
  (b) => (b.hi === null ? `${b.lo}+` : `${b.lo}-${b.hi}`),
  (b) => (b.hi === null ? `${withCommas(b.lo)}+ employees` : `${withCommas(b.lo)}-${withCommas(b.hi)} employees`),
  (b) => (b.hi === null ? `${withCommas(b.lo)}+` : `${withCommas(b.lo)} - ${withCommas(b.hi)}`),
  (b) => (b.hi === null ? `${withCommas(b.lo - 1)}+` : `${b.lo} to ${b.hi}`),
];
const K_STYLES: readonly Writer[] = [
  (b) => (b.hi === null ? `${k(b.lo - 1)}+` : `${k(b.lo === 1001 || b.lo === 5001 ? b.lo - 1 : b.lo)}-${k(b.hi)}`),
  (b) => (b.hi === null ? `${k(b.lo - 1).toUpperCase()}+` : `${k(b.lo === 1001 || b.lo === 5001 ? b.lo - 1 : b.lo).toUpperCase()}-${k(b.hi).toUpperCase()}`),
];
const EXACT_STYLES: readonly ((n: number) => string)[] = [(n) => String(n), (n) => withCommas(n), (n) => `${n} employees`];

export interface RenderedSize {
  readonly text: string;
  readonly format: SizeFormat;
  readonly reserved: boolean;
}

export function renderSize(rng: Rng, part: Part, employees: number): RenderedSize {
  const linkedin = LINKEDIN.find((b) => inBand(employees, b))!;
  const zoom = ZOOMINFO.find((b) => inBand(employees, b));
  const options: Partial<Record<SizeFormat, number>> = { exact: 25 };
  if (strictlyInside(employees, linkedin) && decides(linkedin)) {
    options.band = 45;
    if (linkedin.lo >= 501) options.k_band = 12;
  }
  if (zoom !== undefined && strictlyInside(employees, zoom) && decides(zoom)) options.other_band = 15;
  const format = rng.weighted(options);
  const styled = (table: string, writers: readonly Writer[], b: Band): RenderedSize => {
    const w = pickRendering(rng, table, writers, part);
    return { text: w.value(b), format, reserved: w.reserved };
  };
  switch (format) {
    case 'band':
      return styled('size-band', BAND_STYLES, linkedin);
    case 'k_band':
      return styled('size-k', K_STYLES, linkedin);
    case 'other_band':
      return styled('size-zoominfo', BAND_STYLES.slice(2, 4), zoom!);
    default: {
      const w = pickRendering(rng, 'size-exact', EXACT_STYLES, part);
      return { text: w.value(employees), format: 'exact', reserved: w.reserved };
    }
  }
}

function inBand(n: number, b: Band): boolean {
  return n >= b.lo && (b.hi === null || n <= b.hi);
}

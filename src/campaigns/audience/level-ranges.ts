/**
 * Level ranges as audiences write them: "VP-level and above", "director+", "managers and above",
 * "at least director level", "above manager", "up to director", "manager to director level". The
 * parser takes them out of the text before it scans it (like company sizes) and leaves a token in
 * their place (`levelrange<n>`), which it reads as a level item naming those levels, so a range
 * joins the functions next to it like any level word ("engineering, VP-level and above").
 */
import { SENIORITIES, type Seniority } from '../../leads/profile/types';

/** Words naming one level in a range expression, to the level. */
const LEVEL_WORDS: ReadonlyArray<readonly [string, Seniority]> = [
  ['c[- ]?(?:level|suite)', 'c_level'],
  ['cxo', 'c_level'],
  ['chief', 'c_level'],
  ['executive', 'vp'],
  ['exec', 'vp'],
  ['vice[- ]president', 'vp'],
  ['[se]?vp', 'vp'],
  ['head', 'head'],
  ['director', 'director'],
  ['dir', 'director'],
  ['manager', 'manager'],
  ['mgr', 'manager'],
  ['senior', 'senior'],
  ['junior', 'entry'],
  ['entry', 'entry'],
];

const LEVEL = String.raw`(${LEVEL_WORDS.map(([w]) => w).join('|')})(?:s)?(?:[- ]level)?(?:s)?`;
const B = String.raw`\b`;

function levelOf(word: string): Seniority | null {
  const w = word.toLowerCase();
  for (const [pattern, level] of LEVEL_WORDS) if (new RegExp(`^${pattern}$`, 'i').test(w)) return level;
  return null;
}

const index = (s: Seniority): number => SENIORITIES.indexOf(s);
/** Levels from `lo` (lowest) to `hi` (highest), both included, in SENIORITIES order. */
const between = (lo: number, hi: number): Seniority[] => SENIORITIES.filter((_, i) => i >= hi && i <= lo);

const PATTERNS: ReadonlyArray<{ readonly re: RegExp; readonly levels: (a: Seniority, b?: Seniority) => Seniority[] }> = [
  // "manager to director level", "director-VP", "from manager to VP": a range between two levels.
  {
    re: new RegExp(String.raw`${B}(?:from\s+)?${LEVEL}\s*(?:to|through|-|–)\s*${LEVEL}${B}`, 'gi'),
    levels: (a, b) => between(Math.max(index(a), index(b!)), Math.min(index(a), index(b!))),
  },
  // "VP-level and above", "directors and up", "director+", "managers or higher".
  {
    re: new RegExp(String.raw`${B}${LEVEL}\s*(?:\+|(?:and|or)\s+(?:above|up|higher|more senior|upwards|over)${B})`, 'gi'),
    levels: (a) => between(index(a), 0),
  },
  // "at least director level", "minimum VP".
  { re: new RegExp(String.raw`${B}(?:at least|minimum|min\.?)\s+${LEVEL}${B}`, 'gi'), levels: (a) => between(index(a), 0) },
  // "above manager", "more senior than director": strictly above.
  { re: new RegExp(String.raw`${B}(?:above|higher than|more senior than|senior to)\s+${LEVEL}${B}`, 'gi'), levels: (a) => between(index(a) - 1, 0) },
  // "managers and below", "director or lower".
  {
    re: new RegExp(String.raw`${B}${LEVEL}\s*(?:and|or)\s+(?:below|under|lower|less senior)${B}`, 'gi'),
    levels: (a) => between(SENIORITIES.length - 1, index(a)),
  },
  // "up to director", "at most manager level".
  { re: new RegExp(String.raw`${B}(?:up to|at most|no higher than|not above|max\.?)\s+${LEVEL}${B}`, 'gi'), levels: (a) => between(SENIORITIES.length - 1, index(a)) },
  // "below VP", "junior to director": strictly below.
  { re: new RegExp(String.raw`${B}(?:below|under|junior to|less senior than)\s+${LEVEL}${B}`, 'gi'), levels: (a) => between(SENIORITIES.length - 1, index(a) + 1) },
];

/**
 * The text with each level range replaced by ` levelrange<n> `, where n indexes the levels pushed
 * onto `ranges`. A range naming no level at all ("above entry" has some; "below entry" none) is
 * left as written.
 */
export function takeLevelRanges(text: string, ranges: Seniority[][]): string {
  let rest = text;
  for (const { re, levels } of PATTERNS) {
    rest = rest.replace(re, (whole: string, a: string, b: unknown) => {
      const x = levelOf(a);
      const y = typeof b === 'string' ? levelOf(b) : null;
      if (x === null || (typeof b === 'string' && y === null)) return whole;
      const named = levels(x, y ?? undefined);
      if (named.length === 0) return whole;
      ranges.push(named);
      return ` levelrange${ranges.length - 1} `;
    });
  }
  return rest;
}

/**
 * Company sizes written as numbers in an audience ("50-200 employees", "5,000+ employees", "fewer
 * than 50 staff", "over 1,000 people"): taken out of the text before it is scanned, each as one
 * employee range; and a range in words for messages.
 */
import { parseCount } from '../../leads/profile/company-size';
import type { CompanySizeRange } from '../../leads/profile/types';

const EMPLOYEES = String.raw`(?:\s*-?\s*(?:employees?|people|staff|persons?|ftes?|headcount|person))`;
const NUM = String.raw`(\d[\d,.]*\s*k?)`;
const SIZE_PATTERNS: readonly { re: RegExp; range: (a: number, b: number) => CompanySizeRange }[] = [
  { re: new RegExp(String.raw`${NUM}\s*(?:-|–|to)\s*${NUM}${EMPLOYEES}?`, 'gi'), range: (a, b) => ({ min: Math.min(a, b), max: Math.max(a, b) }) },
  { re: new RegExp(String.raw`${NUM}\s*\+${EMPLOYEES}?`, 'gi'), range: (a) => ({ min: a }) },
  { re: new RegExp(String.raw`(?:more than|over|above|greater than|>)\s*${NUM}${EMPLOYEES}`, 'gi'), range: (a) => ({ min: a + 1 }) },
  { re: new RegExp(String.raw`(?:at least|minimum|min\.?|>=)\s*${NUM}${EMPLOYEES}`, 'gi'), range: (a) => ({ min: a }) },
  { re: new RegExp(String.raw`(?:fewer than|less than|under|below|<)\s*${NUM}${EMPLOYEES}`, 'gi'), range: (a) => ({ max: Math.max(0, a - 1) }) },
  { re: new RegExp(String.raw`(?:up to|at most|maximum|max\.?|<=)\s*${NUM}${EMPLOYEES}`, 'gi'), range: (a) => ({ max: a }) },
];

/** Takes company-size expressions out of the text (a comma stands in their place). */
export function takeSizes(text: string, sizes: { range: CompanySizeRange; text: string }[]): string {
  let rest = text;
  for (const { re, range } of SIZE_PATTERNS) {
    rest = rest.replace(re, (whole: string, a: string, b: unknown) => {
      const x = parseCount(a);
      // A one-number pattern passes the match offset here, not a second number.
      const y = typeof b === 'string' && /^\d/.test(b) ? parseCount(b) : null;
      // A bare range or number is a size only when it says employees, or is a range ("50-200").
      const saysEmployees = new RegExp(`${EMPLOYEES}$`, 'i').test(whole) || y !== null;
      if (x === null || !saysEmployees) return whole;
      sizes.push({ range: range(x, y ?? x), text: whole.trim() });
      return ' , ';
    });
  }
  return rest;
}

/** A size range in words ("50-200", "1000+", "up to 49"). */
export function sizeText(r: CompanySizeRange): string {
  if (r.min !== undefined && r.max !== undefined) return `${r.min}-${r.max}`;
  if (r.min !== undefined) return `${r.min}+`;
  return `up to ${r.max ?? 0}`;
}

/**
 * Role families: the people part of an audience as functions at levels. Functions and levels that
 * stand together, joined by 'and', 'of' or 'in' ("finance and HR leaders", "heads of sales and
 * marketing", "directors and VPs of engineering", "leaders in finance"), are one family, every
 * function at every level; an exact title ("CTOs") is a family of its own. The parser
 * (parse-text.ts) makes separate function and level filters of families that share their levels,
 * and titles of the others.
 */
import { SENIORITIES, type CompanySizeRange, type Seniority } from '../../leads/profile/types';
import type { AudienceFilters } from './types';

/** Words that join two parts of one role family ('finance and HR leaders', 'heads of sales and marketing'). */
const JOINERS = new Set(['and', 'or', 'of', 'in', 'for']);

export type Kind = 'title' | 'seniority' | 'department' | 'location' | 'industry' | 'size' | 'city';
export type Context = 'who' | 'where' | 'company';

export interface Item {
  readonly kind: Kind;
  readonly text: string;
  readonly context: Context;
  /** Index of its first word in the scanned words, and one past its last. */
  readonly start: number;
  readonly end: number;
  readonly size?: CompanySizeRange;
  /** A level word or range: the levels it names. */
  readonly levels?: readonly Seniority[];
  /** The functions it names (one, or several for a word such as 'tech'). */
  readonly departments?: readonly string[];
  /** A function word that is also an industry's ('finance', 'tech', 'marketing'): after 'in' it may be either. */
  readonly industryToo?: boolean;
  /** A title a role names (VP of Engineering: vp, engineering): it joins role families. */
  readonly role?: { readonly seniority: Seniority; readonly department: string };
}

/**
 * A role family: functions at levels ('finance and HR leaders': finance and people, director and
 * above), or an exact title ('CTOs'). `text` is its words in the text, what a title filter holds.
 */
export interface Family {
  readonly text: string;
  readonly departments: string[];
  readonly levels: Seniority[];
  /** An exact title (a key that names no role): it is a title whatever else the text says. */
  readonly exact: boolean;
}

export const sameLevels = (a: readonly Seniority[], b: readonly Seniority[]): boolean => a.length === b.length && a.every((s) => b.includes(s));

/** Whether only joiners ('and', 'of', 'in') stand between two items, so they belong to one family. */
function joined(words: readonly string[], a: Item, b: Item): boolean {
  for (let k = a.end; k < b.start; k++) if (!JOINERS.has(words[k]!)) return false;
  return true;
}

/**
 * The role families of the people part: runs of functions and levels joined by 'and', 'of', 'in'
 * are one family (every function at every level), and a family of functions only or levels only
 * takes the other side from the family it is joined to ('sales and marketing directors',
 * 'directors and VPs of engineering', 'leaders in finance'). A function after 'in' or 'at' that
 * joins no family stays a filter of its own (`rest`): 'anyone in finance', 'CTOs in finance'.
 */
export function families(items: readonly Item[], words: readonly string[]): { families: Family[]; rest: Item[]; industries: Item[] } {
  type Draft = Family & { readonly start: number; readonly last: Item };
  const out: Draft[] = [];
  const rest: Item[] = [];
  const industries: Item[] = [];
  for (const item of items) {
    const prev = out[out.length - 1];
    if (item.kind === 'title' && item.role === undefined) {
      out.push({ text: item.text, departments: [], levels: [], exact: true, start: item.start, last: item });
      continue;
    }
    const piece =
      item.kind === 'title'
        ? { departments: [item.role!.department], levels: [item.role!.seniority] }
        : item.kind === 'seniority'
          ? { departments: [], levels: [...(item.levels ?? [])] }
          : item.kind === 'department'
            ? { departments: [...item.departments!], levels: [] }
            : null;
    if (piece === null) continue;
    if (item.kind === 'department' && item.context !== 'who') {
      // After 'in' or 'at' a function joins only levels before it ('leaders in finance'); a word that
      // is an industry's too is that industry when people were named before it ('designers in
      // tech', 'CTOs in finance'), else a function of its own ('anyone in finance').
      const levelsBefore = prev !== undefined && !prev.exact && prev.departments.length === 0 && joined(words, prev.last, item);
      if (!levelsBefore) {
        (item.industryToo === true && out.length > 0 ? industries : rest).push(item);
        continue;
      }
    }
    const canJoin = prev !== undefined && !prev.exact && joined(words, prev.last, item);
    const compatible =
      canJoin &&
      (prev.levels.length === 0 ||
        piece.levels.length === 0 ||
        prev.departments.length === 0 ||
        piece.departments.length === 0 ||
        sameLevels(prev.levels, piece.levels) ||
        sameDepartments(prev.departments, piece.departments));
    if (compatible) {
      out[out.length - 1] = {
        text: words.slice(prev.start, item.end).join(' '),
        departments: unique([...prev.departments, ...piece.departments]),
        levels: unique([...prev.levels, ...piece.levels]),
        exact: false,
        start: prev.start,
        last: item,
      };
    } else out.push({ text: item.text, ...piece, exact: false, start: item.start, last: item });
  }
  return { families: out.map(({ start: _s, last: _l, ...f }) => f), rest, industries };
}

const sameDepartments = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((d) => b.includes(d));
export const unique = <T>(xs: readonly T[]): T[] => [...new Set(xs)];

/** Levels as filters: one level, or a range up to the top (`seniorityMin`), or the list. */
export function levelFilters(levels: readonly Seniority[]): Pick<AudienceFilters, 'seniorities' | 'seniorityMin'> {
  if (levels.length === 0) return {};
  const sorted = SENIORITIES.filter((s) => levels.includes(s));
  if (sorted.length === 1) return { seniorities: sorted };
  const lowest = sorted[sorted.length - 1]!;
  const upToTop = SENIORITIES.slice(0, SENIORITIES.indexOf(lowest) + 1);
  return sameLevels(upToTop, sorted) ? { seniorityMin: lowest } : { seniorities: sorted };
}

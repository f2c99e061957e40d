/**
 * A job title read against the title vocabulary: its canonical key when a known spelling names
 * it, else its seniority and department from its words.
 */
import { fold, matchWords } from './normalize';
import type { Seniority } from './types';
import { SENIORITIES } from './types';
import { longestAt, scanPhrases, vocabulary, type TitleEntry, type Vocabulary } from './vocabulary';

export interface TitleReading {
  readonly titleKey: string | null;
  /** The title folded (lower case, accents and punctuation folded). */
  readonly titleNorm: string | null;
  readonly seniority: Seniority | null;
  readonly department: string | null;
}

/** Where a title splits into parts that may each be a title ('CTO, Acme', 'VP Sales | EMEA'). */
const SEPARATORS = /\s*(?:[,/|;:()[\]•·–—]|\s-\s|\sat\s|\s@\s?)\s*/i;
const AND_SPLIT = /\s+(?:and|&)\s+/i;

const RANK: ReadonlyMap<Seniority, number> = new Map(SENIORITIES.map((s, i) => [s, i]));

/** The highest seniority its words name ('Senior Director' is director). */
export function senioritiesIn(words: readonly string[], v: Vocabulary): Seniority | null {
  let best: Seniority | null = null;
  for (const hit of scanPhrases(v.titleSeniorities, words)) {
    if (best === null || RANK.get(hit.value)! < RANK.get(best)!) best = hit.value;
  }
  return best;
}

/** The department its leftmost (longest) department phrase names. */
export function departmentIn(words: readonly string[], v: Vocabulary): string | null {
  for (let i = 0; i < words.length; i++) {
    const hit = longestAt(v.departments, words, i);
    if (hit !== undefined) return hit.value;
  }
  return null;
}

function exact(part: string, v: Vocabulary): TitleEntry | undefined {
  const words = matchWords(fold(part), v.rewrites);
  return words.length === 0 ? undefined : v.titles.map.get(words.join(' '));
}

/** A known spelling of two or more words, or a standalone word, inside the title's words. */
function inside(words: readonly string[], v: Vocabulary): TitleEntry | undefined {
  for (let i = 0; i < words.length; i++) {
    const hit = longestAt(v.titles, words, i);
    if (hit === undefined) continue;
    if (hit.end - hit.start >= 2 || v.standalone.has(words[i]!)) return hit.value;
  }
  return undefined;
}

/** The title's key: the whole title, then each part, then a known spelling inside it. */
function findEntry(title: string, words: readonly string[], v: Vocabulary): TitleEntry | undefined {
  const whole = v.titles.map.get(words.join(' '));
  if (whole !== undefined) return whole;
  const parts = title.split(SEPARATORS).filter((p) => p !== '');
  if (parts.length > 1) {
    for (const p of parts) {
      const e = exact(p, v);
      if (e !== undefined) return e;
    }
  }
  for (const p of parts) {
    const halves = p.split(AND_SPLIT);
    if (halves.length > 1) {
      for (const h of halves) {
        const e = exact(h, v);
        if (e !== undefined) return e;
      }
    }
  }
  return inside(words, v);
}

const NONE: TitleReading = { titleKey: null, titleNorm: null, seniority: null, department: null };

export function readTitle(title: string | null | undefined): TitleReading {
  if (title === null || title === undefined) return NONE;
  const titleNorm = fold(title);
  if (titleNorm === '') return NONE;
  const v = vocabulary();
  const words = matchWords(titleNorm, v.rewrites);
  const entry = findEntry(title, words, v);
  // A key's own seniority and department first; its words fill what the key leaves open
  // ('Senior Account Executive' is an account_executive of seniority senior).
  return {
    titleKey: entry?.key ?? null,
    titleNorm,
    seniority: entry?.seniority ?? senioritiesIn(words, v),
    department: entry?.department ?? departmentIn(words, v),
  };
}

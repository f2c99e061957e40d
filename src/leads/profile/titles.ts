/**
 * A job title read against the title vocabulary (English and the languages of
 * language-vocabularies.ts): the canonical keys its parts name, and its seniority and department.
 *
 * A title is read part by part, because real titles join several things with punctuation:
 * inverted ('Manager, Human Resources'), two roles ('CTO / Co-Founder', 'Co-Founder & Head of
 * Product'), noise ('Head of Sales | Acme GmbH', 'VP Sales - EMEA'). Each part gives a key when a
 * known spelling names it, else a level (the highest its words name: 'Senior Director' is a
 * director) and a department (its leftmost, longest function phrase); compounds are split first
 * ('Vertriebsleiterin' is 'Vertrieb' + 'Leiterin'). The title's seniority is the highest of its
 * parts, its department that of the highest part when it names a function, else the first
 * function another part names ('Manager, Human Resources' is a manager in people; 'Co-Founder &
 * Head of Product' is C-level, in product). Every key any part names is kept, with the keys a
 * combined key counts as, so 'CTO / Co-Founder' is found as a CTO and as a founder.
 */
import { fold, matchWords, singular } from './normalize';
import type { Seniority } from './types';
import { SENIORITIES } from './types';
import { longestAt, scanPhrases, vocabulary, type CompoundParts, type TitleEntry, type Vocabulary } from './vocabulary';

export interface TitleReading {
  /** The key of the part that gave the title its seniority (or the first key), null when none. */
  readonly titleKey: string | null;
  /** Every key the title's parts name, and the keys combined ones count as ('founder_cto': founder, cto). */
  readonly titleKeys: readonly string[];
  /** The title folded (lower case, accents and punctuation folded). */
  readonly titleNorm: string | null;
  readonly seniority: Seniority | null;
  readonly department: string | null;
}

/** Where a title splits into parts that may each be a title ('CTO, Acme', 'VP Sales | EMEA', 'CTO / Co-Founder'). */
const SEPARATORS = /\s*(?:[,/|;:()[\]•·–—+]|\s-\s|\sat\s|\s@\s?)\s*/i;
/** 'and' between two roles ('Founder & CEO'); split there only when both halves are roles. */
const AND_SPLIT = /\s+(?:and|&|und|et|y|e|en|og|och|i|oraz)\s+/i;

const RANK: ReadonlyMap<Seniority, number> = new Map(SENIORITIES.map((s, i) => [s, i]));
const higher = (a: Seniority | null, b: Seniority | null): boolean => b === null || (a !== null && RANK.get(a)! < RANK.get(b)!);

/** The highest seniority its words name ('Senior Director' is director). */
export function senioritiesIn(words: readonly string[], v: Vocabulary): Seniority | null {
  let best: Seniority | null = null;
  for (const hit of scanPhrases(v.titleSeniorities, words)) {
    if (higher(hit.value, best)) best = hit.value;
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

/** Shortest part of a compound: shorter words ('it', 'pr', 'vp') are too easily the end of another word. */
const MIN_PART = 4;

/**
 * A compound title word as its function and its level or job noun ('vertriebsleiter': vertrieb,
 * leiter; 'forsaljningschef': forsaljning, chef; 'softwareentwickler': software, entwickler), or
 * the word itself when it is known or splits into nothing known. The longest head wins
 * ('finanzabteilungsleiter' is finanz + abteilungsleiter).
 */
export function splitCompound(word: string, c: CompoundParts): string[] {
  if (word.length < 2 * MIN_PART || c.known.has(word)) return [word];
  for (let i = MIN_PART; i <= word.length - MIN_PART; i++) {
    const head = word.slice(i);
    if (!c.heads.has(head)) continue;
    const modifier = word.slice(0, i);
    if (c.modifiers.has(modifier)) return [modifier, head];
    if (c.modifiers.has(singular(modifier))) return [singular(modifier), head];
    for (const l of c.linking) {
      const stem = modifier.slice(0, -l.length);
      if (modifier.endsWith(l) && stem.length >= MIN_PART && c.modifiers.has(stem)) return [stem, head];
    }
  }
  return [word];
}

/** The words titles are looked up by: match form (fillers dropped, singular, abbreviations expanded), compounds split. */
export function titleWords(text: string, v: Vocabulary = vocabulary()): string[] {
  const words = matchWords(fold(text), v.rewrites);
  return words.some((w) => w.length >= 2 * MIN_PART && !v.compounds.known.has(w)) ? words.flatMap((w) => splitCompound(w, v.compounds)) : words;
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

/** One part's reading. */
interface PartReading {
  readonly key: TitleEntry | undefined;
  readonly seniority: Seniority | null;
  readonly department: string | null;
}

function readPart(words: readonly string[], v: Vocabulary): PartReading {
  // A part's exact spelling first, else a spelling of two or more words or a standalone one inside it ('Acting CTO').
  const key = (words.length === 0 ? undefined : v.titles.map.get(words.join(' '))) ?? inside(words, v);
  // A key's own seniority and department first; the words fill what it leaves open
  // ('Senior Account Executive' is an account_executive of seniority senior).
  return { key, seniority: key?.seniority ?? senioritiesIn(words, v), department: key?.department ?? departmentIn(words, v) };
}

const isRole = (p: PartReading): boolean => p.key !== undefined || p.seniority !== null;

/** The parts of a title: at separators, and at 'and' when both halves are roles ('Founder & Head of Product'). */
function parts(title: string, v: Vocabulary): PartReading[] {
  const out: PartReading[] = [];
  for (const piece of title.split(SEPARATORS)) {
    const words = titleWords(piece, v);
    if (words.length === 0) continue;
    const halves = piece.split(AND_SPLIT);
    if (halves.length > 1) {
      const read = halves.map((h) => readPart(titleWords(h, v), v));
      if (read.every(isRole)) {
        out.push(...read);
        continue;
      }
    }
    out.push(readPart(words, v));
  }
  return out;
}

/** Every key of the parts, with what combined keys count as. */
function allKeys(read: readonly PartReading[], v: Vocabulary): string[] {
  const keys: string[] = [];
  for (const p of read) {
    if (p.key === undefined) continue;
    keys.push(p.key.key, ...(v.countsAs.get(p.key.key) ?? []));
  }
  return [...new Set(keys)];
}

const NONE: TitleReading = { titleKey: null, titleKeys: [], titleNorm: null, seniority: null, department: null };

/** The department of a title read in parts: the highest part's, unless it names no function or only general management. */
function departmentOf(read: readonly PartReading[], top: PartReading | undefined): string | null {
  if (top?.department !== null && top?.department !== undefined && top.department !== 'executive') return top.department;
  const specific = read.find((p) => p.department !== null && p.department !== 'executive');
  return specific?.department ?? top?.department ?? read.find((p) => p.department !== null)?.department ?? null;
}

export function readTitle(title: string | null | undefined): TitleReading {
  if (title === null || title === undefined) return NONE;
  const titleNorm = fold(title);
  if (titleNorm === '') return NONE;
  const v = vocabulary();
  const words = titleWords(title, v);
  // The whole title's spelling wins ('Co-Founder & CTO' is founder_cto, which counts as both).
  const whole = words.length === 0 ? undefined : v.titles.map.get(words.join(' '));
  const read = whole !== undefined ? [readPart(words, v)] : parts(title, v);
  if (read.length === 0) return { ...NONE, titleNorm };
  let top: PartReading | undefined;
  for (const p of read) if (top === undefined || (p.seniority !== null && higher(p.seniority, top.seniority))) top = p;
  return {
    titleKey: (top?.key ?? read.find((p) => p.key !== undefined)?.key)?.key ?? null,
    titleKeys: allKeys(read, v),
    titleNorm,
    seniority: top?.seniority ?? null,
    department: departmentOf(read, top),
  };
}

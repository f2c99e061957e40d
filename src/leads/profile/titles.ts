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
const SEPARATORS = /\s*(?:[,/|;:()[\]•·–—+]|\s-\s)\s*/i;
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

/** A level that only qualifies a job ('senior', 'entry') among the words, or null. */
function modifierIn(words: readonly string[], v: Vocabulary): Seniority | null {
  const level = senioritiesIn(words, v);
  return level === 'senior' || level === 'entry' ? level : null;
}

/**
 * The department its leftmost (longest) department phrase names; general management only when no
 * other function is named ('Vice-président des ventes', 'Mitglied der Geschäftsleitung Vertrieb'
 * are in sales).
 */
export function departmentIn(words: readonly string[], v: Vocabulary): string | null {
  let general: string | null = null;
  for (let i = 0; i < words.length; ) {
    const hit = longestAt(v.departments, words, i);
    if (hit === undefined) {
      i++;
      continue;
    }
    if (hit.value !== 'executive') return hit.value;
    general ??= hit.value;
    i = hit.end;
  }
  return general;
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

/**
 * Words that make a title another job: a Deputy CEO is not the CEO (nor is a Stellvertretende
 * Geschäftsführerin); a stand-in for a C-level title ranks as a VP. A deputy head is still a head.
 */
const STANDS_IN_FOR = new Set(['deputy', 'stellvertretend', 'stellvertretende', 'stellvertretender', 'stv', 'stellv', 'adjoint', 'adjointe', 'adjunto', 'adjunta', 'vice', 'vize', 'wice', 'vicedirector', 'subdirector', 'subdirectora', 'vicedirettore', 'zastepca']);

interface KeyHit {
  readonly entry: TitleEntry;
  readonly start: number;
  readonly end: number;
}

/**
 * A known spelling inside the title's words: the longest, of two or more words or a standalone
 * one ('Acting CTO'); of equally long ones the last, the head of the title ('Trainee Bookkeeper'
 * is a bookkeeper).
 */
function inside(words: readonly string[], v: Vocabulary): KeyHit | undefined {
  let best: KeyHit | undefined;
  for (let i = 0; i < words.length; i++) {
    const hit = longestAt(v.titles, words, i);
    if (hit === undefined) continue;
    if (hit.end - hit.start < 2 && !v.standalone.has(words[i]!)) continue;
    if (best === undefined || hit.end - hit.start >= best.end - best.start) best = { entry: hit.value, start: hit.start, end: hit.end };
  }
  return best;
}

/** One part's reading. */
interface PartReading {
  readonly key: TitleEntry | undefined;
  readonly seniority: Seniority | null;
  readonly department: string | null;
}

function readPart(words: readonly string[], v: Vocabulary): PartReading {
  // A part's exact spelling first, else a spelling inside it.
  const exact = words.length === 0 ? undefined : v.titles.map.get(words.join(' '));
  const hit: KeyHit | undefined = exact === undefined ? inside(words, v) : { entry: exact, start: 0, end: words.length };
  const standIn = words.some((w) => STANDS_IN_FOR.has(w));
  // The words fill what the key leaves open ('Senior Account Executive' is an account_executive
  // of seniority senior), but a key with no level keeps its own words from making it a manager: a
  // Product Manager is not a manager, nor is a Technical Product Manager.
  const around = hit === undefined ? words : [...words.slice(0, hit.start), ...words.slice(hit.end)];
  let key = hit?.entry;
  let seniority = key?.seniority ?? senioritiesIn(around, v) ?? (hit === undefined ? null : modifierIn(words.slice(hit.start, hit.end), v));
  // A role's key gives way to a longer function its words name ('Leiter IT-Sicherheit' is in
  // security, not IT), a general one to any function ('Partnerin Steuerberatung' is in finance).
  const department =
    key === undefined || key.byRole
      ? (departmentIn(words, v) ?? key?.department ?? null)
      : key.department === 'executive' || key.department === null
        ? (departmentIn(around, v) ?? key.department)
        : key.department;
  if (standIn && seniority === 'c_level') {
    key = undefined;
    seniority = 'vp';
  }
  // A job noun found inside a title that names a management level around it names the function,
  // not the job ('Chef du service comptable' heads accounting; he is no accountant).
  if (key !== undefined && exact === undefined && key.seniority === null && seniority !== null && RANK.get(seniority)! <= RANK.get('manager')!) key = undefined;
  return { key, seniority, department };
}

const isRole = (p: PartReading): boolean => p.key !== undefined || p.seniority !== null;

/** Where a title names the company it is held at ('CTO at Acme', 'Sviluppatore @ Delta'): what follows is no part of the job. */
const AT_COMPANY = /\s(?:at|@)\s|\s@(?=\S)/i;
/** 'Assistant to the CEO': the job is before 'to', whose title it serves. */
const SERVES = /\s+to\s+(?:the\s+)?/i;

/** One piece's reading; a job that serves another ('Personal Assistant to the Managing Director') is the job before 'to'. */
function readPiece(piece: string, v: Vocabulary): PartReading {
  const [job, served] = piece.split(SERVES, 2);
  if (served !== undefined && job !== undefined && job.trim() !== '') {
    const own = readPart(titleWords(job, v), v);
    if (own.key !== undefined || own.seniority !== null) return own.department === null ? { ...own, department: departmentIn(titleWords(served, v), v) } : own;
  }
  return readPart(titleWords(piece, v), v);
}

/** The parts of a title: at separators, and at 'and' when both halves are roles ('Founder & Head of Product'). */
function parts(title: string, v: Vocabulary): PartReading[] {
  const out: PartReading[] = [];
  for (const piece of title.split(SEPARATORS)) {
    const words = titleWords(piece, v);
    if (words.length === 0) continue;
    const halves = piece.split(AND_SPLIT);
    if (halves.length > 1) {
      const read = halves.map((h) => readPiece(h, v));
      if (read.every(isRole)) {
        out.push(...read);
        continue;
      }
    }
    out.push(readPiece(piece, v));
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
  const job = title.split(AT_COMPANY)[0] ?? title;
  const words = titleWords(job, v);
  // The whole title's spelling wins ('Co-Founder & CTO' is founder_cto, which counts as both).
  const whole = words.length === 0 ? undefined : v.titles.map.get(words.join(' '));
  const read = whole !== undefined ? [readPart(words, v)] : parts(job, v);
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

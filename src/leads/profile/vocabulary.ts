/**
 * The vocabularies of vocabulary/*.json as lookup maps, built once on first use. Every key is in
 * the form normalize.ts gives both sides of a lookup (matchForm).
 */
import departmentsData from './vocabulary/departments.json';
import industriesData from './vocabulary/industries.json';
import senioritiesData from './vocabulary/seniorities.json';
import sizesData from './vocabulary/company-sizes.json';
import titlesData from './vocabulary/titles.json';
import { fold, matchForm, matchWords, singular, type Rewrites } from './normalize';
import { SENIORITIES, type CompanySizeRange, type Seniority } from './types';

export interface TitleEntry {
  readonly key: string;
  readonly seniority: Seniority | null;
  readonly department: string | null;
  /** From a template (vp_{d}, head_{d}...): in an audience it also matches by its role. */
  readonly byRole: boolean;
}

/** A phrase dictionary: match-form phrase to value, and its longest phrase in words. */
export interface PhraseMap<T> {
  readonly map: ReadonlyMap<string, T>;
  readonly maxWords: number;
}

export interface Vocabulary {
  readonly rewrites: Rewrites;
  readonly titles: PhraseMap<TitleEntry>;
  /** Single-word spellings that count inside a longer title. */
  readonly standalone: ReadonlySet<string>;
  readonly titleKeys: ReadonlyMap<string, TitleEntry>;
  /** For a key, the combined keys that also count as it (founder: founder_ceo, founder_cto). */
  readonly countedAs: ReadonlyMap<string, readonly string[]>;
  readonly departments: PhraseMap<string>;
  readonly departmentIds: ReadonlySet<string>;
  readonly titleSeniorities: PhraseMap<Seniority>;
  readonly audienceSeniorities: PhraseMap<readonly Seniority[]>;
  readonly providerSeniorities: ReadonlyMap<string, Seniority>;
  readonly industries: PhraseMap<string>;
  readonly industryIds: ReadonlySet<string>;
  readonly companySizes: PhraseMap<CompanySizeRange>;
}

function isSeniority(s: unknown): s is Seniority {
  return typeof s === 'string' && (SENIORITIES as readonly string[]).includes(s);
}

class PhraseMapBuilder<T> {
  readonly map = new Map<string, T>();
  maxWords = 0;
  /** The first value given for a phrase wins: explicit entries are added before generated ones. */
  add(form: string, value: T): void {
    if (form === '' || this.map.has(form)) return;
    this.map.set(form, value);
    this.maxWords = Math.max(this.maxWords, form.split(' ').length);
  }
  build(): PhraseMap<T> {
    return { map: this.map, maxWords: this.maxWords };
  }
}

function buildRewrites(): Rewrites {
  const rewrites = new Map<string, string>();
  for (const [abbr, full] of Object.entries(senioritiesData.abbreviations)) {
    // Values in match form too, without rewriting them again.
    rewrites.set(singular(fold(abbr)), matchWords(fold(full)).join(' '));
  }
  return rewrites;
}

function build(): Vocabulary {
  const rewrites = buildRewrites();
  const form = (s: string): string => matchForm(s, rewrites);

  const titles = new PhraseMapBuilder<TitleEntry>();
  const titleKeys = new Map<string, TitleEntry>();
  const countedAs = new Map<string, string[]>();
  for (const t of titlesData.titles as readonly { key: string; seniority: string | null; department: string | null; spellings: string[]; countsAs?: string[] }[]) {
    for (const k of t.countsAs ?? []) countedAs.set(k, [...(countedAs.get(k) ?? []), t.key]);
    const entry: TitleEntry = {
      key: t.key,
      seniority: isSeniority(t.seniority) ? t.seniority : null,
      department: t.department ?? null,
      byRole: false,
    };
    titleKeys.set(t.key, entry);
    for (const s of t.spellings) titles.add(form(s), entry);
  }
  const departments = new PhraseMapBuilder<string>();
  const departmentIds = new Set<string>();
  for (const d of departmentsData.departments) {
    departmentIds.add(d.id);
    departments.add(form(d.id.replace(/_/g, ' ')), d.id);
    for (const p of [...d.titleNames, ...d.phrases]) departments.add(form(p), d.id);
  }
  for (const tpl of titlesData.templates) {
    const seniority = isSeniority(tpl.seniority) ? tpl.seniority : null;
    for (const d of departmentsData.departments) {
      const key = tpl.key.replace('{d}', d.id);
      const entry: TitleEntry = titleKeys.get(key) ?? { key, seniority, department: d.id, byRole: true };
      titleKeys.set(key, entry);
      for (const name of d.titleNames) for (const s of tpl.spellings) titles.add(form(s.replace('{d}', name)), entry);
    }
  }
  const standalone = new Set(titlesData.standaloneWords.words.map(form));

  const titleSeniorities = new PhraseMapBuilder<Seniority>();
  for (const [level, words] of Object.entries(senioritiesData.title)) {
    if (isSeniority(level)) for (const w of words) titleSeniorities.add(form(w), level);
  }
  const audienceSeniorities = new PhraseMapBuilder<readonly Seniority[]>();
  for (const [word, levels] of Object.entries(senioritiesData.audience)) {
    audienceSeniorities.add(form(word), levels.filter(isSeniority));
  }
  const providerSeniorities = new Map<string, Seniority>();
  for (const [value, level] of Object.entries(senioritiesData.providerValues)) {
    if (isSeniority(level)) providerSeniorities.set(fold(value), level);
  }

  const industries = new PhraseMapBuilder<string>();
  const industryIds = new Set<string>();
  for (const i of industriesData.industries) {
    industryIds.add(i.id);
    // Ids first: an id is never taken by another industry's synonym.
    industries.add(matchForm(i.id.replace(/_/g, ' ')), i.id);
  }
  for (const i of industriesData.industries) {
    industries.add(matchForm(i.name), i.id);
    for (const s of i.synonyms) industries.add(matchForm(s), i.id);
  }

  const companySizes = new PhraseMapBuilder<CompanySizeRange>();
  for (const [phrase, range] of Object.entries(sizesData.sizes)) {
    if (phrase !== '$comment' && typeof range === 'object') companySizes.add(matchForm(phrase), range);
  }

  return {
    rewrites,
    titles: titles.build(),
    standalone,
    titleKeys,
    countedAs,
    departments: departments.build(),
    departmentIds,
    titleSeniorities: titleSeniorities.build(),
    audienceSeniorities: audienceSeniorities.build(),
    providerSeniorities,
    industries: industries.build(),
    industryIds,
    companySizes: companySizes.build(),
  };
}

let built: Vocabulary | undefined;

/** The vocabularies, built on the first call (a few milliseconds) and kept. */
export function vocabulary(): Vocabulary {
  built ??= build();
  return built;
}

/** A match found by scanning words: the value and the words it spans. */
export interface PhraseHit<T> {
  readonly value: T;
  readonly start: number;
  readonly end: number;
}

/** The longest phrase of `dict` that starts at word `start`, if any. */
export function longestAt<T>(dict: PhraseMap<T>, words: readonly string[], start: number): PhraseHit<T> | undefined {
  const max = Math.min(dict.maxWords, words.length - start);
  for (let n = max; n >= 1; n--) {
    const value = dict.map.get(n === 1 ? words[start]! : words.slice(start, start + n).join(' '));
    if (value !== undefined) return { value, start, end: start + n };
  }
  return undefined;
}

/** Every non-overlapping phrase of `dict` in `words`, leftmost and longest first. */
export function scanPhrases<T>(dict: PhraseMap<T>, words: readonly string[]): PhraseHit<T>[] {
  const hits: PhraseHit<T>[] = [];
  for (let i = 0; i < words.length; ) {
    const hit = longestAt(dict, words, i);
    if (hit === undefined) i++;
    else {
      hits.push(hit);
      i = hit.end;
    }
  }
  return hits;
}

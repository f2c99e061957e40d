/**
 * The vocabularies of vocabulary/*.json as lookup maps, built once on first use. Every key is in
 * the form normalize.ts gives both sides of a lookup (matchForm).
 */
import departmentsData from './vocabulary/departments.json';
import industriesData from './vocabulary/industries.json';
import senioritiesData from './vocabulary/seniorities.json';
import sizesData from './vocabulary/company-sizes.json';
import titlesData from './vocabulary/titles.json';
import { LANGUAGE_VOCABULARIES } from './language-vocabularies';
import { fold, matchForm, matchWords, singular, type Rewrites } from './normalize';
import { SENIORITIES, type CompanySizeRange, type Seniority } from './types';

export interface TitleEntry {
  readonly key: string;
  readonly seniority: Seniority | null;
  readonly department: string | null;
  /**
   * In an audience it also matches by its role (seniority and department): a template key
   * (vp_{d}, head_{d}...) and an explicit key of a manager-to-VP level in one function
   * (hr_manager, it_manager), so 'HR managers' finds 'Manager, Human Resources'. C-level keys,
   * and keys of no level, match exactly: 'CEOs' are not every founder or chairman.
   */
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
  /** For a combined key, the keys it counts as (founder_cto: founder, cto). */
  readonly countsAs: ReadonlyMap<string, readonly string[]>;
  readonly departments: PhraseMap<string>;
  /**
   * The English function words alone, what an audience (written in English) is read with: another
   * language's word that is English too must not make 'personal finance' a function ('Personal').
   */
  readonly audienceDepartments: PhraseMap<string>;
  /** Words that name several functions in an audience ('tech': engineering, it, security, data). */
  readonly departmentGroups: PhraseMap<readonly string[]>;
  readonly departmentIds: ReadonlySet<string>;
  readonly titleSeniorities: PhraseMap<Seniority>;
  readonly audienceSeniorities: PhraseMap<readonly Seniority[]>;
  readonly providerSeniorities: ReadonlyMap<string, Seniority>;
  readonly industries: PhraseMap<string>;
  readonly industryIds: ReadonlySet<string>;
  /** For each industry, itself and every industry it covers, transitively ('retail': retail, grocery, ecommerce, online_retail, ...). */
  readonly industryMembers: ReadonlyMap<string, readonly string[]>;
  readonly companySizes: PhraseMap<CompanySizeRange>;
  /** Compound words ('Vertriebsleiter'): the parts a compound may end on and start with, and the joining letters. */
  readonly compounds: CompoundParts;
}

/** What a compound title word may be made of (see splitCompound). */
export interface CompoundParts {
  /** Single words that may end a compound: levels and job nouns ('leiter', 'chef', 'manager', 'entwickler'). */
  readonly heads: ReadonlySet<string>;
  /** Single words that may start one: functions ('vertrieb', 'ekonomi', 'finanz', 'sales'). */
  readonly modifiers: ReadonlySet<string>;
  /** Letters that may join the two ('s' of 'Vertriebsleiter'), longest first. */
  readonly linking: readonly string[];
  /** Every single word any title phrase has: such a word is never split. */
  readonly known: ReadonlySet<string>;
}

/** Levels at which a title is a role in a function (see TitleEntry.byRole). */
const ROLE_LEVELS: ReadonlySet<Seniority> = new Set(['vp', 'head', 'director', 'manager']);

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
  // Other languages' fillers are dropped like 'of' and 'the' (a rewrite to nothing); a word that
  // is an abbreviation keeps its expansion.
  for (const lang of LANGUAGE_VOCABULARIES) {
    for (const f of lang.fillers) {
      for (const w of fold(f).split(' ')) if (w !== '' && !rewrites.has(singular(w))) rewrites.set(singular(w), '');
    }
  }
  return rewrites;
}

function check(known: boolean, what: string, lang: string): void {
  if (!known) throw new Error(`vocabulary/languages/${lang}.json names an unknown ${what}`);
}

function build(): Vocabulary {
  const rewrites = buildRewrites();
  const form = (s: string): string => matchForm(s, rewrites);

  const titles = new PhraseMapBuilder<TitleEntry>();
  const titleKeys = new Map<string, TitleEntry>();
  const countedAs = new Map<string, string[]>();
  const countsAs = new Map<string, readonly string[]>();
  for (const t of titlesData.titles as readonly { key: string; seniority: string | null; department: string | null; spellings: string[]; countsAs?: string[] }[]) {
    for (const k of t.countsAs ?? []) countedAs.set(k, [...(countedAs.get(k) ?? []), t.key]);
    if (t.countsAs !== undefined) countsAs.set(t.key, t.countsAs);
    const seniority = isSeniority(t.seniority) ? t.seniority : null;
    const department = t.department ?? null;
    const entry: TitleEntry = { key: t.key, seniority, department, byRole: seniority !== null && ROLE_LEVELS.has(seniority) && department !== null && department !== 'executive' };
    titleKeys.set(t.key, entry);
    for (const s of t.spellings) titles.add(form(s), entry);
  }
  const departments = new PhraseMapBuilder<string>();
  const departmentIds = new Set<string>();
  const industryIdSet = new Set(industriesData.industries.map((i) => i.id));
  for (const d of departmentsData.departments) {
    departmentIds.add(d.id);
    // An id that is also an industry's ('healthcare', 'education') is that industry's word in an
    // audience ('C-suite in healthcare'); the department keeps its own words ('clinical', 'teaching').
    if (!industryIdSet.has(d.id)) departments.add(form(d.id.replace(/_/g, ' ')), d.id);
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
  const departmentGroups = new PhraseMapBuilder<readonly string[]>();
  for (const [word, ids] of Object.entries(departmentsData.audienceGroups)) {
    if (word === '$comment' || !Array.isArray(ids)) continue;
    for (const id of ids) if (!departmentIds.has(id)) throw new Error(`departments.json: audience group ${JSON.stringify(word)} names an unknown department ${JSON.stringify(id)}`);
    departmentGroups.add(form(word), ids);
  }

  const audienceDepartments = new PhraseMapBuilder<string>();
  for (const [k, id] of departments.map) audienceDepartments.add(k, id);

  // The other languages come after English, so an English reading of a shared spelling wins.
  for (const lang of LANGUAGE_VOCABULARIES) {
    for (const [key, spellings] of Object.entries(lang.titles)) {
      const entry = titleKeys.get(key);
      check(entry !== undefined, `title key ${JSON.stringify(key)}`, lang.language);
      for (const s of spellings) {
        const f = form(s);
        titles.add(f, entry!);
        // A one-word title of another language names its title inside a longer one ('Starszy Programista').
        if (!f.includes(' ')) standalone.add(f);
      }
    }
    for (const [id, words] of Object.entries(lang.departments)) {
      check(departmentIds.has(id), `department ${JSON.stringify(id)}`, lang.language);
      for (const w of words) departments.add(form(w), id);
    }
  }

  const titleSeniorities = new PhraseMapBuilder<Seniority>();
  for (const [level, words] of Object.entries(senioritiesData.title)) {
    if (isSeniority(level)) for (const w of words) titleSeniorities.add(form(w), level);
  }
  for (const lang of LANGUAGE_VOCABULARIES) {
    for (const [level, words] of Object.entries(lang.levels)) {
      check(isSeniority(level), `level ${JSON.stringify(level)}`, lang.language);
      for (const w of words ?? []) titleSeniorities.add(form(w), level as Seniority);
    }
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

  const industryMembers = coveredIndustries(industriesData.industries as readonly { id: string; covers?: readonly string[] }[]);

  const companySizes = new PhraseMapBuilder<CompanySizeRange>();
  for (const [phrase, range] of Object.entries(sizesData.sizes)) {
    if (phrase !== '$comment' && typeof range === 'object') companySizes.add(matchForm(phrase), range);
  }

  return {
    rewrites,
    compounds: compoundParts(titles.map, departments.map, titleSeniorities.map),
    titles: titles.build(),
    standalone,
    titleKeys,
    countedAs,
    countsAs,
    departments: departments.build(),
    departmentGroups: departmentGroups.build(),
    audienceDepartments: audienceDepartments.build(),
    departmentIds,
    titleSeniorities: titleSeniorities.build(),
    audienceSeniorities: audienceSeniorities.build(),
    providerSeniorities,
    industries: industries.build(),
    industryIds,
    industryMembers,
    companySizes: companySizes.build(),
  };
}

/** Each industry with what it covers, transitively; an unknown id in `covers` is a data error. */
function coveredIndustries(rows: readonly { id: string; covers?: readonly string[] }[]): Map<string, readonly string[]> {
  const direct = new Map(rows.map((r) => [r.id, r.covers ?? []] as const));
  const out = new Map<string, readonly string[]>();
  for (const r of rows) {
    const seen = new Set<string>([r.id]);
    const queue = [...(direct.get(r.id) ?? [])];
    while (queue.length > 0) {
      const id = queue.shift()!;
      if (!direct.has(id)) throw new Error(`industries.json: ${r.id} covers an unknown industry ${JSON.stringify(id)}`);
      if (seen.has(id)) continue;
      seen.add(id);
      queue.push(...direct.get(id)!);
    }
    out.set(r.id, [...seen]);
  }
  return out;
}

/**
 * The parts of compounds: heads are one-word levels and one-word titles or job nouns that carry a
 * department; modifiers one-word department words (4 letters or more, so that no short word such
 * as 'it' or 'pr' starts a split); known, every one-word phrase.
 */
function compoundParts(titleMap: ReadonlyMap<string, TitleEntry>, departmentMap: ReadonlyMap<string, string>, levelMap: ReadonlyMap<string, Seniority>): CompoundParts {
  const oneWord = (k: string): boolean => !k.includes(' ');
  const heads = new Set<string>([...levelMap.keys()].filter(oneWord));
  for (const [k, e] of titleMap) if (oneWord(k) && e.department !== null) heads.add(k);
  for (const k of departmentMap.keys()) if (oneWord(k)) heads.add(k);
  const modifiers = new Set([...departmentMap.keys()].filter((k) => oneWord(k) && k.length >= 4));
  const linking = [...new Set(LANGUAGE_VOCABULARIES.flatMap((l) => l.compounds?.linking ?? []).map((x) => fold(x)))].filter((x) => x !== '').sort((a, b) => b.length - a.length);
  const known = new Set([...titleMap.keys(), ...departmentMap.keys(), ...levelMap.keys()].filter(oneWord));
  return { heads, modifiers, linking, known };
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

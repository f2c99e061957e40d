/**
 * The built-in audience parser: an English audience phrase ("CTOs and VPs of Engineering at
 * fintech companies in Germany, not agencies"; "finance leaders at Munich e-commerce startups") to
 * filters, with no model and no key.
 *
 * How it reads: company sizes ("50-200 employees", "over 1,000 staff") and level ranges
 * ("VP-level and above", "director+") are taken out first; the text is cut at the first exclusion
 * word (not, except, excluding, no, other than...) into what to include and what to leave out;
 * each part is scanned word by word for the longest phrase any vocabulary knows (titles, levels,
 * functions, countries and regions, states and provinces, industries, size words, cities). The
 * preposition before a phrase says what it most likely is: after 'in' a place or a function,
 * after 'at'/'of'/'for' a kind of company. A city is read anywhere ("Munich startups") when it is a
 * big one and not an everyday word. Stop words are dropped; any other word is kept as a keyword
 * and listed in `unrecognised`, so it narrows, never widens.
 *
 * Who the audience names is read as role families: functions and levels that stand together
 * ("finance and HR leaders", "heads of sales and marketing", "directors and VPs of engineering")
 * are one family, every function at every level. When all families have the same levels and no
 * exact title is named, they become separate filters, `departments` and a level range
 * (`seniorityMin`, or `seniorities` for single levels); otherwise each family is one title, as
 * written, which the resolver reads the same way.
 *
 * It never widens to everyone: a phrase with nothing but stop words, or a text longer than
 * MAX_AUDIENCE_TEXT_LENGTH, gives filters with no positive member (at most its exclusions), which
 * resolveAudience turns into criteria that match nobody; the reason is in `unrecognised`. The
 * scan is linear in the text and bounded by that length.
 */
import { findCity } from '../../leads/profile/cities';
import { countryByCode, countryByName, locationMaxWords, regionOf } from '../../leads/profile/countries';
import { industryId, industryIdExact, industryMembers } from '../../leads/profile/industries';
import { fold, isPluralList, matchWords, singular } from '../../leads/profile/normalize';
import { subdivisionByCode, subdivisionByName, subdivisionMaxWords } from '../../leads/profile/subdivisions';
import type { CompanySizeRange, Seniority } from '../../leads/profile/types';
import { vocabulary } from '../../leads/profile/vocabulary';
import { isEverydayWordCity } from './city-words';
import { takeLevelRanges } from './level-ranges';
import { families, levelFilters, sameLevels, unique, type Context, type Item, type Kind } from './role-families';
import { sizeText, takeSizes } from './size-phrases';
import type { AudienceFilters } from './types';

/** Longest audience text accepted; the API answers 400 beyond it, the parser names nobody. */
export const MAX_AUDIENCE_TEXT_LENGTH = 2000;

/** Which filter a phrase of the text became, for the explanation of a lead (explain.ts). */
export type ReadingMember = 'titles' | 'seniority' | 'departments' | 'locations' | 'industries' | 'companySizes' | 'keywords' | 'exclude';

/** One phrase of the text and the filter values it became. */
export interface AudienceReading {
  /** The words of the text, folded ('finance leaders', 'munich'). */
  readonly text: string;
  readonly member: ReadingMember;
  readonly values: readonly string[];
}

export interface ParsedAudience {
  readonly filters: AudienceFilters;
  /** Words no vocabulary knows, kept as keywords (or, in an exclusion, as excluded companies). */
  readonly unrecognised: string[];
  /** What each phrase became. */
  readonly readings: readonly AudienceReading[];
}

/** Names nobody: resolveAudience matches nobody with filters that constrain nothing. */
const NOBODY: AudienceFilters = {};

const STOP = new Set(
  ('a an the and or of in at for with from to who that which are is be their them they those these this any all anyone everyone someone anybody everybody ' +
    'people person persons folks folk individuals professionals contacts contact prospects prospect leads decision roles role positions position titles ' +
    'work working works employed based located headquartered hq operating active like such as e g eg etc only please target targeting reach find me ' +
    'company companies firm firms business businesses organization organizations organisation organisations org orgs sector sectors industry industries ' +
    'space vertical verticals market markets player players brand brands vendor vendors provider providers team teams level levels size sized ' +
    'employee employees staff headcount fte on by within across into over than more less other also either both per via i we our my some ' +
    'group groups institution institutions chain chains operator operators maker makers producer producers')
    .split(' '),
);
/** Connectors a phrase never starts or ends on ('of engineering', 'sales in'). */
const EDGE = new Set(['a', 'an', 'the', 'and', 'or', 'of', 'in', 'at', 'for', 'with', 'from', 'to', 'who', 'that', 'by', 'on']);
/** A connector, or a word of another language that carries nothing in a title ('des', 'für'): no phrase starts or ends on one. */
function isEdge(word: string): boolean {
  return EDGE.has(word) || vocabulary().rewrites.get(singular(word)) === '';
}
/** Words after which a phrase is most likely a location. */
const WHERE = new Set(['in', 'within', 'across', 'based', 'located', 'throughout', 'around', 'near', 'headquartered', 'hq']);
/** Place words that may follow the place they belong to ('Munich-based', 'Berlin headquartered'). */
const POSTFIX_WHERE = new Set(['based', 'located', 'headquartered', 'hq']);
/** Words after which a phrase is most likely a kind of company (or a company's name); 'from' too, a place being as easily read there. */
const COMPANY = new Set(['at', 'of', 'for', 'with', 'by', 'from']);
/** Nouns after which the phrase before them is a kind of company ('finance companies'). */
const COMPANY_NOUNS = new Set(['company', 'companie', 'firm', 'business', 'organization', 'organisation', 'org', 'sector', 'industry', 'industrie', 'space', 'vertical', 'brand', 'vendor', 'provider', 'player', 'startup', 'start', 'agency', 'agencie', 'shop', 'store', 'group', 'institution', 'chain', 'operator', 'house', 'enterprise', 'maker', 'producer']);

/** A city read outside a place context must be at least this big: small towns share names with words and surnames. */
const CITY_ANYWHERE_POPULATION = 100_000;

const EXCLUSION = /(?:^|[,;(]\s*|\s)(?:but not|except for|except|excluding|exclude|not including|other than|apart from|and not|and no|minus)\s|(?:^|[,;(])\s*(?:not|no|without)\s/i;

interface Candidate {
  readonly kind: Kind;
  readonly n: number;
  readonly size?: CompanySizeRange;
  /** A location read from a two- or three-letter code ('IT', 'HR' are functions first). */
  readonly fromCode?: boolean;
}

/** What the words from `i` (n of them) can be, longest first. */
function candidatesAt(words: readonly string[], i: number, upper: ReadonlySet<string>, context: Context): Candidate[] {
  const v = vocabulary();
  const out: Candidate[] = [];
  const max = Math.min(words.length - i, Math.max(v.titles.maxWords, v.departments.maxWords, v.industries.maxWords, locationMaxWords(), subdivisionMaxWords(), 4) + 2);
  for (let n = max; n >= 1; n--) {
    const span = words.slice(i, i + n);
    if (n > 1 && (isEdge(span[0]!) || isEdge(span[n - 1]!))) continue;
    const text = span.join(' ');
    const tForm = matchWords(text, v.rewrites).join(' ');
    const plain = matchWords(text).join(' ');
    if (v.titles.map.has(tForm) && (n > 1 || v.standalone.has(tForm) || v.titles.map.get(tForm)!.seniority !== null) && !isPluralList(span)) out.push({ kind: 'title', n });
    if (v.audienceSeniorities.map.has(tForm) || v.titleSeniorities.map.has(tForm) || /^levelrange\d+$/.test(text)) out.push({ kind: 'seniority', n });
    if (v.audienceDepartments.map.has(tForm) || v.departmentGroups.map.has(tForm)) out.push({ kind: 'department', n });
    if (regionOf(text) !== null || countryByName(text) !== null || subdivisionByName(text) !== null) out.push({ kind: 'location', n });
    else if (n === 1 && (upper.has(text) || context === 'where') && text.length <= 3 && !STOP.has(text) && (countryByCode(text) !== null || subdivisionByCode(text) !== null)) {
      out.push({ kind: 'location', n, fromCode: true });
    }
    if (v.industries.map.has(plain)) out.push({ kind: 'industry', n });
    const size = v.companySizes.map.get(plain);
    if (size !== undefined) out.push({ kind: 'size', n, size });
    if (out.length > 0) return out;
  }
  return out;
}

const PRIORITY: Readonly<Record<Context, readonly Kind[]>> = {
  who: ['title', 'seniority', 'department', 'location', 'industry', 'size'],
  where: ['location', 'department', 'industry', 'title', 'seniority', 'size'],
  company: ['industry', 'size', 'location', 'title', 'department', 'seniority'],
};

/** The candidate to take: by the context's priority, but a function before a country code ('leaders in IT' is not Italy). */
function choose(cands: readonly Candidate[], order: readonly Kind[]): Candidate {
  const ranked = [...cands].sort((a, b) => order.indexOf(a.kind) - order.indexOf(b.kind));
  const first = ranked[0]!;
  if (first.kind === 'location' && first.fromCode === true) return ranked.find((c) => c.kind === 'department') ?? first;
  return first;
}

interface Scan {
  readonly items: Item[];
  /** Runs of unknown words, with the context they stood in. */
  readonly unknown: { text: string; context: Context }[];
  /** The scanned words (items index into them). */
  readonly words: readonly string[];
}

/**
 * How many words from `i` name a known city (up to three), or 0. Outside a place context only a
 * big city that is not an everyday word counts ('Munich startups', but not 'Mobile developers').
 */
function cityAt(words: readonly string[], i: number, context: Context): number {
  for (let n = Math.min(3, words.length - i); n >= 1; n--) {
    const span = words.slice(i, i + n);
    if (span.some((w) => STOP.has(w))) continue;
    const name = span.join(' ');
    const city = findCity(name);
    if (city === null) continue;
    if (context === 'where' || (city.population >= CITY_ANYWHERE_POPULATION && !isEverydayWordCity(name))) return n;
  }
  return 0;
}

function levelsOf(text: string, levelRanges: readonly (readonly Seniority[])[]): readonly Seniority[] {
  const v = vocabulary();
  const range = /^levelrange(\d+)$/.exec(text);
  if (range !== null) return levelRanges[Number(range[1])] ?? [];
  const form = matchWords(text, v.rewrites).join(' ');
  const audience = v.audienceSeniorities.map.get(form);
  if (audience !== undefined) return audience;
  const one = v.titleSeniorities.map.get(form);
  return one === undefined ? [] : [one];
}

function scan(clause: string, upper: ReadonlySet<string>, levelRanges: readonly (readonly Seniority[])[]): Scan {
  const v = vocabulary();
  const words = fold(clause).split(' ').filter((w) => w !== '');
  const items: Item[] = [];
  const unknown: Scan['unknown'] = [];
  let context: Context = 'who';
  let pending: string[] = [];
  const flush = (): void => {
    if (pending.length > 0) unknown.push({ text: pending.join(' '), context });
    pending = [];
  };
  for (let i = 0; i < words.length; ) {
    const w = words[i]!;
    if (WHERE.has(w) || COMPANY.has(w)) {
      flush();
      // 'Toronto-based CFOs': 'based' right after a place ends that place, it does not open one.
      const last = items[items.length - 1];
      const after = POSTFIX_WHERE.has(w) && last !== undefined && last.end === i && (last.kind === 'location' || last.kind === 'city');
      context = after ? 'who' : WHERE.has(w) ? 'where' : 'company';
      i++;
      continue;
    }
    const cands = candidatesAt(words, i, upper, context);
    const onlyStop = cands.length > 0 && cands[0]!.n === 1 && STOP.has(w) && cands.every((c) => c.kind !== 'location');
    if (cands.length === 0 || onlyStop) {
      const city = STOP.has(w) ? 0 : cityAt(words, i, pending.length === 0 ? context : 'who');
      if (city > 0) {
        flush();
        items.push({ kind: 'city', text: words.slice(i, i + city).join(' '), context, start: i, end: i + city });
        i += city;
        continue;
      }
      if (STOP.has(w)) flush();
      else pending.push(w);
      i++;
      continue;
    }
    flush();
    const n = cands[0]!.n;
    const next = words[i + n];
    const beforeCompanyNoun = next !== undefined && COMPANY_NOUNS.has(matchWords(next).join(' '));
    const chosen = choose(cands, beforeCompanyNoun ? PRIORITY.company : PRIORITY[context]);
    const text = words.slice(i, i + n).join(' ');
    const item: Item = { kind: chosen.kind, text, context, start: i, end: i + n, size: chosen.size };
    if (chosen.kind === 'seniority') items.push({ ...item, levels: levelsOf(text, levelRanges) });
    else if (chosen.kind === 'department') {
      const form = matchWords(text, v.rewrites).join(' ');
      const departments = v.departmentGroups.map.get(form) ?? [v.audienceDepartments.map.get(form)!];
      items.push({ ...item, departments, industryToo: cands.some((c) => c.kind === 'industry') });
    }
    else if (chosen.kind === 'title') {
      const entry = v.titles.map.get(matchWords(text, v.rewrites).join(' '))!;
      const role = entry.byRole && entry.seniority !== null && entry.department !== null ? { seniority: entry.seniority, department: entry.department } : undefined;
      items.push(role === undefined ? item : { ...item, role });
    } else items.push(item);
    i += n;
  }
  flush();
  return { items, unknown, words };
}

interface Collected {
  titles: string[];
  departments: string[];
  levels: Pick<AudienceFilters, 'seniorities' | 'seniorityMin'>;
  locations: string[];
  industries: string[];
  sizes: CompanySizeRange[];
  keywords: string[];
  readings: AudienceReading[];
}

function collect(scanned: Scan, exclusion: boolean): Collected {
  const c: Collected = { titles: [], departments: [], levels: {}, locations: [], industries: [], sizes: [], keywords: [], readings: [] };
  const { families: fams, rest, industries: fromFunctions } = families(scanned.items, scanned.words);
  // Separate function and level filters when every family has the same levels and none is an
  // exact title (and, when some name functions, all do); otherwise each family is a title.
  const flat =
    !exclusion &&
    fams.length > 0 &&
    fams.every((f) => !f.exact && sameLevels(f.levels, fams[0]!.levels)) &&
    (fams.every((f) => f.departments.length > 0) || fams.every((f) => f.departments.length === 0));
  for (const f of fams) {
    if (flat) {
      c.departments.push(...f.departments);
      if (f.departments.length > 0) c.readings.push({ text: f.text, member: 'departments', values: f.departments });
      if (f.levels.length > 0) c.readings.push({ text: f.text, member: 'seniority', values: f.levels });
    } else {
      c.titles.push(f.text);
      c.readings.push({ text: f.text, member: exclusion ? 'exclude' : 'titles', values: [f.text] });
    }
  }
  if (flat) {
    c.departments = unique(c.departments);
    c.levels = levelFilters(fams[0]!.levels);
  }
  for (const item of scanned.items) {
    if (item.kind === 'location' || item.kind === 'city') {
      c.locations.push(item.text);
      c.readings.push({ text: item.text, member: exclusion ? 'exclude' : 'locations', values: [item.text] });
    } else if (item.kind === 'industry') {
      c.industries.push(item.text);
      c.readings.push({ text: item.text, member: exclusion ? 'exclude' : 'industries', values: [item.text] });
    } else if (item.kind === 'size' && item.size !== undefined) {
      c.sizes.push(item.size);
      c.readings.push({ text: item.text, member: 'companySizes', values: [sizeText(item.size)] });
    }
  }
  for (const item of rest) {
    // A function no family takes ('anyone in finance'): a filter of its own, AND with the rest.
    c.departments.push(...item.departments!);
    c.readings.push({ text: item.text, member: exclusion ? 'exclude' : 'departments', values: [...item.departments!] });
  }
  for (const item of fromFunctions) {
    c.industries.push(item.text);
    c.readings.push({ text: item.text, member: exclusion ? 'exclude' : 'industries', values: [item.text] });
  }
  const redundant = umbrellasBesideMembers([...scanned.items.filter((i) => i.kind === 'industry'), ...fromFunctions]);
  c.industries = c.industries.filter((t) => !redundant.has(t));
  c.readings = c.readings.filter((r) => r.member !== 'industries' || !redundant.has(r.text));
  for (const u of scanned.unknown) {
    c.keywords.push(u.text);
    c.readings.push({ text: u.text, member: exclusion ? 'exclude' : 'keywords', values: [u.text] });
  }
  return c;
}

/**
 * The industries that are an umbrella named right after one of its members ('machinery
 * manufacturers' is machinery, not every manufacturer): there the umbrella is the head noun of the
 * phrase, not an industry of its own. Not so apart ('retail and e-commerce' is both).
 */
function umbrellasBesideMembers(items: readonly Item[]): Set<string> {
  const idOf = (t: string): string | null => industryIdExact(t) ?? industryId(t);
  const out = new Set<string>();
  for (const a of items) {
    for (const b of items) {
      if (a.end !== b.start) continue;
      const member = idOf(a.text);
      const umbrella = idOf(b.text);
      if (member !== null && umbrella !== null && member !== umbrella && industryMembers(umbrella).includes(member)) out.add(b.text);
    }
  }
  return out;
}

export function parseAudienceText(text: string): ParsedAudience {
  if (text.length > MAX_AUDIENCE_TEXT_LENGTH) {
    return { filters: NOBODY, unrecognised: [`(text longer than ${MAX_AUDIENCE_TEXT_LENGTH} characters)`], readings: [] };
  }
  // Upper-case two- and three-letter words may be country or state codes anywhere ('CTOs in DE', 'UK CFOs', 'TX startups').
  const upper = new Set((text.match(/\b[A-Z]{2,3}\b/g) ?? []).map((w) => w.toLowerCase()));
  const sizes: { range: CompanySizeRange; text: string }[] = [];
  const levelRanges: Seniority[][] = [];
  // 'in-house' says where someone works, not a place ('in-house lawyers').
  const withoutSizes = takeLevelRanges(takeSizes(text, sizes), levelRanges).replace(/\bin[\s-]house\b/gi, ' ');
  const cut = EXCLUSION.exec(withoutSizes);
  const include = cut === null ? withoutSizes : withoutSizes.slice(0, cut.index);
  const excludeText = cut === null ? '' : withoutSizes.slice(cut.index + cut[0].length);

  const pos = collect(scan(include, upper, levelRanges), false);
  const neg = collect(scan(excludeText.split(EXCLUSION).join(' , '), upper, levelRanges), true);
  const unrecognised = [...pos.keywords];
  const filters: {
    -readonly [K in keyof AudienceFilters]: AudienceFilters[K];
  } = {};
  if (pos.titles.length > 0) filters.titles = pos.titles;
  if (pos.levels.seniorities !== undefined) filters.seniorities = pos.levels.seniorities;
  if (pos.levels.seniorityMin !== undefined) filters.seniorityMin = pos.levels.seniorityMin;
  if (pos.departments.length > 0) filters.departments = unique(pos.departments);
  if (pos.locations.length > 0) filters.locations = pos.locations;
  if (pos.industries.length > 0) filters.industries = pos.industries;
  // Employee counts written as numbers say more than size words: "startups with fewer than 50
  // employees" is one range, at most 49, not "at most 49 or at most 200".
  const allSizes = sizes.length > 0 ? sizes.map((s) => s.range) : pos.sizes;
  if (allSizes.length > 0) filters.companySizes = allSizes;
  if (pos.keywords.length > 0) filters.keywords = pos.keywords;
  const readings: AudienceReading[] = [...sizes.map((s) => ({ text: fold(s.text), member: 'companySizes' as const, values: [sizeText(s.range)] })), ...pos.readings, ...neg.readings];

  // What is left out. Each part excludes on its own (the lead model has no "CFOs of Acme"):
  // excluding more is the safe side. An unknown word there is most likely a company's name.
  const exclude = {
    titles: [...neg.titles, ...neg.departments],
    industries: neg.industries,
    companies: neg.keywords,
  };
  unrecognised.push(...neg.keywords);
  if (exclude.titles.length + exclude.industries.length + exclude.companies.length > 0) {
    filters.exclude = Object.fromEntries(Object.entries(exclude).filter(([, v]) => v.length > 0));
  }

  const positive = Object.keys(filters).filter((k) => k !== 'exclude').length > 0;
  if (!positive) {
    return { filters: { ...NOBODY, ...(filters.exclude ? { exclude: filters.exclude } : {}) }, unrecognised: [...unrecognised, '(no word names anyone)'], readings };
  }
  return { filters, unrecognised, readings };
}

/**
 * The built-in audience parser: an English audience phrase ("CTOs and VPs of Engineering at
 * fintech companies in Germany, not agencies") to filters, with no model and no key.
 *
 * How it reads: company sizes ("50-200 employees", "over 1,000 staff") are taken out first; the
 * text is cut at the first exclusion word (not, except, excluding, no, other than...) into what to
 * include and what to leave out; each part is scanned word by word for the longest phrase any
 * vocabulary knows (titles, seniorities, departments, countries and regions, industries, size
 * words, cities). The preposition before a phrase says what it most likely is: after 'in' a
 * location or a department, after 'at'/'of'/'for' a kind of company. A department next to a
 * seniority ('marketing directors', 'HR leaders') is one title. Stop words are dropped; any other
 * word is kept as a keyword and listed in `unrecognised`, so it narrows, never widens.
 *
 * It never widens to everyone: a phrase with nothing but stop words, or a text longer than
 * MAX_AUDIENCE_TEXT_LENGTH, gives filters with no positive member (at most its exclusions), which
 * resolveAudience turns into criteria that match nobody; the reason is in `unrecognised`. The
 * scan is linear in the text and bounded by that length.
 */
import { findCity } from '../../leads/profile/cities';
import { parseCount } from '../../leads/profile/company-size';
import { countryByCode, countryByName, locationMaxWords, regionCountries } from '../../leads/profile/countries';
import { fold, matchWords } from '../../leads/profile/normalize';
import type { CompanySizeRange } from '../../leads/profile/types';
import { vocabulary } from '../../leads/profile/vocabulary';
import type { AudienceFilters } from './types';

/** Longest audience text accepted; the API answers 400 beyond it, the parser names nobody. */
export const MAX_AUDIENCE_TEXT_LENGTH = 2000;

export interface ParsedAudience {
  readonly filters: AudienceFilters;
  /** Words no vocabulary knows, kept as keywords (or, in an exclusion, as excluded companies). */
  readonly unrecognised: string[];
}

/** Names nobody: resolveAudience matches nobody with filters that constrain nothing. */
const NOBODY: AudienceFilters = {};

const STOP = new Set(
  ('a an the and or of in at for with from to who that which are is be their them they those these this any all anyone everyone someone anybody everybody ' +
    'people person persons folks folk individuals professionals contacts contact prospects prospect leads decision roles role positions position titles ' +
    'work working works employed based located headquartered hq operating active like such as e g eg etc only please target targeting reach find me ' +
    'company companies firm firms business businesses organization organizations organisation organisations org orgs sector sectors industry industries ' +
    'space vertical verticals market markets player players brand brands vendor vendors provider providers team teams level levels size sized ' +
    'employee employees staff headcount fte on by within across into over than more less other also either both per via i we our my some')
    .split(' '),
);
/** Connectors a phrase never starts or ends on ('of engineering', 'sales in'). */
const EDGE = new Set(['a', 'an', 'the', 'and', 'or', 'of', 'in', 'at', 'for', 'with', 'from', 'to', 'who', 'that', 'by', 'on']);
/** Words after which a phrase is most likely a location. */
const WHERE = new Set(['in', 'from', 'within', 'across', 'based', 'located', 'throughout', 'around', 'near', 'headquartered', 'hq']);
/** Words after which a phrase is most likely a kind of company (or a company's name). */
const COMPANY = new Set(['at', 'of', 'for', 'with', 'by']);
/** Nouns after which the phrase before them is a kind of company ('finance companies'). */
const COMPANY_NOUNS = new Set(['company', 'companie', 'firm', 'business', 'organization', 'organisation', 'org', 'sector', 'industry', 'industrie', 'space', 'vertical', 'brand', 'vendor', 'provider', 'player', 'startup', 'agency', 'agencie', 'shop', 'store']);

const EXCLUSION = /(?:^|[,;(]\s*|\s)(?:but not|except for|except|excluding|exclude|not including|other than|apart from|and not|and no|minus)\s|(?:^|[,;(])\s*(?:not|no|without)\s/i;

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
function takeSizes(text: string, sizes: CompanySizeRange[]): string {
  let rest = text;
  for (const { re, range } of SIZE_PATTERNS) {
    rest = rest.replace(re, (whole: string, a: string, b: unknown) => {
      const x = parseCount(a);
      // A one-number pattern passes the match offset here, not a second number.
      const y = typeof b === 'string' && /^\d/.test(b) ? parseCount(b) : null;
      // A bare range or number is a size only when it says employees, or is a range ("50-200").
      const saysEmployees = new RegExp(`${EMPLOYEES}$`, 'i').test(whole) || y !== null;
      if (x === null || !saysEmployees) return whole;
      sizes.push(range(x, y ?? x));
      return ' , ';
    });
  }
  return rest;
}

type Kind = 'title' | 'seniority' | 'department' | 'location' | 'industry' | 'size' | 'city';
interface Item {
  readonly kind: Kind;
  readonly text: string;
  readonly context: 'who' | 'where' | 'company';
  readonly size?: CompanySizeRange;
}

interface Candidate {
  readonly kind: Kind;
  readonly n: number;
  readonly size?: CompanySizeRange;
}

/** What the words from `i` (n of them) can be, longest first. */
function candidatesAt(words: readonly string[], i: number, upper: ReadonlySet<string>, context: Item['context']): Candidate[] {
  const v = vocabulary();
  const out: Candidate[] = [];
  const max = Math.min(words.length - i, Math.max(v.titles.maxWords, v.departments.maxWords, v.industries.maxWords, locationMaxWords(), 4) + 2);
  for (let n = max; n >= 1; n--) {
    const span = words.slice(i, i + n);
    if (n > 1 && (EDGE.has(span[0]!) || EDGE.has(span[n - 1]!))) continue;
    const text = span.join(' ');
    const tForm = matchWords(text, v.rewrites).join(' ');
    const plain = matchWords(text).join(' ');
    if (v.titles.map.has(tForm) && (n > 1 || v.standalone.has(tForm) || v.titles.map.get(tForm)!.seniority !== null)) out.push({ kind: 'title', n });
    if (v.audienceSeniorities.map.has(tForm) || v.titleSeniorities.map.has(tForm)) out.push({ kind: 'seniority', n });
    if (v.departments.map.has(tForm)) out.push({ kind: 'department', n });
    if (regionCountries(text) !== null || countryByName(text) !== null) out.push({ kind: 'location', n });
    else if (n === 1 && (upper.has(text) || context === 'where') && text.length <= 3 && !STOP.has(text) && countryByCode(text) !== null) out.push({ kind: 'location', n });
    if (v.industries.map.has(plain)) out.push({ kind: 'industry', n });
    const size = v.companySizes.map.get(plain);
    if (size !== undefined) out.push({ kind: 'size', n, size });
    if (out.length > 0) return out;
  }
  return out;
}

const PRIORITY: Readonly<Record<Item['context'], readonly Kind[]>> = {
  who: ['title', 'seniority', 'department', 'location', 'industry', 'size'],
  where: ['location', 'department', 'industry', 'title', 'seniority', 'size'],
  company: ['industry', 'size', 'location', 'title', 'department', 'seniority'],
};

interface Scan {
  readonly items: Item[];
  /** Runs of unknown words, with the context they stood in. */
  readonly unknown: { text: string; context: Item['context'] }[];
}

function scan(clause: string, upper: ReadonlySet<string>): Scan {
  const words = fold(clause).split(' ').filter((w) => w !== '');
  const items: Item[] = [];
  const unknown: Scan['unknown'] = [];
  let context: Item['context'] = 'who';
  let pending: string[] = [];
  const flush = (): void => {
    if (pending.length > 0) unknown.push({ text: pending.join(' '), context });
    pending = [];
  };
  for (let i = 0; i < words.length; ) {
    const w = words[i]!;
    if (WHERE.has(w) || COMPANY.has(w)) {
      flush();
      context = WHERE.has(w) ? 'where' : 'company';
      i++;
      continue;
    }
    const cands = candidatesAt(words, i, upper, context);
    if (cands.length === 0 || (cands[0]!.n === 1 && STOP.has(w) && cands.every((c) => c.kind !== 'location'))) {
      if (STOP.has(w)) flush();
      else if (context === 'where' && pending.length === 0 && cityAt(words, i) > 0) {
        const n = cityAt(words, i);
        items.push({ kind: 'city', text: words.slice(i, i + n).join(' '), context });
        i += n;
        continue;
      } else pending.push(w);
      i++;
      continue;
    }
    flush();
    const n = cands[0]!.n;
    const next = words[i + n];
    const beforeCompanyNoun = next !== undefined && COMPANY_NOUNS.has(matchWords(next).join(' '));
    const order = beforeCompanyNoun ? PRIORITY.company : PRIORITY[context];
    const chosen = [...cands].sort((a, b) => order.indexOf(a.kind) - order.indexOf(b.kind))[0]!;
    items.push({ kind: chosen.kind, text: words.slice(i, i + n).join(' '), context, size: chosen.size });
    i += n;
  }
  flush();
  return { items, unknown };
}

/** How many words from `i` name a known city (up to three), or 0. */
function cityAt(words: readonly string[], i: number): number {
  for (let n = Math.min(3, words.length - i); n >= 1; n--) {
    const span = words.slice(i, i + n);
    if (span.some((w) => STOP.has(w))) continue;
    if (findCity(span.join(' ')) !== null) return n;
  }
  return 0;
}

/** Adjacent department and seniority ('marketing directors', 'directors of marketing') as one title. */
function joinRoles(items: readonly Item[]): Item[] {
  const out: Item[] = [];
  for (const item of items) {
    const prev = out[out.length - 1];
    const pair =
      prev !== undefined &&
      prev.context === 'who' &&
      ((prev.kind === 'department' && (item.kind === 'seniority' || item.kind === 'title')) || (prev.kind === 'seniority' && item.kind === 'department'));
    if (pair) out[out.length - 1] = { kind: 'title', text: `${prev.text} ${item.text}`, context: 'who' };
    else out.push(item);
  }
  return out;
}

interface Collected {
  titles: string[];
  departments: string[];
  locations: string[];
  industries: string[];
  sizes: CompanySizeRange[];
  keywords: string[];
}

function collect(scanned: Scan): Collected {
  const c: Collected = { titles: [], departments: [], locations: [], industries: [], sizes: [], keywords: [] };
  for (const item of joinRoles(scanned.items)) {
    if (item.kind === 'title' || item.kind === 'seniority') c.titles.push(item.text);
    else if (item.kind === 'department') c.departments.push(item.text);
    else if (item.kind === 'location' || item.kind === 'city') c.locations.push(item.text);
    else if (item.kind === 'industry') c.industries.push(item.text);
    else if (item.size !== undefined) c.sizes.push(item.size);
  }
  for (const u of scanned.unknown) c.keywords.push(u.text);
  return c;
}

export function parseAudienceText(text: string): ParsedAudience {
  if (text.length > MAX_AUDIENCE_TEXT_LENGTH) {
    return { filters: NOBODY, unrecognised: [`(text longer than ${MAX_AUDIENCE_TEXT_LENGTH} characters)`] };
  }
  // Upper-case two- and three-letter words may be country codes anywhere ('CTOs in DE', 'UK CFOs').
  const upper = new Set((text.match(/\b[A-Z]{2,3}\b/g) ?? []).map((w) => w.toLowerCase()));
  const sizes: CompanySizeRange[] = [];
  const withoutSizes = takeSizes(text, sizes);
  const cut = EXCLUSION.exec(withoutSizes);
  const include = cut === null ? withoutSizes : withoutSizes.slice(0, cut.index);
  const excludeText = cut === null ? '' : withoutSizes.slice(cut.index + cut[0].length);

  const pos = collect(scan(include, upper));
  const neg = collect(scan(excludeText.split(EXCLUSION).join(' , '), upper));
  const unrecognised = [...pos.keywords];
  const filters: {
    -readonly [K in keyof AudienceFilters]: AudienceFilters[K];
  } = {};
  if (pos.titles.length > 0) filters.titles = pos.titles;
  if (pos.departments.length > 0) filters.departments = pos.departments;
  if (pos.locations.length > 0) filters.locations = pos.locations;
  if (pos.industries.length > 0) filters.industries = pos.industries;
  const allSizes = [...sizes, ...pos.sizes];
  if (allSizes.length > 0) filters.companySizes = allSizes;
  if (pos.keywords.length > 0) filters.keywords = pos.keywords;

  // What is left out. Each part excludes on its own (the lead model has no "CFOs of Acme"):
  // excluding more is the safe side. An unknown word there is most likely a company's name.
  const exclude = {
    titles: neg.titles,
    industries: neg.industries,
    companies: neg.keywords,
  };
  unrecognised.push(...neg.keywords);
  if (neg.departments.length > 0) exclude.titles = [...exclude.titles, ...neg.departments];
  if (exclude.titles.length + exclude.industries.length + exclude.companies.length > 0) {
    filters.exclude = Object.fromEntries(Object.entries(exclude).filter(([, v]) => v.length > 0));
  }

  const positive = Object.keys(filters).filter((k) => k !== 'exclude').length > 0;
  if (!positive) return { filters: { ...NOBODY, ...(filters.exclude ? { exclude: filters.exclude } : {}) }, unrecognised: [...unrecognised, '(no word names anyone)'] };
  return { filters, unrecognised };
}

/**
 * Text normalisation shared by lead profiles and audiences: both sides of every lookup go through
 * the same functions, so a vocabulary spelling and a lead's raw value meet in one form.
 */

const COMBINING_MARKS = /[\u0300-\u036f]/g;
/** French and Italian elisions: l', d', qu', dell', all', nell', dall', sull', un'. */
const ELISION = /(?<![\p{L}\p{N}])(l|d|qu|dell|all|nell|dall|sull|un)['\u2019](?=\p{L})/gu;
/** Letters NFD does not decompose. */
const SPECIAL_LETTERS: Readonly<Record<string, string>> = { ß: 'ss', ø: 'o', æ: 'ae', œ: 'oe', đ: 'd', ł: 'l', þ: 'th', ı: 'i' };
const SPECIAL_RE = /[ßøæœđłþı]/g;

/**
 * Lower case, accents folded, '&' read as 'and', dots dropped (so 'Sr.' is 'sr' and 'U.S.' is
 * 'us'), apostrophes dropped, every other non-alphanumeric run one space. What `titleNorm` and
 * `cityNorm` hold and what keywords are matched against.
 */
export function fold(text: string): string {
  let s = text.toLowerCase();
  // Only pay for NFD when there is something outside ASCII (most values are plain ASCII).
  if (/[^ -~]/.test(s)) s = s.normalize('NFD').replace(COMBINING_MARKS, '').replace(SPECIAL_RE, (c) => SPECIAL_LETTERS[c] ?? c);
  return s
    .replace(/&/g, ' and ')
    .replace(/(\w)\.(?=\w\.)|(\w)\.(?=\s|$)/g, '$1$2')
    // An elided article or preposition is a word of its own ("directeur de l'usine", "dell'ufficio").
    .replace(ELISION, '$1 ')
    .replace(/['\u2019`]/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** Words that carry no meaning in a title or a vocabulary entry ('VP of Engineering' is 'VP Engineering'). */
const FILLER = new Set(['of', 'the', 'for', 'a', 'an', 'to']);

/**
 * One word's singular form. Crude on purpose: it only has to map a word and its plural to the
 * same string, and both sides of a lookup go through it ('sales' and 'sale' meet; so do
 * 'business' and 'business', since -ss is kept).
 */
export function singular(word: string): string {
  const n = word.length;
  if (n < 3 || word.charCodeAt(n - 1) !== 115 /* s */) return word;
  if (word.endsWith('ss') || word.endsWith('us') || word.endsWith('is')) return word;
  if (n > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  // 'businesses', 'boxes', 'coaches': the plural adds -es to a word that keeps its end.
  if (n > 4 && /(?:sses|xes|ches|shes|zzes)$/.test(word)) return word.slice(0, -2);
  return word.slice(0, -1);
}

/** Word-level rewrites (abbreviations), keys and values already in match form. */
export type Rewrites = ReadonlyMap<string, string>;

/**
 * The form titles, departments and industries are looked up in: folded, filler words dropped,
 * each word singular and its abbreviation expanded.
 */
export function matchForm(text: string, rewrites?: Rewrites): string {
  return matchWords(fold(text), rewrites).join(' ');
}

/** matchForm's words, from text already folded. */
export function matchWords(folded: string, rewrites?: Rewrites): string[] {
  const out: string[] = [];
  if (folded === '') return out;
  for (const raw of folded.split(' ')) {
    if (FILLER.has(raw)) continue;
    const w = singular(raw);
    const r = rewrites?.get(w);
    if (r === undefined) out.push(w);
    else if (r !== '') for (const part of r.split(' ')) out.push(part);
  }
  return out;
}

/**
 * Whether folded words list several people rather than name one combined title: a joining word
 * and a plural ('founders and CEOs' is founders and CEOs; 'Founder & CEO' is one person).
 */
export function isPluralList(folded: readonly string[]): boolean {
  return folded.some((w) => w === 'and' || w === 'or') && folded.some((w) => w !== 'and' && w !== 'or' && singular(w) !== w);
}

import * as chrono from 'chrono-node';
import { addDays, DATE_SCAN_CHARS, isoDate, isoDay } from './dates';
import { guessLanguage, type Language } from './language';
import { fold, sentences } from './normalize';

/**
 * The date an absence ends, from an out-of-office reply: "back on Monday 3rd", "returning 12/01",
 * "zurück am 5. Januar", "jusqu'au 7 décembre", "vom 23.11. bis 27.11.2026". chrono-node finds the
 * dates; this module picks the one that marks the end of the absence:
 * - a date in a sentence that speaks of returning ("back", "wieder erreichbar", "de retour") first;
 * - then a date right after "until" ("bis", "jusqu'au", "hasta", "fino al", "tot");
 * - then any other date; ties go to the later date (the end of "from ... to ...").
 * Dates before the reply's day are ignored. The result is the return day or the last day away:
 * following up after either is right.
 */

const PARSERS: Readonly<Record<Language, chrono.Chrono>> = {
  en: chrono.en.casual,
  fr: chrono.fr.casual,
  de: chrono.de.casual,
  es: chrono.es.casual,
  pt: chrono.pt.casual,
  it: chrono.it.casual,
  nl: chrono.nl.casual,
};

const RETURN_CUE =
  /\b(back|return\w*|reopen\w*|available again|retour|zuruck|wieder|regreso|vuelta|vuelvo|retorno|retorn\w*|volta|rientr\w*|ritorno|terug|bereikbaar|erreichbar)\b/;
const UNTIL_CUE = /\b(until|till|til|through|thru|jusqu'?(au|a)?|bis( zum| einschliesslich)?|hasta( el)?|ate( o| a| dia)?|fino( al| a)?|tot( en met)?)\s*$/;

/**
 * A date without a year is read forward ("5 January" in December is next January), but an absence
 * does not end ten months from now unless the reply says which year: such a date was in the past.
 */
const MAX_YEARLESS_DAYS_AHEAD = 300;

interface Candidate {
  readonly index: number;
  readonly length: number;
  readonly date: string;
}

const WEEKDAY_NAMES = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
const WEEKDAY_ORDINAL = /\b(sunday|monday|tuesday|wednesday|thursday|friday|saturday)\s+(the\s+)?(\d{1,2})(st|nd|rd|th)\b/gi;

/**
 * "Monday 3rd": a weekday and a day of the month without the month. The first day from `today`
 * on that is both; if the two never meet within a year, the day of the month decides.
 */
function weekdayOrdinals(text: string, today: Date): Candidate[] {
  const out: Candidate[] = [];
  for (const m of text.matchAll(WEEKDAY_ORDINAL)) {
    const weekday = WEEKDAY_NAMES.indexOf((m[1] as string).toLowerCase());
    const day = Number(m[3]);
    if (day < 1 || day > 31) continue;
    let found: Date | undefined;
    let fallback: Date | undefined;
    for (let i = 0; i <= 400 && !found; i += 1) {
      const d = addDays(today, i);
      if (d.getUTCDate() !== day) continue;
      fallback ??= d;
      if (d.getUTCDay() === weekday) found = d;
    }
    const date = found ?? fallback;
    if (date) out.push({ index: m.index, length: m[0].length, date: isoDay(date) });
  }
  return out;
}

/**
 * "bis zum 30.11." / "tot 30-11": day and month without a year, which chrono's European parsers
 * skip. Day-first, the next such day from `today` on.
 */
const DAY_MONTH = /\b(\d{1,2})[.-](\d{1,2})\.?(?![./-]?\d)/g;

function dayMonths(text: string, today: Date): Candidate[] {
  const out: Candidate[] = [];
  for (const m of text.matchAll(DAY_MONTH)) {
    const day = Number(m[1]);
    const month = Number(m[2]);
    if (day < 1 || day > 31 || month < 1 || month > 12) continue;
    let date = isoDate(today.getUTCFullYear(), month, day);
    if (date < isoDay(today)) date = isoDate(today.getUTCFullYear() + 1, month, day);
    if (date > isoDay(addDays(today, MAX_YEARLESS_DAYS_AHEAD))) continue;
    out.push({ index: m.index, length: m[0].length, date });
  }
  return out;
}

function chronoCandidates(text: string, lang: Language, now: Date): Candidate[] {
  const out: Candidate[] = [];
  for (const r of PARSERS[lang].parse(text, now, { forwardDate: true })) {
    const c = r.end ?? r.start;
    // A time alone ("at 9am") is no date.
    if (!(c.isCertain('day') || c.isCertain('weekday') || c.isCertain('month'))) continue;
    const date = isoDate(c.get('year') ?? now.getUTCFullYear(), c.get('month') ?? 1, c.get('day') ?? 1);
    // "from 2 November to 5 November" read in late November is past, not next year's November.
    if (!c.isCertain('year') && date > isoDay(addDays(now, MAX_YEARLESS_DAYS_AHEAD))) continue;
    out.push({ index: r.index, length: r.text.length, date });
  }
  return out;
}

function rank(folded: string, c: Candidate): number {
  const sentence = sentences(folded).find((s) => s.start <= c.index && c.index < s.start + s.text.length);
  if (sentence && RETURN_CUE.test(sentence.text)) return 3;
  if (UNTIL_CUE.test(folded.slice(Math.max(0, c.index - 30), c.index).trimEnd())) return 2;
  return 1;
}

/** The return date (YYYY-MM-DD) of an out-of-office reply, or undefined when it names none. */
export function extractReturnDate(fullText: string, now: Date): string | undefined {
  const text = fullText.slice(0, DATE_SCAN_CHARS);
  const folded = fold(text);
  // fold() keeps one character per character for the scripts we meet here, except "ß" -> "ss";
  // align positions by parsing the folded text when they differ in length.
  const source = folded.length === text.length ? text : folded;
  const today = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const lang = guessLanguage(folded);
  const own = lang === 'en' ? weekdayOrdinals(source, today) : dayMonths(source, today);
  const parsed = chronoCandidates(source, lang, now).filter((c) => !own.some((o) => c.index < o.index + o.length && o.index < c.index + c.length));
  const todayIso = isoDay(today);
  const candidates = [...own, ...parsed].filter((c) => c.date >= todayIso);
  let best: { c: Candidate; score: number } | undefined;
  for (const c of candidates) {
    const score = rank(folded, c);
    if (!best || score > best.score || (score === best.score && c.date > best.c.date)) best = { c, score };
  }
  return best?.c.date;
}

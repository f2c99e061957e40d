import * as chrono from 'chrono-node';
import { addMonths, DATE_SCAN_CHARS, isoDate, isoDay, nextFirstOfMonth, startOfNextQuarter } from './dates';
import { fold } from './normalize';

/**
 * When a "not now" reply says to try again: "next quarter", "in 6 months", "ask me again in Q3",
 * "reach out in January", "après l'été". Returns the first day worth following up on.
 */

const NUMBER_WORDS: Readonly<Record<string, number>> = {
  one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, nine: 9, twelve: 12, 'a few': 3, 'a couple of': 2,
  un: 1, deux: 2, trois: 3, quelques: 3, ein: 1, zwei: 2, drei: 3, sechs: 6, 'ein paar': 3, einigen: 3,
  dos: 2, tres: 3, seis: 6, unos: 3, due: 2, sei: 6, qualche: 3, twee: 2, drie: 3, zes: 6,
};

interface PeriodRule {
  readonly pattern: RegExp;
  readonly date: (now: Date, m: RegExpExecArray) => Date;
}

const count = (word: string): number => (/^\d+$/.test(word) ? Number(word) : (NUMBER_WORDS[word] ?? 3));

const RULES: readonly PeriodRule[] = [
  {
    pattern: /\b(next quarter|prochain trimestre|nachsten quartal|nachstes quartal|proximo trimestre|prossimo trimestre|volgend kwartaal|volgende kwartaal)\b/,
    date: (now) => startOfNextQuarter(now),
  },
  {
    pattern: /\b(next year|l'annee prochaine|nachstes jahr|nachsten jahr|proximo ano|ano que viene|ano que vem|anno prossimo|prossimo anno|volgend jaar)\b/,
    date: (now) => new Date(Date.UTC(now.getUTCFullYear() + 1, 0, 1)),
  },
  {
    pattern: /\b(next month|le mois prochain|nachsten monat|proximo mes|prossimo mese|volgende maand)\b/,
    date: (now) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)),
  },
  {
    pattern: /\b(?:in|dans|en|tra|over)\s+(\d+|a few|a couple of|one|two|three|four|six|nine|twelve|quelques|deux|trois|ein paar|einigen|zwei|drei|sechs|unos|dos|tres|seis|qualche|due|sei|twee|drie|zes)\s+(weeks?|months?|quarters?|mois|semaines|monaten|wochen|meses|semanas|mesi|settimane|maanden|weken)\b/,
    date: (now, m) => {
      const n = count(m[1] as string);
      const unit = m[2] as string;
      if (/^(weeks?|semaines|wochen|semanas|settimane|weken)$/.test(unit)) return new Date(now.getTime() + n * 7 * 86_400_000);
      return addMonths(now, /^quarters?$/.test(unit) ? n * 3 : n);
    },
  },
  {
    pattern: /\bq([1-4])\b/,
    date: (now, m) => nextFirstOfMonth(now, (Number(m[1]) - 1) * 3 + 1),
  },
  {
    pattern: /\b(after the summer|apres l'ete|nach dem sommer|despues del verano|depois do verao|dopo l'estate|na de zomer)\b/,
    date: (now) => nextFirstOfMonth(now, 9),
  },
  {
    pattern: /\b(after the (holidays|new year)|in the new year)\b/,
    date: (now) => nextFirstOfMonth(now, 1),
  },
];

/** The follow-up date (YYYY-MM-DD) a decline asks for, or undefined when it names no time. */
export function extractFollowUpDate(fullText: string, now: Date): string | undefined {
  const text = fullText.slice(0, DATE_SCAN_CHARS);
  const folded = fold(text);
  for (const rule of RULES) {
    const m = rule.pattern.exec(folded);
    if (m) return isoDay(rule.date(now, m));
  }
  // A month or date ("reach out in January", "after March 15th"): only future dates count.
  const today = isoDay(now);
  for (const r of chrono.casual.parse(text, now, { forwardDate: true })) {
    if (!r.start.isCertain('month')) continue;
    const date = isoDate(r.start.get('year') ?? now.getUTCFullYear(), r.start.get('month') ?? 1, r.start.get('day') ?? 1);
    if (date > today) return date;
  }
  return undefined;
}

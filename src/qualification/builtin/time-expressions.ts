/**
 * Does a sentence name a meeting time? Weekdays, "tomorrow", clock times and ordinal days in the
 * six languages covered, on folded text. Used to tell a proposed time ("how about Tuesday at 3?")
 * and an accepted one ("Tuesday at 3 works") from talk without a time.
 */
const WEEKDAYS = [
  // Bare "mon" is left out: it is French for "my".
  '(mon|tues|tue|wednes|wed|thurs|thu|fri|satur|sun)day|tue|wed|thu|fri',
  'lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche',
  'montag|dienstag|mittwoch|donnerstag|freitag|samstag|sonntag',
  'lunes|martes|miercoles|jueves|viernes|sabado|domingo',
  'segunda|terca|quarta|quinta|sexta|sabado|domingo',
  'lunedi|martedi|mercoledi|giovedi|venerdi|sabato|domenica',
  'maandag|dinsdag|woensdag|donderdag|vrijdag|zaterdag|zondag',
].join('|');

const RELATIVE_DAYS = 'tomorrow|today|tonight|next week|this week|demain|morgen|manana|amanha|domani';

const TIME_PATTERNS: readonly RegExp[] = [
  new RegExp(`\\b(${WEEKDAYS})\\b`),
  new RegExp(`\\b(${RELATIVE_DAYS})\\b`),
  /\b\d{1,2}([:.h]\d{2})?\s?(am|pm|h|uhr|hrs|u)\b/, // 3pm, 10 am, 14h, 14 uhr
  /\b\d{1,2}[:.h]\d{2}\b/, // 10:30, 14.00, 14h30
  /\b(at|a las|alle|om|um) \d{1,2}\b(?!-)/, // at 3, a las 11, alle 10, om 14, um 10 (not "at 3-year")
  /\bthe \d{1,2}(st|nd|rd|th)\b|\bon the \d{1,2}\b/,
];

export function hasTimeExpression(sentence: string): boolean {
  return TIME_PATTERNS.some((re) => re.test(sentence));
}

/**
 * A sentence offers rather than accepts: a question, "how about", "would", "instead", "or", a
 * range ("anytime between 9 and 11") or a preference ("works best").
 */
export const PROPOSAL_MARKERS = /\b(how about|how'?s|what about|would|could we|can we|can you do|instead|or|any ?time|between|best|if that works|(i'?m|i am) (fairly |pretty |quite |mostly )?(open|free|available)|que tal|et si|wie ware es|e se|wat dacht je)\b/;

/** An acceptance of a time (or having taken one: "grabbed 10:30"), checked in sentences that are not questions. */
export const ACCEPTANCE_MARKERS =
  /\b(done|grabbed|picked|reserved|took|all set|it is|confirm\w*|conferm\w*|bestatig\w*|bevestig\w*|works?|suits?|is fine|fine by me|is good|perfect|great|sounds good|confirmed|passt|parfait|perfecto|perfetto|prima|combinado|listo|d'accord|einverstanden|va bene|va benissimo|goed|otimo|esta bom|me viene bien|me va bien|good for me|see you)\b/;

/**
 * Lexicon patterns are written in plain lower-case ASCII where possible ("zuruck", "nao",
 * "geinteresseerd"): replies arrive with and without accents, curly or straight apostrophes, so
 * the text is folded the same way before matching. Folding keeps string length per character
 * class simple but not identical, so positions found in folded text refer to folded text only.
 */
export function fold(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/ß/g, 'ss')
    .replace(/[\u2018\u2019\u02bc`´]/g, "'")
    .replace(/[\u201c\u201d\u201e«»]/g, '"')
    .replace(/[\u2010-\u2015]/g, '-')
    .replace(/\u00a0/g, ' ')
    .toLowerCase();
}

/** One sentence of the reply, with whether it asks something. */
export interface Sentence {
  readonly text: string;
  /** Offset of the sentence in the folded text. */
  readonly start: number;
  readonly question: boolean;
}

/**
 * Splits folded text into sentences at terminal punctuation followed by a space (so "14.00" and
 * "27.11.2026" stay whole) and at line breaks. A sentence is a question when it contains "?"
 * (Spanish "¿" openers are ignored: the closing mark is enough).
 */
export function sentences(folded: string): Sentence[] {
  const out: Sentence[] = [];
  const re = /[^\n]*?(?:[.!?]+(?=\s|$)|\n|$)/g;
  for (let m = re.exec(folded); m !== null && m.index < folded.length; m = re.exec(folded)) {
    const raw = m[0];
    if (raw === '') {
      re.lastIndex += 1;
      continue;
    }
    if (raw.trim() !== '') out.push({ text: raw, start: m.index, question: raw.includes('?') });
  }
  return out;
}

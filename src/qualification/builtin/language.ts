/**
 * A rough guess of the reply's language from common words. It only chooses which date parser reads
 * return dates (and so whether "12/01" is month-first, as in English, or day-first, as elsewhere).
 */
export const LANGUAGES = ['en', 'fr', 'de', 'es', 'pt', 'it', 'nl'] as const;
export type Language = (typeof LANGUAGES)[number];

const STOPWORDS: Readonly<Record<Language, readonly string[]>> = {
  en: ['the', 'and', 'you', 'i', 'my', 'is', 'will', 'be', 'to', 'of', 'for', 'with', 'until', 'back', 'am', 'on', 'out', 'office', 'thanks'],
  fr: ['je', 'suis', 'le', 'la', 'les', 'de', 'du', 'et', 'vous', 'votre', 'mon', 'au', 'jusqu', 'retour', 'des', 'avec', 'merci', 'bureau', 'serai'],
  de: ['ich', 'bin', 'der', 'die', 'das', 'und', 'sie', 'ihre', 'im', 'am', 'bis', 'zum', 'mit', 'nicht', 'wieder', 'ab', 'dem', 'vielen', 'dank'],
  es: ['el', 'la', 'los', 'de', 'y', 'estoy', 'hasta', 'mi', 'su', 'correo', 'con', 'estare', 'por', 'gracias', 'del', 'oficina', 'lunes', 'en'],
  pt: ['o', 'a', 'os', 'de', 'e', 'estou', 'ate', 'meu', 'com', 'no', 'dia', 'do', 'da', 'obrigado', 'escritorio', 'ferias', 'retorno', 'em'],
  it: ['il', 'la', 'di', 'e', 'sono', 'fino', 'al', 'mio', 'con', 'per', 'alla', 'ufficio', 'grazie', 'ferie', 'saro', 'rientro', 'in'],
  nl: ['ik', 'ben', 'de', 'het', 'en', 'tot', 'met', 'op', 'weer', 'van', 'je', 'uw', 'niet', 'vanaf', 'terug', 'vakantie', 'bedankt'],
};

/** The head of the text is enough, and distinct words make a repeated word count once. */
const SAMPLE_CHARS = 4000;

export function guessLanguage(folded: string): Language {
  const words = new Set(folded.slice(0, SAMPLE_CHARS).split(/[^a-z]+/).filter((w) => w !== ''));
  let best: Language = 'en';
  let bestScore = 0;
  for (const lang of LANGUAGES) {
    const set = new Set(STOPWORDS[lang]);
    const score = [...words].filter((w) => set.has(w)).length;
    if (score > bestScore) {
      best = lang;
      bestScore = score;
    }
  }
  return best;
}

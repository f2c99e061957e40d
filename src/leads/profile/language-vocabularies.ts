/**
 * Job-title vocabularies of the languages leads write their titles in besides English (German,
 * French, Dutch, Spanish, Portuguese, Italian, Swedish, Danish, Norwegian, Polish): data files in
 * vocabulary/languages/, one per language, read into the same lookup maps as the English
 * vocabulary (vocabulary.ts). A lead's language is not known (a German title in a Swiss or a US
 * export), so every language's words are looked up together; the files are checked against one
 * another in the tests so that no word means two different things.
 */
import da from './vocabulary/languages/da.json';
import de from './vocabulary/languages/de.json';
import es from './vocabulary/languages/es.json';
import fr from './vocabulary/languages/fr.json';
import it from './vocabulary/languages/it.json';
import nl from './vocabulary/languages/nl.json';
import no from './vocabulary/languages/no.json';
import pl from './vocabulary/languages/pl.json';
import pt from './vocabulary/languages/pt.json';
import sv from './vocabulary/languages/sv.json';
import type { Seniority } from './types';

/** One language's file: every word and phrase as people write it (accents, capitals); the normalisation does the rest. */
export interface LanguageVocabulary {
  /** ISO 639-1. */
  readonly language: string;
  readonly name: string;
  /** Articles, prepositions and conjunctions that carry nothing in a title ('der', 'de la', 'för'). */
  readonly fillers: readonly string[];
  /**
   * Whether the language writes a function and a level as one word ('Vertriebsleiter',
   * 'Försäljningschef'), and the letters that may join the two parts ('s' in 'Vertriebs-leiter').
   */
  readonly compounds: { readonly linking: readonly string[] } | null;
  /** Words and phrases that name a level inside a title ('Leiter', 'Leiterin', 'Abteilungsleiter'). */
  readonly levels: Partial<Readonly<Record<Seniority, readonly string[]>>>;
  /**
   * Words and phrases that name a function (a department id of departments.json): nouns and
   * adjectives in every gender ('Finanzen', 'financier', 'financière'), and job nouns that name
   * the function with no level ('Buchhalter', 'comptable').
   */
  readonly departments: Readonly<Record<string, readonly string[]>>;
  /** Whole titles that mean one canonical title key of titles.json ('Geschäftsführer': ceo). */
  readonly titles: Readonly<Record<string, readonly string[]>>;
}

export const LANGUAGE_VOCABULARIES: readonly LanguageVocabulary[] = [de, fr, nl, es, pt, it, sv, da, no, pl] as unknown as readonly LanguageVocabulary[];

import type { Category } from '../../categories';

/** What a cue reveals beyond its category; next-action derivation and precedence read these. */
export type CueTag =
  /** A question about price, terms or the product: answer it. */
  | 'price'
  /** A question of any kind. */
  | 'question'
  /** Referred or forwarded to someone else. */
  | 'referral'
  /** The person left the company: beats out-of-office cues (such notices are auto-replies too). */
  | 'left_company'
  /** "Try again later / next quarter": a not-now rather than a never. */
  | 'later';

/**
 * One weighted phrase of the lexicon. Patterns run on folded text (lower case, no accents, straight
 * apostrophes: see normalize.ts), so they are written that way.
 *
 * Weights: 4 is decisive on its own ("remove me", "out of office", "not interested"), 2.5-3.5 is a
 * clear signal that still loses against a decisive one, 1-2 only tips a balance.
 */
export interface Cue {
  readonly category: Category;
  readonly weight: number;
  readonly pattern: RegExp;
  /**
   * How a negated match counts ("not interested" for the cue "interested"): for the category given
   * here, or not at all (null). Absent: negation is not checked, because the phrase already carries
   * its polarity ("no thanks", "not the right person").
   */
  readonly onNegation?: Category | null;
  /** Counts only outside questions ("Have you booked?" books nothing). */
  readonly declarativeOnly?: boolean;
  readonly tag?: CueTag;
}

type CueOptions = Omit<Cue, 'category' | 'weight' | 'pattern'>;

/** A small builder so that lexicon files read as tables. */
export function cues(category: Category, rows: ReadonlyArray<readonly [number, RegExp, CueOptions?]>): Cue[] {
  return rows.map(([weight, pattern, opts]) => ({ category, weight, pattern, ...opts }));
}

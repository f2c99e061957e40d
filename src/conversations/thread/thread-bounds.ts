/**
 * How much of a thread one answer holds. A lead's thread is short in practice (a sequence of a few
 * steps, a few replies), but a lead written to by many campaigns, or an inbound address looping
 * auto-replies, could make it long: the answer keeps the newest messages and a cursor to the rest.
 * Bodies are cut too: a reply's text is stored up to 200,000 characters (quoted history included),
 * which nobody reads in a thread view.
 */

/** Messages in one answer, at most (and the default). */
export const MAX_THREAD_MESSAGES = 200;

/** Characters of a message's text shown. */
export const MAX_TEXT_CHARS = 20_000;

/**
 * Characters of a message's HTML read before sanitising. Cut before, not after, so the cleaned
 * HTML is always well formed (the parser closes what the cut left open) and the sanitiser's work
 * per message is bounded.
 */
export const MAX_HTML_CHARS = 100_000;

/** A stored body cut to `max` characters; SQL reads one character more (`left(col, max + 1)`) so a cut shows. */
export function bounded(value: string | null, max: number): { value: string | null; cut: boolean } {
  if (value === null || value.length <= max) return { value, cut: false };
  return { value: value.slice(0, max), cut: true };
}

/**
 * How an answer joins its thread (RFC 5322 section 3.6.4): pure functions over the conversation's
 * messages, oldest first.
 */

/** References kept at most: the first message's id and the latest ones (long threads stay readable to every client). */
export const MAX_REFERENCES = 20;

/** A Message-ID in its `<left@right>` form: no spaces, angle brackets or control characters inside. */
// eslint-disable-next-line no-control-regex
const MESSAGE_ID = /^<[^<>\s\u0000-\u001f\u007f]+>$/;

/**
 * `<id>` for a stored Message-ID (with or without its brackets), or null for one that is not a
 * single well-formed id: an inbound message's header is the sender's text, and must not carry
 * anything into ours.
 */
export function normalMessageId(id: string | null | undefined): string | null {
  if (id === null || id === undefined) return null;
  const trimmed = id.trim();
  const bracketed = trimmed.startsWith('<') ? trimmed : `<${trimmed}>`;
  return MESSAGE_ID.test(bracketed) && bracketed.length <= 998 ? bracketed : null;
}

/**
 * References of an answer to the thread whose Message-IDs are `ids` (oldest first): each once, in
 * order; beyond MAX_REFERENCES the first one (the thread's root) and the latest others.
 */
export function referencesOf(ids: readonly string[]): string[] {
  const unique = [...new Set(ids)];
  if (unique.length <= MAX_REFERENCES) return unique;
  return [unique[0]!, ...unique.slice(unique.length - (MAX_REFERENCES - 1))];
}

/** "Re:" and the prefixes mail clients use for it in other languages ("AW:", "SV:", "Antw:"), with an optional count ("Re[2]:"). */
const REPLY_PREFIX = /^\s*(?:re|aw|sv|antw|vs)\s*(?:\[\d+\]|\(\d+\))?\s*:\s*/i;

/** Subjects are at most this long in a request; one taken from the thread is cut to it too. */
export const MAX_SUBJECT = 300;

/** "Re: " and the subject without the reply prefixes it already has, so they do not stack: "Re: Re: Hi" is "Re: Hi". */
export function replySubject(subject: string): string {
  let base = subject.replace(/[\r\n]+/g, ' ').trim();
  for (let prev = ''; prev !== base; ) {
    prev = base;
    base = base.replace(REPLY_PREFIX, '');
  }
  const reply = base === '' ? 'Re:' : `Re: ${base}`;
  return [...reply].length <= MAX_SUBJECT ? reply : [...reply].slice(0, MAX_SUBJECT).join('').trimEnd();
}

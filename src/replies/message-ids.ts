/**
 * Message-IDs as they appear in headers (`<abc@host>`, sometimes bare, sometimes with comments
 * around them) reduced to the bare `abc@host`, so ids from any header compare equal.
 */
export function bareMessageId(value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const ids = messageIdsIn(value);
  return ids[0] ?? null;
}

/**
 * Every id in an In-Reply-To or References value, in header order (References lists the thread
 * oldest first). Bracketed ids win; a value without brackets is split on whitespace and commas.
 */
export function messageIdsIn(value: string | readonly string[] | null | undefined): string[] {
  if (value === null || value === undefined) return [];
  const text = typeof value === 'string' ? value : value.join(' ');
  const bracketed = [...text.matchAll(/<([^<>\s]+)>/g)].map((m) => m[1] as string);
  const ids = bracketed.length > 0 ? bracketed : text.split(/[\s,]+/).filter((t) => t.includes('@'));
  return [...new Set(ids.map((id) => id.trim()).filter((id) => id.length > 0 && id.length <= 998))];
}

/**
 * The ids to look a sent email up by, best first: In-Reply-To names the message answered; after it
 * the References chain from its newest end, since a reply to a follow-up lists the first email too.
 */
export function candidateIds(inReplyTo: readonly string[], references: readonly string[]): string[] {
  return [...new Set([...inReplyTo, ...[...references].reverse()])];
}

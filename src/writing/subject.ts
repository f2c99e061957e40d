import { clean } from './facts';

/** "Re: <previous subject>", without stacking prefixes ("Re: Re: ..."). Null when there is no previous subject. */
export function replySubject(previous: string | null | undefined): string | null {
  const p = clean(previous, 200);
  if (p === null) return null;
  const base = p.replace(/^((re|fwd?|aw)\s*:\s*)+/i, '');
  return base === '' ? null : `Re: ${base}`;
}

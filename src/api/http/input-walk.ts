/**
 * The one walk over a request's input (path parameters, query, JSON body) before its schema is
 * checked: how deeply it nests, and whether every string can be stored.
 *
 * Iterative on purpose. JSON.parse reads any depth without recursion, but a recursive walk over
 * 8,000 nested arrays (16 KB of `[`) overflows the stack, and a RangeError there was a 500 on
 * every JSON route. The depth is checked as the walk descends, so no input deeper than the limit
 * is ever walked further, by this code or by anything after it.
 */

/**
 * Deepest nesting of objects and arrays a request may have: `{}` is 1, `{"a": []}` is 2. No
 * request body of this API nests deeper than 4 (a campaign's `audience.exclude.titles`), and the
 * calendar providers' webhook payloads a few levels more; 32 leaves ample room for both.
 */
export const MAX_INPUT_DEPTH = 32;

// An unpaired UTF-16 surrogate: JSON can spell one (`"\\ud800"`), UTF-8 cannot encode it.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * Text the database cannot store as given: PostgreSQL text and jsonb refuse U+0000 (a database
 * error, i.e. a 500, in whichever query first met it), and an unpaired surrogate would be written
 * as U+FFFD, silently changing the value. No field of this API has a use for either, so input
 * holding one is refused up front, naming where.
 */
function isStorableText(s: string): boolean {
  return !s.includes('\u0000') && !LONE_SURROGATE.test(s);
}

/** A value still to visit, and how to name where it is (built only when a problem is found). */
interface Pending {
  readonly value: unknown;
  readonly depth: number;
  readonly parent: Pending | undefined;
  readonly key: string;
}

function pathOf(p: Pending): string {
  const keys: string[] = [];
  for (let at: Pending | undefined = p; at !== undefined; at = at.parent) keys.push(at.key);
  return keys.reverse().join('.');
}

/**
 * The first problem of `value` as a client message naming where it is (`part` is the root's
 * name: params, query or body), or undefined when there is none. Values are visited in document
 * order, so the message names the first offending string, as a reader of the request would.
 */
export function inputProblem(value: unknown, part: string): string | undefined {
  const stack: Pending[] = [{ value, depth: 0, parent: undefined, key: part }];
  while (stack.length > 0) {
    const at = stack.pop() as Pending;
    const v = at.value;
    if (typeof v === 'string') {
      if (!isStorableText(v)) return `${pathOf(at)} must be text without NUL characters (\\u0000) or unpaired surrogates`;
      continue;
    }
    if (v === null || typeof v !== 'object') continue;
    const depth = at.depth + 1;
    if (depth > MAX_INPUT_DEPTH) return `${part} is nested too deeply: at most ${MAX_INPUT_DEPTH} levels of objects and arrays`;
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], depth, parent: at, key: String(i) });
      continue;
    }
    const entries = Object.entries(v as Record<string, unknown>);
    for (const [key] of entries) if (!isStorableText(key)) return `${pathOf(at)} must be text without NUL characters (\\u0000) or unpaired surrogates`;
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, item] = entries[i] as [string, unknown];
      stack.push({ value: item, depth, parent: at, key });
    }
  }
  return undefined;
}

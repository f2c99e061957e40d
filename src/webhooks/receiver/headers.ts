import type * as signing from '../signing';
import type { Same } from './same';

/** The spec's signature header, and its twin during a secret rotation (names in lower case). */
export const SIGNATURE_HEADER = 'x-service-signature';
export const PREVIOUS_SIGNATURE_HEADER = 'x-service-signature-previous';
// The names the service signs under (type-only import: nothing of the service loads at run time).
const NAMES_AGREE: [Same<typeof SIGNATURE_HEADER, typeof signing.SIGNATURE_HEADER>, Same<typeof PREVIOUS_SIGNATURE_HEADER, typeof signing.PREVIOUS_SIGNATURE_HEADER>] = [true, true];
void NAMES_AGREE;

/**
 * Request headers as receivers hold them: Node's `req.headers` (lower-case names; a repeated
 * header may be an array), a plain object with any casing, or a WHATWG `Headers` (fetch, undici,
 * most edge runtimes).
 */
export type HeaderSource = { get(name: string): string | null } | Readonly<Record<string, string | readonly string[] | undefined>>;

function isHeadersObject(source: HeaderSource): source is { get(name: string): string | null } {
  return typeof (source as { get?: unknown }).get === 'function';
}

/**
 * The value of header `name` (lower case), or undefined when absent. A repeated header comes back
 * joined with ", " as Node joins unknown headers: a signature header sent twice then matches
 * nothing, which is the safe answer.
 */
export function headerValue(source: HeaderSource, name: string): string | undefined {
  if (isHeadersObject(source)) return source.get(name)?.trim() ?? undefined;
  let value = source[name];
  if (value === undefined) {
    const key = Object.keys(source).find((k) => k.toLowerCase() === name);
    value = key === undefined ? undefined : source[key];
  }
  if (value === undefined) return undefined;
  return (typeof value === 'string' ? value : value.join(', ')).trim();
}

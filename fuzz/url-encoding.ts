/**
 * Percent-encoding that can spell what encodeURIComponent refuses. A lone surrogate is written
 * as the three bytes UTF-8 would give its code unit (ED A0 80 for U+D800, as a sloppy client or a
 * CESU-8 encoder sends it) instead of throwing, so such a value reaches the server's decoder.
 */
const UNRESERVED = /[A-Za-z0-9\-._~]/;

function utf8BytesOf(codePoint: number): number[] {
  if (codePoint < 0x80) return [codePoint];
  if (codePoint < 0x800) return [0xc0 | (codePoint >> 6), 0x80 | (codePoint & 0x3f)];
  if (codePoint < 0x10000) return [0xe0 | (codePoint >> 12), 0x80 | ((codePoint >> 6) & 0x3f), 0x80 | (codePoint & 0x3f)];
  return [0xf0 | (codePoint >> 18), 0x80 | ((codePoint >> 12) & 0x3f), 0x80 | ((codePoint >> 6) & 0x3f), 0x80 | (codePoint & 0x3f)];
}

const hex = (b: number): string => `%${b.toString(16).toUpperCase().padStart(2, '0')}`;

export function percentEncode(value: string | Buffer): string {
  if (Buffer.isBuffer(value)) return [...value].map(hex).join('');
  let out = '';
  for (let i = 0; i < value.length; i++) {
    const ch = value[i] as string;
    if (UNRESERVED.test(ch)) {
      out += ch;
      continue;
    }
    // codePointAt pairs a valid surrogate pair and returns a lone surrogate's own code unit.
    const cp = value.codePointAt(i) as number;
    if (cp > 0xffff) i++;
    out += utf8BytesOf(cp).map(hex).join('');
  }
  return out;
}

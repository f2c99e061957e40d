/**
 * JSON text the fuzzer writes itself. Much of what it sends has no JavaScript value that
 * JSON.stringify would turn into it: `1e400`, `-0`, `NaN`, a 2^64 integer, 10,000 levels of
 * nesting, bytes that are not UTF-8. Such pieces are `RawJson` leaves in an otherwise ordinary
 * value, written out verbatim.
 */
export class RawJson {
  constructor(
    /** The exact text (or bytes) written in place of a value. */
    readonly chunk: string | Buffer,
    /** How a report shows it, when the chunk itself is too long to print. */
    readonly summary?: string,
  ) {}
}

export type JsonLike = null | boolean | number | string | RawJson | readonly JsonLike[] | { readonly [key: string]: JsonLike };

// Strings go through JSON.stringify, which spells a lone surrogate as `\ud800` (well-formed
// JSON.stringify, ES2019): the text stays valid UTF-8 and the server's parser meets the escape.
function write(value: JsonLike, out: (string | Buffer)[]): void {
  if (value instanceof RawJson) {
    out.push(value.chunk);
  } else if (Array.isArray(value)) {
    out.push('[');
    value.forEach((item, i) => {
      if (i > 0) out.push(',');
      write(item, out);
    });
    out.push(']');
  } else if (value !== null && typeof value === 'object') {
    out.push('{');
    Object.entries(value).forEach(([key, item], i) => {
      out.push(`${i > 0 ? ',' : ''}${JSON.stringify(key)}:`);
      write(item, out);
    });
    out.push('}');
  } else if (typeof value === 'number' && !Number.isFinite(value)) {
    // The tokens a JavaScript or Python client prints for these: not JSON, a parse error is right.
    out.push(String(value));
  } else if (typeof value === 'number' && Object.is(value, -0)) {
    out.push('-0');
  } else {
    out.push(JSON.stringify(value));
  }
}

/** The bytes of `value` as JSON text (raw pieces verbatim). */
export function renderJson(value: JsonLike): Buffer {
  const parts: (string | Buffer)[] = [];
  write(value, parts);
  return Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : p)));
}

const SHOWN_CHARS = 48;

function abbreviateString(s: string): string {
  const escaped = JSON.stringify(s);
  if (s.length <= SHOWN_CHARS) return escaped;
  return `${JSON.stringify(s.slice(0, SHOWN_CHARS))}…(${s.length} UTF-16 units)`;
}

/**
 * `value` for a report: the shape in full, long strings and raw pieces cut, so that a 100 KB
 * string or 8,000 levels of nesting take one line. `renderJson` gives the bytes to replay.
 */
export function describeJson(value: JsonLike): string {
  if (value instanceof RawJson) {
    if (value.summary !== undefined) return value.summary;
    const text = typeof value.chunk === 'string' ? value.chunk : `bytes ${value.chunk.toString('hex')}`;
    return text.length <= SHOWN_CHARS ? text : `${text.slice(0, SHOWN_CHARS)}…(${text.length} chars)`;
  }
  if (Array.isArray(value)) return `[${value.map(describeJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.entries(value)
      .map(([k, v]) => `${abbreviateString(k)}:${describeJson(v)}`)
      .join(',')}}`;
  }
  if (typeof value === 'string') return abbreviateString(value);
  if (typeof value === 'number' && Object.is(value, -0)) return '-0';
  return String(value);
}

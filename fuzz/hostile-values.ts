import fc from 'fast-check';
import type { JsonSchema } from './operations';
import { RawJson, type JsonLike } from './raw-json';

/**
 * The five families of input the mutation run sends, as fast-check arbitraries. Each value comes
 * with a label that says what it is in words ("1e400", "lone surrogate", "8000 levels of arrays"):
 * the report groups failures by it.
 */
export const MUTATION_KINDS = ['deep-nesting', 'numbers', 'strings', 'dates', 'wrong-types'] as const;
export type MutationKind = (typeof MUTATION_KINDS)[number];

export interface HostileValue {
  readonly value: JsonLike;
  readonly label: string;
}

/** What a value replaces: a member of the body, a query or path parameter, or the whole body. */
export interface TargetInfo {
  readonly where: 'body' | 'query' | 'path';
  /** The member or parameter name (undefined for the whole body). */
  readonly name?: string;
  readonly schema?: JsonSchema;
}

const raw = (text: string | Buffer, summary?: string): RawJson => new RawJson(text, summary);

// ---- deep nesting -------------------------------------------------------------------------

/**
 * Thousands of levels: arrays (2 bytes a level), objects (`{"a":`, 6), or both in turn. In a
 * body, up to 50,000 levels of objects (300 KB, still under the 1 MB limit: the depth has to be
 * refused, not the size). In a URL, up to 4,000: percent-encoded, that stays under the HTTP
 * server's 64 KB, past which it answers 431 before the application sees the request.
 */
function deepNesting(target: TargetInfo): fc.Arbitrary<HostileValue> {
  const depth =
    target.where === 'body'
      ? fc.oneof(fc.integer({ min: 1_000, max: 12_000 }), fc.constantFrom(2_000, 8_000, 20_000, 50_000))
      : fc.oneof(fc.integer({ min: 1_000, max: 4_000 }), fc.constant(2_000));
  return fc.record({ depth, shape: fc.constantFrom('arrays', 'objects', 'arrays and objects') }).map(({ depth: d, shape }) => {
    let text: string;
    if (shape === 'arrays') text = '['.repeat(d) + ']'.repeat(d);
    else if (shape === 'objects') text = '{"a":'.repeat(d) + '1' + '}'.repeat(d);
    else text = '[{"a":'.repeat(Math.floor(d / 2)) + 'null' + '}]'.repeat(Math.floor(d / 2));
    const label = `${d} levels of ${shape}`;
    return { value: raw(text, `<${label}>`), label };
  });
}

// ---- numbers ------------------------------------------------------------------------------

/** Written as JSON text: most have no double that JSON.stringify would print this way. */
const NUMBER_TOKENS = [
  '1e308', '-1e308', '1.7976931348623157e308', '1e309', '1e400', '-1e400', '1e-400', '4.9e-324', '5e-324',
  '-0', '-0.0', '0e0', '-0e-0', '0.0000000000000000000001', '1E2', '1.0',
  '9007199254740992', '9007199254740993', '-9007199254740993', '18446744073709551616', '-9223372036854775809',
  '123456789012345678901234567890', '2147483648', '-2147483649',
  // Not JSON at all: what some clients print for non-finite and odd numbers.
  'NaN', '-NaN', 'Infinity', '-Infinity', '+1', '.5', '01', '0x10', '1_000',
];

function numberBoundaries(schema: JsonSchema | undefined): string[] {
  const out: string[] = [];
  for (const key of ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'minLength', 'maxLength', 'minItems', 'maxItems']) {
    const n = schema?.[key];
    if (typeof n !== 'number') continue;
    out.push(String(n - 1), String(n + 1), `${n}.5`, `${n}.0000000000000001`, `${n}e0`);
  }
  return out;
}

function numbers(target: TargetInfo): fc.Arbitrary<HostileValue> {
  const token = (t: string): HostileValue => ({ value: raw(t), label: `number ${t.length > 24 ? `${t.slice(0, 24)}…` : t}` });
  const boundaries = numberBoundaries(target.schema);
  return fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...NUMBER_TOKENS).map(token) },
    { weight: boundaries.length > 0 ? 2 : 0, arbitrary: fc.constantFrom(...(boundaries.length > 0 ? boundaries : ['0'])).map(token) },
    { weight: 1, arbitrary: fc.bigInt({ min: -(2n ** 256n), max: 2n ** 256n }).map((b) => token(b.toString())) },
    { weight: 1, arbitrary: fc.integer({ min: 300, max: 100_000 }).map((e) => token(`${e % 2 === 0 ? '' : '-'}1e${e}`)) },
    // NaN, the infinities and -0 included: written as the tokens JavaScript prints for them.
    { weight: 2, arbitrary: fc.double().map((d) => ({ value: d, label: `number ${Object.is(d, -0) ? '-0' : String(d)}` })) },
    { weight: 1, arbitrary: fc.integer({ min: 400, max: 20_000 }).map((n) => ({ value: raw('9'.repeat(n)), label: `an integer of ${n} digits` })) },
    { weight: 1, arbitrary: fc.integer({ min: 400, max: 20_000 }).map((n) => ({ value: raw(`0.${'0'.repeat(n)}1`), label: `a fraction of ${n} zeros` })) },
  );
}

// ---- strings ------------------------------------------------------------------------------

const ODD_STRINGS: ReadonlyArray<readonly [string, string]> = [
  ['\ud800', 'lone high surrogate'],
  ['\udfff', 'lone low surrogate'],
  ['a\udc00\ud800b', 'reversed surrogate pair'],
  ['\u0000', 'NUL'],
  ['name\u0000suffix', 'NUL inside'],
  ['\u202eexe.fdp\u202c', 'right-to-left override'],
  ['\u200fשלום\u200e', 'RTL and LTR marks'],
  ['\u200b', 'zero-width space'],
  ['\ufeffBOM', 'byte order mark'],
  ['\uffff\ufffe', 'noncharacters'],
  ['\u{10ffff}', 'last code point'],
  ['👩‍👩‍👧‍👦', 'emoji ZWJ sequence'],
  ['🇺🇳🏳️‍🌈', 'flag emoji'],
  [`e${'\u0301'.repeat(64)}`, 'combining marks'],
  ['Z̴̡̪̫͖̥̔̿̃̈̏̎͠͝á̸̲̟̺̱̥̭̍̎ḻ̶̝̼̘̰̈́̆͘g̷̛̗̝̞', 'zalgo text'],
  ['\r\nX-Injected: 1', 'CRLF'],
  ['   ', 'blank'],
  ['', 'empty'],
  ['\t', 'tab'],
  ['=1+1', 'formula'],
  ['＝1＋1', 'full-width formula'],
  ["' OR 1=1 --", 'SQL quote'],
  ['%00%ff%', 'percent signs'],
  ['../../../etc/passwd', 'path traversal'],
  ['<script>alert(1)</script>', 'markup'],
  ['\\', 'backslash'],
  ['İıß', 'case folding'],
  ['ａｃｍｅ．ｅｘａｍｐｌｅ', 'full-width letters'],
];

/** Bytes that are not UTF-8, inside a JSON string: a client with the wrong charset. */
const INVALID_UTF8: ReadonlyArray<readonly [number[], string]> = [
  [[0xff], 'byte FF'],
  [[0xc0, 0x80], 'overlong NUL'],
  [[0xed, 0xa0, 0x80], 'surrogate in UTF-8 (CESU)'],
  [[0xf4, 0x90, 0x80, 0x80], 'beyond U+10FFFF'],
  [[0xe2, 0x82], 'truncated sequence'],
];

const LONG_UNITS: ReadonlyArray<readonly [string, string]> = [
  ['x', 'x'],
  ['😀', 'emoji'],
  ['a\u0301', 'a with combining acute'],
  ['\u202e', 'RTL override'],
  ['ش', 'Arabic letter'],
];

function longString(target: TargetInfo): fc.Arbitrary<HostileValue> {
  // In a URL, past 64 KB the HTTP server answers 431 before the application: still measured, rarely.
  const sizes = target.where === 'body' ? [1_024, 100 * 1_024, 300 * 1_024] : [1_024, 8 * 1_024, 20 * 1_024, 1_024, 8 * 1_024, 100 * 1_024];
  return fc.record({ unit: fc.constantFrom(...LONG_UNITS), size: fc.constantFrom(...sizes) }).map(({ unit, size }) => {
    const s = unit[0].repeat(Math.ceil(size / unit[0].length));
    return { value: s, label: `${Math.round(size / 1024)} K of ${unit[1]}` };
  });
}

function lengthBoundaries(target: TargetInfo): fc.Arbitrary<HostileValue> | undefined {
  const max = target.schema?.['maxLength'];
  if (typeof max !== 'number' || max > 200_000) return undefined;
  return fc.constantFrom(
    { value: 'x'.repeat(max), label: 'maxLength' },
    { value: 'x'.repeat(max + 1), label: 'maxLength + 1' },
    // maxLength counts code points: as many emoji is twice the UTF-16 units and four times the bytes.
    { value: '😀'.repeat(max), label: 'maxLength emoji' },
    { value: `${'x'.repeat(max - 1)}\ud800`, label: 'maxLength ending in a lone surrogate' },
  );
}

/**
 * Odd URLs and addresses, for members that hold one. Every host is loopback (port 2, where nothing
 * listens), reserved (.invalid, .example) or malformed: a route that fetches at once fails at once,
 * and nothing reaches a real host even outside the fuzz namespace.
 */
const ODD_ADDRESSES: ReadonlyArray<readonly [string, string]> = [
  ['http://[::ffff:127.0.0.1]:2/', 'IPv4-mapped IPv6 loopback'],
  ['http://[::ffff:7f00:1]:2/', 'IPv4-mapped IPv6 loopback, hex'],
  ['http://2130706433:2/', 'decimal IPv4 loopback'],
  ['http://0177.0.0.1:2/', 'octal IPv4 loopback'],
  ['http://0x7f.0.0.1:2/', 'hex IPv4 loopback'],
  ['http://127.1:2/', 'short IPv4 loopback'],
  ['http://[::1]:2/', 'IPv6 loopback'],
  ['http://[::]:2/', 'IPv6 unspecified'],
  ['http://0.0.0.0:2/', 'IPv4 unspecified'],
  ['http://[fe80::1%25lo]:2/', 'IPv6 with a zone'],
  ['http://[::1', 'unclosed IPv6 bracket'],
  ['https://a..example/', 'empty label'],
  ['https://-a.example/', 'label starting with a hyphen'],
  [`https://${'a'.repeat(64)}.example/`, '64-character label'],
  [`https://${'a.'.repeat(130)}example/`, 'host over 253 characters'],
  ['https://a.example:99999/', 'port out of range'],
  ['https://a.example:-1/', 'negative port'],
  ['https://user:pw@a.example/', 'credentials in the URL'],
  ['https://ä.invalid/', 'IDN host'],
  ['https://xn--.invalid/', 'bad punycode'],
  ['https://a.example/\u0000', 'NUL in the path'],
  ['https://a.example/%', 'bare percent'],
  ['https://a.example\\@b.invalid/', 'backslash before @'],
  ['//a.example/', 'scheme-relative'],
  ['https:///', 'no host'],
  ['javascript:alert(1)', 'javascript: URL'],
  ['file:///etc/passwd', 'file: URL'],
  ['data:text/html,<b>x</b>', 'data: URL'],
  ['ftp://a.example/', 'ftp: URL'],
  ['a@b@c.example', 'two @'],
  ['"a b"@a.example', 'quoted local part'],
  ['a@[127.0.0.1]', 'address literal domain'],
  ['ä@ü.example', 'non-ASCII address'],
  [`${'a'.repeat(65)}@a.example`, '65-character local part'],
  ['a@a.example\r\nBcc: b@b.example', 'header injection'],
];

export function isAddressLike(target: TargetInfo): boolean {
  const format = target.schema?.['format'];
  if (format === 'uri' || format === 'email') return true;
  return /url|link|email|domain|^u$/i.test(target.name ?? '');
}

function strings(target: TargetInfo): fc.Arbitrary<HostileValue> {
  const boundaries = lengthBoundaries(target);
  return fc.oneof(
    { weight: isAddressLike(target) ? 4 : 0, arbitrary: fc.constantFrom(...ODD_ADDRESSES).map(([value, label]) => ({ value, label })) },
    { weight: 5, arbitrary: fc.constantFrom(...ODD_STRINGS).map(([value, label]) => ({ value, label })) },
    { weight: 2, arbitrary: longString(target) },
    { weight: boundaries ? 2 : 0, arbitrary: boundaries ?? fc.constant({ value: '', label: 'empty' }) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(...INVALID_UTF8).map(([bytes, label]) => ({
        value: raw(Buffer.from([0x22, 0x61, ...bytes, 0x62, 0x22]), `"a<${label}>b"`),
        label,
      })),
    },
    // Any code point, lone surrogates included, and whole grapheme clusters.
    { weight: 2, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 40 }).map((value) => ({ value, label: 'random code points' })) },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 }).map((value) => ({ value, label: 'random graphemes' })) },
  );
}

// ---- dates --------------------------------------------------------------------------------

const DATE_TOKENS = [
  '2026-02-30', '2026-02-29', '2025-02-29', '2100-02-29', '2026-04-31', '2026-13-01', '2026-00-10', '2026-01-00', '2026-01-32',
  '0000-01-01', '0001-01-01', '1000-01-01', '1899-12-31', '1969-12-31', '1970-01-01', '9999-12-31', '9999-12-31T24:00:00Z',
  '9999-12-31T23:59:59.999Z', '-000001-01-01', '+275760-09-13', '+275760-09-14', '-271821-04-19', '+010000-01-01',
  '10000-01-01', '99999-12-31', '2026-06-01T25:00:00Z', '2026-06-01T23:59:60Z', '2026-06-01T12:00:00+99:99',
  '2026-06-01T12:00:00.123456789Z', '2026-06-01 12:00', '2026-6-1', '20260601', '2026-W23-1', '2026-152', '2026-02',
  '0000-00', '9999-99', '2026-01', '1969-12', '2026', 'month', 'today', 'now', '٢٠٢٦-٠٦-٠١', '２０２６-０６-０１',
  '2026–06–01', ' 2026-06-01 ', '2026-06-01\u0000',
];

const pad = (n: number, width: number): string => String(Math.abs(n)).padStart(width, '0');

const dates: fc.Arbitrary<HostileValue> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...DATE_TOKENS).map((d) => ({ value: d, label: `date ${JSON.stringify(d)}` })) },
  {
    // Years at the edges (0, 1, 9999, 10000, negative, six digits) with a real day or an impossible
    // one: year 0 is a valid date to a format check and refused by PostgreSQL.
    weight: 3,
    arbitrary: fc
      .record({
        y: fc.oneof(fc.constantFrom(0, 1, 99, 999, 1000, 1582, 1899, 1969, 1970, 2038, 9999, 10000, -1, 275760, 294276, 294277), fc.integer({ min: -99_999, max: 999_999 })),
        m: fc.oneof(fc.constantFrom(1, 2, 12), fc.integer({ min: 0, max: 13 })),
        d: fc.oneof(fc.constantFrom(1, 28, 29, 31), fc.integer({ min: 0, max: 32 })),
      })
      .map(({ y, m, d }) => {
        const year = y < 0 ? `-${pad(y, 6)}` : y > 9999 ? `+${pad(y, 6)}` : pad(y, 4);
        const value = `${year}-${pad(m, 2)}-${pad(d, 2)}`;
        return { value, label: `date ${value}` };
      }),
  },
  {
    // Real instants from 271,821 BC to 275,760 AD, as JavaScript writes them.
    weight: 1,
    arbitrary: fc.date({ min: new Date(-8.64e15), max: new Date(8.64e15), noInvalidDate: true }).map((d) => ({ value: d.toISOString(), label: 'instant anywhere in the Date range' })),
  },
);

// ---- wrong types --------------------------------------------------------------------------

export type JsonType = 'object' | 'array' | 'string' | 'number' | 'boolean' | 'null';

const WRONG_TYPED: ReadonlyArray<readonly [JsonLike, JsonType, string]> = [
  [[], 'array', 'empty array'],
  [[{}], 'array', 'array of an object'],
  [[[]], 'array', 'nested array'],
  [['a', 1, null], 'array', 'mixed array'],
  [{}, 'object', 'empty object'],
  [{ a: 1 }, 'object', 'object'],
  [{ '': null, constructor: 'x', toString: 1 }, 'object', 'object with odd keys'],
  [raw('{"__proto__":{"isAdmin":true}}'), 'object', 'object with a __proto__ member'],
  [0, 'number', 'number 0'],
  [1, 'number', 'number 1'],
  [-1, 'number', 'number -1'],
  [1.5, 'number', 'number 1.5'],
  ['', 'string', 'empty string'],
  ['1', 'string', 'string "1"'],
  ['true', 'string', 'string "true"'],
  ['null', 'string', 'string "null"'],
  [true, 'boolean', 'true'],
  [false, 'boolean', 'false'],
  [null, 'null', 'null'],
];

/** The JSON types a schema accepts (integer counted as number), its anyOf/oneOf branches included. */
export function schemaTypes(schema: JsonSchema | undefined): Set<JsonType> {
  const out = new Set<JsonType>();
  if (!schema) return out;
  const t = schema['type'];
  for (const type of Array.isArray(t) ? t : t === undefined ? [] : [t]) out.add(type === 'integer' ? 'number' : (type as JsonType));
  for (const key of ['anyOf', 'oneOf']) {
    const branches = schema[key];
    if (Array.isArray(branches)) for (const b of branches as JsonSchema[]) for (const type of schemaTypes(b)) out.add(type);
  }
  return out;
}

function wrongTypes(target: TargetInfo): fc.Arbitrary<HostileValue> {
  const accepted = schemaTypes(target.schema);
  const wrong = WRONG_TYPED.filter(([, type]) => !accepted.has(type));
  // null is the one tried most: every member, optional or not, gets it.
  return fc.oneof(
    { weight: 1, arbitrary: fc.constant({ value: null, label: 'null' }) },
    { weight: 4, arbitrary: fc.constantFrom(...(wrong.length > 0 ? wrong : WRONG_TYPED)).map(([value, , label]) => ({ value, label })) },
  );
}

// ---- by kind ------------------------------------------------------------------------------

export function hostileValue(kind: MutationKind, target: TargetInfo): fc.Arbitrary<HostileValue> {
  switch (kind) {
    case 'deep-nesting':
      return deepNesting(target);
    case 'numbers':
      return numbers(target);
    case 'strings':
      return strings(target);
    case 'dates':
      return dates;
    case 'wrong-types':
      return wrongTypes(target);
  }
}

/** Members and parameters that hold dates or periods, where the dates family is aimed first. */
export function isDateLike(target: TargetInfo): boolean {
  const format = target.schema?.['format'];
  if (format === 'date' || format === 'date-time') return true;
  return /date|^from$|^to$|^start$|^end$|period|_at$|At$/i.test(target.name ?? '');
}

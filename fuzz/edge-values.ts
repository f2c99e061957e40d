import { isDateLike, schemaTypes, type HostileValue, type JsonType, type MutationKind, type TargetInfo } from './hostile-values';
import { RawJson, type JsonLike } from './raw-json';

/**
 * The edge cases of the mutation run: values named in the issue and the classic breakers of each
 * family, each one tried at every member or parameter where it applies, one at a time, on an
 * otherwise valid request. Random combinations (hostile-values.ts) may never land year 0000 on
 * `schedule.start_date`; this list does, every run.
 */
const rawValue = (text: string, label: string): HostileValue => ({ value: new RawJson(text), label });

/** 8,000 levels (16 KB): the depth that made every JSON route answer 500. */
const DEEP: HostileValue = { value: new RawJson('['.repeat(8_000) + ']'.repeat(8_000), '<8000 levels of arrays>'), label: '8000 levels of arrays' };

const NUMBERS: readonly HostileValue[] = [
  rawValue('1e308', 'number 1e308'),
  rawValue('-0', 'number -0'),
  rawValue('1e400', 'number 1e400'),
  rawValue('-1e400', 'number -1e400'),
  rawValue('NaN', 'number NaN'),
  rawValue('Infinity', 'number Infinity'),
  rawValue('9007199254740993', 'number 2^53 + 1'),
  rawValue('123456789012345678901234567890', 'number of 30 digits'),
];

const STRINGS = (where: TargetInfo['where']): readonly HostileValue[] => [
  { value: '\ud800', label: 'lone high surrogate' },
  { value: 'a\u0000b', label: 'NUL inside' },
  { value: '\u202eexe.fdp', label: 'right-to-left override' },
  { value: '👩‍👩‍👧‍👦', label: 'emoji ZWJ sequence' },
  { value: `e${'\u0301'.repeat(64)}`, label: 'combining marks' },
  // In a URL, 100 KB would only meet the HTTP server's 64 KB limit (431): 20 KB there.
  where === 'body' ? { value: 'x'.repeat(100 * 1024), label: '100 K of x' } : { value: 'x'.repeat(20 * 1024), label: '20 K of x' },
];

const DATES: readonly HostileValue[] = ['2026-02-30', '0000-01-01', '9999-12-31T24:00:00Z', '-000001-01-01', '+275760-09-13', '2026-13-01', '10000-01-01', '1969-12-31'].map((d) => ({
  value: d,
  label: `date ${d}`,
}));

function jsonTypeOf(value: JsonLike): JsonType {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value === 'object' ? 'object' : (typeof value as 'string' | 'number' | 'boolean');
}

/** null, an array where none goes (an object where one does), a number for a string (or the reverse). */
function wrongTypes(target: TargetInfo): HostileValue[] {
  const accepted = schemaTypes(target.schema);
  const candidates: HostileValue[] = [
    { value: null, label: 'null' },
    accepted.has('array') ? { value: {}, label: 'empty object' } : { value: [], label: 'empty array' },
    accepted.has('string') ? { value: 1, label: 'number 1' } : { value: '1', label: 'string "1"' },
  ];
  return candidates.filter((v) => !accepted.has(jsonTypeOf(v.value)));
}

/** The edge values of `kind` that apply to `target` (none: the family has nothing to try there). */
export function edgeValues(kind: MutationKind, target: TargetInfo): readonly HostileValue[] {
  const types = schemaTypes(target.schema);
  switch (kind) {
    case 'deep-nesting':
      // In a body only: in a URL the same text is just a long string (the random cases send it).
      return target.where === 'body' ? [DEEP] : [];
    case 'numbers':
      return types.has('number') ? NUMBERS : [];
    case 'strings':
      return types.has('string') ? STRINGS(target.where) : [];
    case 'dates':
      return isDateLike(target) ? DATES : [];
    case 'wrong-types':
      return target.schema === undefined ? [] : wrongTypes(target);
  }
}

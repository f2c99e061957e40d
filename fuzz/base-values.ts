import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { JsonSchema } from './operations';

/**
 * A valid value for a schema: the body every mutation starts from, so that a case breaks one
 * member and the rest of the request is fine (a bad date then reaches the code that stores it,
 * instead of the request stopping at a missing field). Objects get their required members only;
 * the fuzzer adds optional ones when it mutates them. Candidates are checked with Ajv against the
 * schema itself, so a pattern or a length the guess does not meet is never used.
 */
export interface BaseValueHints {
  /** Preferred strings by member name, tried first (e.g. `mcp` has a catalog the schema cannot say). */
  readonly byName: Readonly<Record<string, readonly string[]>>;
}

const ajv = addFormats(new Ajv({ strict: false, validateFormats: true }));
const compiled = new WeakMap<object, ValidateFunction>();

export function validates(schema: JsonSchema, value: unknown): boolean {
  let validate = compiled.get(schema);
  if (!validate) {
    validate = ajv.compile(schema as object);
    compiled.set(schema, validate);
  }
  return validate(structuredClone(value));
}

const FORMAT_CANDIDATES: Record<string, string[]> = {
  date: ['2031-03-03'],
  'date-time': ['2031-03-03T10:00:00Z'],
  email: ['ada@acme.example'],
  uri: ['https://acme.example/'],
  uuid: ['7d444840-9dc0-11d1-b245-5ffdce74fad2'],
};

const GENERIC_STRINGS = ['sample', 'acme.example', 'month', '09:00', 'sk-fuzz-0123456789abcdef', 'x'];

function typesOf(schema: JsonSchema): string[] {
  const t = schema['type'];
  return Array.isArray(t) ? (t as string[]) : typeof t === 'string' ? [t] : [];
}

function stringCandidates(schema: JsonSchema, name: string | undefined, hints: BaseValueHints): string[] {
  const minLength = typeof schema['minLength'] === 'number' ? schema['minLength'] : 0;
  return [
    ...(name !== undefined ? (hints.byName[name] ?? []) : []),
    ...(FORMAT_CANDIDATES[String(schema['format'])] ?? []),
    ...GENERIC_STRINGS,
    'x'.repeat(Math.max(1, minLength)),
  ];
}

function numberFor(schema: JsonSchema): number {
  if (typeof schema['default'] === 'number') return schema['default'];
  const min = typeof schema['minimum'] === 'number' ? schema['minimum'] : -Infinity;
  const max = typeof schema['maximum'] === 'number' ? schema['maximum'] : Infinity;
  return Math.min(Math.max(1, min), max);
}

const MAX_DEPTH = 12;

/** A valid value for `schema` (`name`: the member it is for), or undefined when no guess fits. */
export function baseValue(schema: JsonSchema, hints: BaseValueHints, name?: string, depth = 0): unknown {
  if (depth > MAX_DEPTH) return undefined;
  const candidates: unknown[] = [];
  if ('const' in schema) candidates.push(schema['const']);
  if (Array.isArray(schema['enum'])) candidates.push(...(schema['enum'] as unknown[]).filter((v) => v !== null), ...(schema['enum'] as unknown[]));
  if ('default' in schema) candidates.push(schema['default']);
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const branches = schema[key];
    if (Array.isArray(branches)) for (const b of branches as JsonSchema[]) candidates.push(baseValue(b, hints, name, depth + 1));
  }
  for (const type of typesOf(schema)) {
    switch (type) {
      case 'object': {
        const props = (schema['properties'] ?? {}) as Record<string, JsonSchema>;
        const required = new Set((schema['required'] ?? []) as string[]);
        const minProperties = typeof schema['minProperties'] === 'number' ? schema['minProperties'] : 0;
        const obj: Record<string, unknown> = {};
        for (const [key, prop] of Object.entries(props)) {
          if (!required.has(key) && Object.keys(obj).length >= minProperties) continue;
          const v = baseValue(prop, hints, key, depth + 1);
          if (v !== undefined) obj[key] = v;
        }
        candidates.push(obj);
        break;
      }
      case 'array': {
        const minItems = typeof schema['minItems'] === 'number' ? schema['minItems'] : 0;
        const item = baseValue((schema['items'] ?? {}) as JsonSchema, hints, name, depth + 1);
        candidates.push(Array.from({ length: minItems }, () => item));
        break;
      }
      case 'string':
        candidates.push(...stringCandidates(schema, name, hints));
        break;
      case 'integer':
      case 'number':
        candidates.push(numberFor(schema));
        break;
      case 'boolean':
        candidates.push(true);
        break;
      case 'null':
        candidates.push(null);
        break;
      default:
        break;
    }
  }
  if (candidates.length === 0 && typesOf(schema).length === 0) candidates.push(...stringCandidates(schema, name, hints));
  return candidates.find((c) => c !== undefined && validates(schema, c));
}

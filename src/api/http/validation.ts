import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { TSchema } from '@sinclair/typebox';
import { badRequest } from './errors';

/**
 * Two Ajv instances: path and query values arrive as strings and are coerced to the declared
 * types ("2" -> 2); JSON bodies are not coerced, so a string where a number belongs is a 400.
 */
function createAjv(coerce: boolean): Ajv {
  const ajv = new Ajv({ allErrors: false, coerceTypes: coerce, useDefaults: true, strict: false });
  addFormats(ajv);
  return ajv;
}

const ajvCoercing = createAjv(true);
const ajvStrict = createAjv(false);

export type Part = 'params' | 'query' | 'body' | 'response';

function describe(part: Part, err: ErrorObject): string {
  const where = `${part}${err.instancePath.replace(/\//g, '.')}`;
  switch (err.keyword) {
    case 'additionalProperties':
      return `${where} has unknown field ${JSON.stringify((err.params as { additionalProperty: string }).additionalProperty)}`;
    case 'required':
      return `${where} is missing required field ${JSON.stringify((err.params as { missingProperty: string }).missingProperty)}`;
    case 'enum':
      return `${where} must be one of ${((err.params as { allowedValues: unknown[] }).allowedValues).map((v) => JSON.stringify(v)).join(', ')}`;
    default:
      return `${where} ${err.message ?? 'is invalid'}`;
  }
}

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

/** The path of the first string (or object key) in `value` that is not storable text. */
function findUnstorableText(value: unknown, path: string): string | undefined {
  if (typeof value === 'string') return isStorableText(value) ? undefined : path;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findUnstorableText(value[i], `${path}.${i}`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (!isStorableText(key)) return path;
      const found = findUnstorableText(item, `${path}.${key}`);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

export interface CompiledValidator {
  /** Validates (and for params/query coerces in place); throws a 400 naming the first problem. */
  (value: unknown): void;
}

export function compileValidator(part: Part, schema: TSchema): CompiledValidator {
  const ajv = part === 'body' || part === 'response' ? ajvStrict : ajvCoercing;
  const validate: ValidateFunction = ajv.compile(schema);
  return (value: unknown) => {
    if (part !== 'response') {
      const where = findUnstorableText(value, part);
      if (where !== undefined) throw badRequest(`${where} must be text without NUL characters (\\u0000) or unpaired surrogates`);
    }
    if (!validate(value)) {
      const first = validate.errors?.[0];
      throw badRequest(first ? describe(part, first) : `${part} is invalid`);
    }
  };
}

import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { TSchema } from '@sinclair/typebox';
import { addDateFormats, FORMAT_RULES } from './date-formats';
import { NOT_BLANK } from './common-schemas';
import { badRequest } from './errors';
import { inputProblem } from './input-walk';

/**
 * Two Ajv instances: path and query values arrive as strings and are coerced to the declared
 * types ("2" -> 2); JSON bodies are not coerced, so a string where a number belongs is a 400.
 */
function createAjv(coerce: boolean): Ajv {
  const ajv = new Ajv({ allErrors: false, coerceTypes: coerce, useDefaults: true, strict: false });
  addFormats(ajv);
  addDateFormats(ajv);
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
    case 'format': {
      const rule = FORMAT_RULES[(err.params as { format: string }).format];
      return `${where} ${rule ?? err.message ?? 'is invalid'}`;
    }
    case 'pattern':
      // The schemas' "not blank" (see NOT_BLANK in common-schemas.ts), said in words.
      return (err.params as { pattern: string }).pattern === NOT_BLANK ? `${where} must not be blank` : `${where} ${err.message ?? 'is invalid'}`;
    case 'enum':
      return `${where} must be one of ${((err.params as { allowedValues: unknown[] }).allowedValues).map((v) => JSON.stringify(v)).join(', ')}`;
    default:
      return `${where} ${err.message ?? 'is invalid'}`;
  }
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
      // Before the schema: input nested past the limit, or holding text that cannot be stored, goes no further.
      const problem = inputProblem(value, part);
      if (problem !== undefined) throw badRequest(problem);
    }
    if (!validate(value)) {
      const first = validate.errors?.[0];
      throw badRequest(first ? describe(part, first) : `${part} is invalid`);
    }
  };
}

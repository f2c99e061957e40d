import Ajv, { type ValidateFunction } from 'ajv';
import { LlmOutputError } from './errors';
import type { JsonOutputSpec, LlmProviderName, LlmUsage } from './types';

// Not strict: the schemas are written for the providers, whose dialects carry keywords Ajv's
// strict mode would reject; what matters here is that the answer has the declared shape.
const ajv = new Ajv({ allErrors: true, strict: false });
const compiled = new WeakMap<object, ValidateFunction>();

function validatorFor(spec: JsonOutputSpec): ValidateFunction {
  let validate = compiled.get(spec.schema);
  if (validate === undefined) {
    validate = ajv.compile(spec.schema);
    compiled.set(spec.schema, validate);
  }
  return validate;
}

/**
 * Checks a value the provider produced (already an object, or JSON text) against the requested
 * schema. Providers' structured-output modes make a mismatch rare, not impossible (a truncated
 * answer, a proxy without strict mode), so the answer is never trusted unchecked.
 */
export function parseJsonOutput<T>(provider: LlmProviderName, spec: JsonOutputSpec, answer: unknown, usage: LlmUsage): T {
  let value = answer;
  if (typeof answer === 'string') {
    try {
      value = JSON.parse(answer) as unknown;
    } catch {
      throw new LlmOutputError(provider, 'invalid_json', usage, `The ${spec.name} answer is not JSON: ${JSON.stringify(answer.slice(0, 120))}`);
    }
  }
  const validate = validatorFor(spec);
  if (!validate(value)) {
    const why = ajv.errorsText(validate.errors, { dataVar: spec.name });
    throw new LlmOutputError(provider, 'schema_mismatch', usage, `The ${spec.name} answer does not match its schema: ${why}`);
  }
  return value as T;
}

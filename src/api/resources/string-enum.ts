import { Type } from '@sinclair/typebox';

/**
 * A string from a fixed list, as a JSON Schema `enum` rather than a union of literals: a wrong
 * value is then answered "must be one of …", naming the valid ones.
 */
export function StringEnum<T extends string>(values: readonly T[], options: { description?: string; default?: NoInfer<T> } = {}) {
  return Type.Unsafe<T>({ type: 'string', enum: [...values], ...options });
}

import { Type, type ObjectOptions, type TObject, type TProperties } from '@sinclair/typebox';

/**
 * The two surfaces name the same fields in two casings: Surface A in snake_case, Surface B in
 * camelCase. Schemas both share are written once, with snake_case names, and built in either
 * casing when the module loads; responses are then plain object literals in that casing.
 */
export type Casing = 'snake' | 'camel';

/** `emails_sent` as camelCase: `emailsSent`. */
export type CamelCase<S extends string> = S extends `${infer Head}_${infer Tail}` ? `${Head}${Capitalize<CamelCase<Tail>>}` : S;

export type Cased<C extends Casing, S extends string> = C extends 'camel' ? CamelCase<S> : S;

/** A snake_case name in `casing`. */
export function cased<C extends Casing, S extends string>(casing: C, name: S): Cased<C, S> {
  return (casing === 'camel' ? name.replace(/_([a-z0-9])/g, (_match, next: string) => next.toUpperCase()) : name) as Cased<C, S>;
}

type CasedProperties<C extends Casing, P extends TProperties> = { [K in keyof P & string as Cased<C, K>]: P[K] };

/**
 * Type.Object with its property names, written snake_case, in `casing` (this level only: a nested
 * object shared by both surfaces is a CasedObject too). Property order, and so the order of
 * `required` and of the OpenAPI document, is the order written.
 */
export function CasedObject<C extends Casing, P extends TProperties>(casing: C, properties: P, options?: ObjectOptions): TObject<CasedProperties<C, P>> {
  const renamed: TProperties = {};
  for (const [name, schema] of Object.entries(properties)) renamed[cased(casing, name)] = schema;
  return Type.Object(renamed, options) as unknown as TObject<CasedProperties<C, P>>;
}

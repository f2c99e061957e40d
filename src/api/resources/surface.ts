import { cased, type Casing } from './campaigns/casing';

/**
 * What sets a route of one API surface apart from its twin on the other, besides the schemas and
 * presenters of its casing: Surface A (`Authorization: Bearer`, snake_case) at the root, Surface B
 * (`X-API-Key`, camelCase) under /v1 with v1-prefixed operation ids. A resource whose two surfaces
 * differ in nothing else declares its routes once, for a Surface.
 */
export interface Surface<C extends Casing = Casing> {
  readonly auth: 'a' | 'b';
  readonly casing: C;
  /** The route's path on this surface, from its Surface A path. */
  readonly path: (path: string) => string;
  /** The route's OpenAPI operationId on this surface, from its Surface A id. */
  readonly operationId: (id: string) => string;
}

export const SURFACE_A: Surface<'snake'> = { auth: 'a', casing: 'snake', path: (path) => path, operationId: (id) => id };

export const SURFACE_B: Surface<'camel'> = {
  auth: 'b',
  casing: 'camel',
  path: (path) => `/v1${path}`,
  operationId: (id) => `v1${id.charAt(0).toUpperCase()}${id.slice(1)}`,
};

/**
 * A validated query or body with its top-level members in the domain's casing (camelCase): the
 * inverse of CasedObject, for a handler shared by both surfaces. `T` is Surface B's type of the
 * same schema, whose members are camelCase already; the route's schema checked the input before
 * the handler runs, so only the names differ.
 */
export function inDomainCasing<T extends object>(casing: Casing, input: object): T {
  if (casing === 'camel') return input as T;
  return Object.fromEntries(Object.entries(input).map(([name, value]) => [cased('camel', name), value])) as T;
}

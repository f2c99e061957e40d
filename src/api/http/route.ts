import type { Readable } from 'node:stream';
import type { Static, TSchema } from '@sinclair/typebox';
import type { Context } from 'koa';
import type { AuthContext } from '../../auth/authenticate';
import type { Logger } from '../../log/logger';
import type { AppDeps } from '../deps';

/**
 * Who may call a route:
 * - 'a': Surface A, `Authorization: Bearer <key>`;
 * - 'b': Surface B, `X-API-Key: <key>`;
 * - 'none': public (health, docs, tracking, inbound endpoints that check their own secret).
 */
export type RouteAuth = 'a' | 'b' | 'none';
export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface ResponseSpec {
  readonly description: string;
  /** JSON body schema; omit for a non-JSON body (set `contentType`). */
  readonly schema?: TSchema;
  readonly contentType?: string;
  /** Further content types of the same response (e.g. an export in CSV or JSON). */
  readonly alsoContentTypes?: readonly string[];
}

type InputOf<S> = S extends TSchema ? Static<S> : undefined;

export interface HandlerInput<P, Q, B> {
  readonly params: InputOf<P>;
  readonly query: InputOf<Q>;
  readonly body: InputOf<B>;
  /** The request body as bytes, for routes declaring `rawBody` with mode 'buffer'. */
  readonly raw?: Buffer;
  /** The request body read back from its temporary file, for routes declaring `rawBody` with mode 'spool'. */
  readonly upload?: Readable;
}

/**
 * A route whose body is not JSON (CSV, raw MIME, a webhook whose signature covers the exact
 * bytes). The content type is checked (415) before the handler runs. 'buffer' reads at most
 * `maxBytes` (413 beyond) into `input.raw`; 'stream' leaves `ctx.koa.req` unread for the handler,
 * which must enforce its own limit; 'spool' receives the whole body (at most `maxBytes`) into a
 * temporary file before the handler runs, and hands it over as `input.upload` (spooled-upload.ts).
 */
export interface RawBodySpec {
  readonly contentTypes: readonly string[];
  readonly maxBytes: number;
  readonly mode: 'buffer' | 'stream' | 'spool';
  readonly description: string;
}

export interface HandlerContext<A extends RouteAuth> {
  readonly deps: AppDeps;
  readonly log: Logger;
  /** Present on authenticated routes. */
  readonly auth: A extends 'none' ? undefined : AuthContext;
  /** The raw Koa context, for the rare handler that streams or sets headers. */
  readonly koa: Context;
}

export interface HandlerResult {
  readonly status?: number;
  readonly body: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * Everything about one endpoint in one place. The same object validates requests (Ajv), wires the
 * Koa route, and becomes its OpenAPI operation, so the document cannot drift from the code.
 */
export interface RouteSpec<A extends RouteAuth, P extends TSchema | undefined, Q extends TSchema | undefined, B extends TSchema | undefined> {
  readonly method: HttpMethod;
  /** Koa-style path, e.g. `/campaigns/:id`. */
  readonly path: string;
  readonly auth: A;
  readonly operationId: string;
  readonly summary: string;
  readonly description?: string;
  readonly tags: readonly string[];
  readonly params?: P;
  readonly query?: Q;
  readonly body?: B;
  /** Instead of a JSON `body`: a raw body (see RawBodySpec). */
  readonly rawBody?: RawBodySpec;
  /** Documented responses by status. Error statuses are added by the OpenAPI builder. */
  readonly responses: Readonly<Record<number, ResponseSpec>>;
  /** Statuses of errors this route may answer, beyond those every route of its kind may give. */
  readonly errors?: readonly number[];
  /** Not listed in the OpenAPI document (e.g. the docs page itself). */
  readonly hidden?: boolean;
  /**
   * Takes an `Idempotency-Key` header (idempotency.ts): a retry with the same key and request
   * answers the first answer again and does nothing new. Authenticated routes only; a raw body
   * must be 'spool' (its hash is needed before the work starts).
   */
  readonly idempotent?: boolean;
  readonly handler: (input: HandlerInput<P, Q, B>, ctx: HandlerContext<A>) => Promise<HandlerResult>;
}

// The route list is heterogeneous; the precise types only matter inside each declaration.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyRoute = RouteSpec<RouteAuth, any, any, any>;

/** Identity function that makes TypeScript infer the input types of the handler from the schemas. */
export function defineRoute<A extends RouteAuth, P extends TSchema | undefined = undefined, Q extends TSchema | undefined = undefined, B extends TSchema | undefined = undefined>(
  spec: RouteSpec<A, P, Q, B>,
): RouteSpec<A, P, Q, B> {
  return spec;
}

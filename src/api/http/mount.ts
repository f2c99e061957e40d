import Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import { koaBody } from 'koa-body';
import type { AppDeps } from '../deps';
import type { AccountRateLimits } from '../rate-limit/account-rate-limits';
import { applyRateDecision } from '../rate-limit/rate-limit-headers';
import { authenticate } from './auth-middleware';
import { unsupportedMediaType } from './errors';
import { bodyDigest, idempotencyKeyOf, idempotently } from './idempotency';
import { readRawBody } from './raw-body';
import type { AnyRoute, HandlerContext, RouteAuth } from './route';
import { spoolUpload, type SpooledUpload } from './spooled-upload';
import { compileValidator, type CompiledValidator } from './validation';

export const BODY_LIMIT = '1mb';

const jsonBody = koaBody({
  json: true,
  urlencoded: false,
  text: false,
  multipart: false,
  jsonLimit: BODY_LIMIT,
  jsonStrict: true,
  // koa-body's default parsedMethods (POST, PUT, PATCH): bodies on GET/DELETE are ignored.
});

/** The same, keeping the body's text (`ctx.request.rawBody`) for an Idempotency-Key's request hash. */
const jsonBodyWithText = koaBody({
  json: true,
  urlencoded: false,
  text: false,
  multipart: false,
  jsonLimit: BODY_LIMIT,
  jsonStrict: true,
  includeUnparsed: true,
});

function requireJson(ctx: Context): void {
  // An empty body (no length, or `Content-Length: 0` as fetch sends for a bodiless POST) is fine
  // whatever its content type says: the schema decides whether a body is required.
  const empty = ctx.request.length === undefined || ctx.request.length === 0;
  if (empty && ctx.get('transfer-encoding') === '') return;
  if (!ctx.is('application/json')) throw unsupportedMediaType('Content-Type must be application/json');
}

/**
 * What a handler gets besides its input. `log` stays lazy: reading it creates the request's child
 * logger (request-context.ts), which most handlers never use.
 *
 * A class, so that the getter is shared: an object literal with `get log()` is created with an
 * accessor of its own, which V8 allocates in the old generation. Made per request, its closure
 * kept every request's objects (context, headers, response body) from dying young, since the
 * young-generation collector takes old-to-young pointers as live: all of them were promoted and
 * left for full collections. Measured in a bare Koa server with this middleware: 2.5 MB promoted
 * per young collection, and 40 µs of CPU per request instead of 22.
 */
class RouteHandlerContext implements HandlerContext<'a'> {
  constructor(
    readonly deps: AppDeps,
    readonly auth: HandlerContext<'a'>['auth'],
    readonly koa: Context,
  ) {}

  get log(): HandlerContext<'a'>['log'] {
    return (this.koa.state.log as HandlerContext<'a'>['log'] | undefined) ?? this.deps.log;
  }
}

interface Validators {
  params?: CompiledValidator;
  query?: CompiledValidator;
  body?: CompiledValidator;
  responses: Map<number, CompiledValidator>;
}

function compile(route: AnyRoute, validateResponses: boolean): Validators {
  const responses = new Map<number, CompiledValidator>();
  if (validateResponses) {
    for (const [status, spec] of Object.entries(route.responses)) {
      if (spec.schema) responses.set(Number(status), compileValidator('response', spec.schema));
    }
  }
  return {
    params: route.params ? compileValidator('params', route.params) : undefined,
    query: route.query ? compileValidator('query', route.query) : undefined,
    body: route.body ? compileValidator('body', route.body) : undefined,
    responses,
  };
}

/**
 * Authentication and the rate limit of an authenticated route: sets `ctx.state.auth` and the
 * rate-limit headers, or throws the 401/429.
 */
function admission(surface: Exclude<RouteAuth, 'none'>, deps: AppDeps, limits: AccountRateLimits): (ctx: Context) => Promise<void> {
  return async (ctx) => {
    const auth = await authenticate(ctx, surface, deps);
    ctx.state.auth = auth;
    applyRateDecision(ctx, await limits.take(surface, auth));
  };
}

/** Validates the request's input, runs the handler and sets the response. */
function handling(route: AnyRoute, v: Validators, deps: AppDeps): (ctx: Context) => Promise<void> {
  return async (ctx) => {
    const params: Record<string, unknown> = { ...ctx.params };
    const query: Record<string, unknown> = { ...ctx.query };
    v.params?.(params);
    v.query?.(query);
    const rawBody: unknown = route.body ? (ctx.request.body ?? {}) : undefined;
    v.body?.(rawBody);
    const raw = ctx.state.rawBody as Buffer | undefined;
    const upload = (ctx.state.upload as SpooledUpload | undefined)?.open();
    const handlerCtx = new RouteHandlerContext(deps, ctx.state.auth as HandlerContext<'a'>['auth'], ctx);
    const result = await route.handler({ params, query, body: rawBody, raw, upload } as never, handlerCtx as never);
    const status = result.status ?? 200;
    const check = v.responses.get(status);
    if (check) {
      try {
        check(JSON.parse(JSON.stringify(result.body)));
      } catch (err) {
        throw new Error(`Response of ${route.operationId} (${status}) does not match its schema: ${(err as Error).message}`);
      }
    }
    ctx.status = status;
    if (result.headers) ctx.set(result.headers);
    ctx.body = result.body;
  };
}

interface RouterOfSegment {
  readonly router: Router;
  readonly dispatch: ReturnType<Router['routes']>;
}

// The first segment of a path, when it is literal text: `/campaigns/:id` -> `campaigns`.
const LITERAL_FIRST_SEGMENT = /^\/([A-Za-z0-9._~-]*)(?:\/|$)/;

/**
 * The routes, one @koa/router per first path segment (`/campaigns/...`, `/v1/...`, ...). A router
 * tests a request's path against every route it holds, allocating as it goes: with the 57 routes
 * in one router, routing was the largest single allocation of GET /campaigns/:id (a sixth of its
 * garbage, ~10 KB). A request is matched against the routes of its own first segment only, which
 * are the only ones that can match it: route paths are matched case-insensitively, so segments
 * are compared in lower case. A route whose first segment is not literal (a parameter) goes
 * into every router, in declaration order, so matching stays exactly that of a single router.
 */
export class RouteTable {
  private readonly bySegment = new Map<string, RouterOfSegment>();
  private readonly others: RouterOfSegment;

  constructor(routes: readonly { readonly path: string; readonly register: (router: Router) => void }[]) {
    const segmentOf = (path: string): string | undefined => LITERAL_FIRST_SEGMENT.exec(path)?.[1]?.toLowerCase();
    const segments = new Set(routes.map((r) => segmentOf(r.path)).filter((s): s is string => s !== undefined));
    const routers = new Map([...segments].map((s) => [s, new Router()]));
    const others = new Router();
    for (const route of routes) {
      const segment = segmentOf(route.path);
      for (const router of segment === undefined ? [...routers.values(), others] : [routers.get(segment) as Router]) route.register(router);
    }
    for (const [segment, router] of routers) this.bySegment.set(segment, { router, dispatch: router.routes() });
    this.others = { router: others, dispatch: others.routes() };
  }

  private routerFor(path: string): RouterOfSegment {
    const end = path.indexOf('/', 1);
    const segment = (end < 0 ? path.slice(1) : path.slice(1, end)).toLowerCase();
    return this.bySegment.get(segment) ?? this.others;
  }

  /** Koa middleware dispatching each request to its route, as @koa/router's `routes()`. */
  routes(): Middleware {
    return (ctx, next) => this.routerFor(ctx.path).dispatch(ctx as Parameters<RouterOfSegment['dispatch']>[0], next);
  }

  /** @koa/router's `match`: the routes matching `path`, and whether one takes `method`. */
  match(path: string, method: string): ReturnType<Router['match']> {
    return this.routerFor(path).router.match(path, method);
  }
}

/**
 * Turns each route declaration into a Koa route: auth -> rate limit -> [body] -> validate ->
 * handler. Handlers receive validated, typed input and never read the raw request themselves.
 * Every authenticated request counts against its account's limit on its surface; public routes
 * (health, docs, tracking, inbound) are not counted.
 *
 * Each route is one middleware, the steps awaited in turn inside it, except that a JSON body is
 * read by koa-body's own middleware in between: every middleware in a chain is another promise,
 * bound `next` and microtask hop on every request of the route.
 */
export function mountRoutes(routes: readonly AnyRoute[], deps: AppDeps, limits: AccountRateLimits): RouteTable {
  return new RouteTable(
    routes.map((route) => {
      const chain = routeChain(route, deps, limits);
      return { path: route.path, register: (router: Router) => router.register(route.path, [route.method.toUpperCase()], chain, { name: route.operationId }) };
    }),
  );
}

/**
 * The handler, once per Idempotency-Key on a route declared `idempotent` (idempotency.ts): the
 * key is read (a malformed one is a 400) before the body, which is hashed before the work starts.
 */
function idempotencyGuard(route: AnyRoute, deps: AppDeps, handle: (ctx: Context) => Promise<void>) {
  if (route.idempotent === true && (route.auth === 'none' || route.rawBody?.mode === 'stream')) {
    throw new Error(`${route.operationId}: an idempotent route needs an account (auth) and a body it can hash before the work (not mode 'stream')`);
  }
  return {
    keyOf: (ctx: Context): string | undefined => (route.idempotent === true ? idempotencyKeyOf(ctx) : undefined),
    /** `bodySha256` is asked for only when there is a key. */
    run: (ctx: Context, key: string | undefined, bodySha256: () => string): Promise<void> =>
      key === undefined ? handle(ctx) : idempotently(deps, ctx, key, bodySha256(), () => handle(ctx)),
  };
}

function routeChain(route: AnyRoute, deps: AppDeps, limits: AccountRateLimits): Middleware[] {
  const handle = handling(route, compile(route, deps.config.validateResponses), deps);
  const guard = idempotencyGuard(route, deps, handle);
  // Authentication and the rate limit first: neither an unknown nor an over-limit caller can make us read a 1 MB body.
  const admit = route.auth === 'none' ? undefined : admission(route.auth, deps, limits);
  if (route.body) {
    if (route.idempotent === true) {
      return [
        async (ctx, next) => {
          if (admit) await admit(ctx);
          requireJson(ctx);
          ctx.state.idempotencyKey = guard.keyOf(ctx);
          await next();
        },
        jsonBodyWithText,
        (ctx) => guard.run(ctx, ctx.state.idempotencyKey as string | undefined, () => bodyDigest(ctx.request.rawBody)),
      ];
    }
    return [
      async (ctx, next) => {
        if (admit) await admit(ctx);
        requireJson(ctx);
        await next();
      },
      jsonBody,
      handle,
    ];
  }
  if (route.rawBody) {
    const spec = route.rawBody;
    return [
      async (ctx) => {
        if (admit) await admit(ctx);
        if (!ctx.is(...spec.contentTypes)) throw unsupportedMediaType(`Content-Type must be ${spec.contentTypes.join(' or ')}`);
        const key = guard.keyOf(ctx);
        if (spec.mode === 'buffer') ctx.state.rawBody = await readRawBody(ctx, spec.maxBytes);
        if (spec.mode !== 'spool') return guard.run(ctx, key, () => bodyDigest(ctx.state.rawBody as Buffer | undefined));
        const upload = await spoolUpload(ctx, spec.maxBytes);
        ctx.state.upload = upload;
        try {
          await guard.run(ctx, key, () => upload.sha256);
        } finally {
          await upload.remove();
        }
      },
    ];
  }
  return [
    async (ctx) => {
      if (admit) await admit(ctx);
      await guard.run(ctx, guard.keyOf(ctx), () => bodyDigest(undefined));
    },
  ];
}

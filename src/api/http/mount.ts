import Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import { koaBody } from 'koa-body';
import type { AppDeps } from '../deps';
import type { AccountRateLimits } from '../rate-limit/account-rate-limits';
import { applyRateDecision } from '../rate-limit/rate-limit-headers';
import { authenticate } from './auth-middleware';
import { unsupportedMediaType } from './errors';
import { readRawBody } from './raw-body';
import type { AnyRoute, HandlerContext } from './route';
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

function requireJson(ctx: Context): void {
  // An empty body (no length, or `Content-Length: 0` as fetch sends for a bodiless POST) is fine
  // whatever its content type says: the schema decides whether a body is required.
  const empty = ctx.request.length === undefined || ctx.request.length === 0;
  if (empty && ctx.get('transfer-encoding') === '') return;
  if (!ctx.is('application/json')) throw unsupportedMediaType('Content-Type must be application/json');
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
 * Turns each route declaration into a Koa route: auth -> rate limit -> [body parser] -> validate
 * -> handler. Handlers receive validated, typed input and never read the raw request themselves.
 * Every authenticated request counts against its account's limit on its surface; public routes
 * (health, docs, tracking, inbound) are not counted.
 */
export function mountRoutes(routes: readonly AnyRoute[], deps: AppDeps, limits: AccountRateLimits): Router {
  const router = new Router();
  for (const route of routes) {
    const v = compile(route, deps.config.validateResponses);
    // Authentication and the rate limit first: neither an unknown nor an over-limit caller can make us read a 1 MB body.
    const surface = route.auth;
    const chain: Middleware[] =
      surface === 'none'
        ? []
        : [
            async (ctx, next) => {
              const auth = await authenticate(ctx, surface, deps);
              ctx.state.auth = auth;
              applyRateDecision(ctx, await limits.take(surface, auth));
              await next();
            },
          ];
    if (route.body) {
      chain.push(async (ctx, next) => {
        requireJson(ctx);
        await next();
      }, jsonBody);
    } else if (route.rawBody) {
      const spec = route.rawBody;
      chain.push(async (ctx, next) => {
        if (!ctx.is(...spec.contentTypes)) throw unsupportedMediaType(`Content-Type must be ${spec.contentTypes.join(' or ')}`);
        if (spec.mode === 'buffer') ctx.state.rawBody = await readRawBody(ctx, spec.maxBytes);
        await next();
      });
    }
    chain.push(async (ctx) => {
      const auth = ctx.state.auth as HandlerContext<'a'>['auth'] | undefined;
      const params: Record<string, unknown> = { ...ctx.params };
      const query: Record<string, unknown> = { ...ctx.query };
      v.params?.(params);
      v.query?.(query);
      const rawBody: unknown = route.body ? (ctx.request.body ?? {}) : undefined;
      v.body?.(rawBody);
      // `log` stays lazy: reading ctx.state.log creates the request's child logger, which most handlers never use.
      const handlerCtx: HandlerContext<'a'> = {
        deps,
        get log() {
          return (ctx.state.log as HandlerContext<'a'>['log'] | undefined) ?? deps.log;
        },
        auth: auth as never,
        koa: ctx,
      };
      const raw = ctx.state.rawBody as Buffer | undefined;
      const result = await route.handler({ params, query, body: rawBody, raw } as never, handlerCtx as never);
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
    });
    router.register(route.path, [route.method.toUpperCase()], chain, { name: route.operationId });
  }
  return router;
}

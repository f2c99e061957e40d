import Koa from 'koa';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AppDeps } from './deps';
import { methodNotAllowed } from './http/errors';
import { mountRoutes } from './http/mount';
import { buildOpenApi } from './http/openapi';
import { requestContext } from './http/request-context';
import type { AnyRoute } from './http/route';
import { AccountRateLimits } from './rate-limit/account-rate-limits';
import { docsRoutes } from './resources/docs/routes';
import { openPixelHandler, type RawRequestHandler } from './resources/tracking/open-pixel';
import { RESOURCE_ROUTES } from './routes';

export interface BuiltApp {
  readonly app: Koa;
  readonly openapi: Record<string, unknown>;
}

/**
 * Koa whose request listener first offers each request to a raw handler: open-pixel loads are
 * answered there, before Koa builds a context (see open-pixel.ts); everything else goes to Koa.
 */
class ServiceApp extends Koa {
  constructor(
    options: { readonly proxy: boolean },
    private readonly raw: RawRequestHandler,
  ) {
    super(options);
  }

  override callback(): ReturnType<Koa['callback']> {
    const koa = super.callback();
    return (req, res) => (this.raw(req as IncomingMessage, res as ServerResponse) ? Promise.resolve() : koa(req, res));
  }
}

/** Builds the Koa application without listening, so tests and the entry point share it. */
export function buildApp(deps: AppDeps): BuiltApp {
  let openapi: Record<string, unknown> = {};
  const routes: AnyRoute[] = [...RESOURCE_ROUTES, ...docsRoutes(() => openapi)];
  openapi = buildOpenApi(routes, {
    title: 'Campaign Outreach API',
    version: '1.0.0',
    description:
      'Outbound email campaigns, durable on Temporal. Surface A (`/campaigns…`, `Authorization: Bearer`, snake_case) and ' +
      'Surface B (`/v1/…`, `X-API-Key`, camelCase) share one store: an API key works on both, and a campaign made on either is visible on both.',
    serverUrl: deps.config.publicBaseUrl,
  });

  const app = new ServiceApp({ proxy: deps.config.trustProxy }, openPixelHandler(deps));
  app.silent = true; // errors are logged by requestContext (answerError) with the request id, not by Koa
  const table = mountRoutes(routes, deps, new AccountRateLimits(deps.sequelize, deps.config.rateLimits));
  app.use(requestContext(deps.log));
  app.use(table.routes());
  app.use(async (ctx) => {
    // Reached only when no route answered. A known path with the wrong method: 405 with Allow, rather than a misleading 404.
    const matched = table.match(ctx.path, ctx.method);
    if (matched.path.length > 0 && !matched.route) {
      const allowed = [...new Set(matched.path.flatMap((l) => l.methods))].filter((m) => m !== 'HEAD');
      throw methodNotAllowed(allowed);
    }
  });
  return { app, openapi };
}

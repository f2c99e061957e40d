import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import type { Logger } from '../../log/logger';

// A caller's request id is kept only when it is a sane token, so it cannot inject into logs.
const SANE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Gives every request an id (the caller's X-Request-Id or a new one), a child logger carrying it,
 * and one log line when the response is finished.
 */
export function requestContext(log: Logger): Middleware {
  return async (ctx, next) => {
    const given = ctx.get('x-request-id');
    const requestId = SANE_ID.test(given) ? given : randomUUID();
    ctx.set('X-Request-Id', requestId);
    ctx.state.requestId = requestId;
    // The request's child logger is made only when something logs through it: most requests log
    // just the one line below, and a pino child per request is a measurable share of a cheap call.
    let reqLog: Logger | undefined;
    Object.defineProperty(ctx.state, 'log', { get: () => (reqLog ??= log.child({ requestId })), enumerable: true });
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const route = (ctx as { _matchedRoute?: string })._matchedRoute;
      log.info(
        { requestId, method: ctx.method, path: ctx.path, route, status: ctx.status, ms: Math.round(ms * 100) / 100, accountId: ctx.state.auth?.accountId },
        'request',
      );
    }
  };
}

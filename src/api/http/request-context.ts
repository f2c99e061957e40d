import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import type { Logger } from '../../log/logger';
import { answerError, answerUnrouted } from './error-middleware';

// A caller's request id is kept only when it is a sane token, so it cannot inject into logs.
const SANE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * `ctx.state` of every request: its id, and its child logger, made on first use. Most requests
 * log just their one line (below), and a pino child per request is a measurable share of a cheap
 * call, hence the lazy `log`.
 *
 * The getter is the class's, not defined on each request's state with a closure of its own: V8
 * allocates an accessor defined per object (and, through Object.defineProperty, a hidden class for
 * it) directly in the old generation, so every request left old objects behind that point at its
 * young ones, and the young-generation collector, which takes such pointers as live, kept the
 * request's objects until the next full collection. See mount.ts, where that cost the most.
 */
export class RequestState {
  /** Set by mount.ts: `auth` on authenticated routes, `rawBody` on routes that read one. */
  [key: string]: unknown;
  private requestLog: Logger | undefined;

  constructor(
    readonly requestId: string,
    private readonly parentLog: Logger,
  ) {}

  get log(): Logger {
    return (this.requestLog ??= this.parentLog.child({ requestId: this.requestId }));
  }
}

/**
 * The outermost middleware: gives every request an id (the caller's X-Request-Id or a new one) and
 * a child logger carrying it, answers what escapes the routes as JSON errors (error-middleware.ts),
 * and writes one log line when the response is set. One middleware rather than two, as every layer
 * of Koa middleware costs each request a promise, a bound `next` and a microtask hop.
 */
export function requestContext(log: Logger): Middleware {
  return async (ctx, next) => {
    const given = ctx.get('x-request-id');
    const requestId = SANE_ID.test(given) ? given : randomUUID();
    ctx.set('X-Request-Id', requestId);
    ctx.state = new RequestState(requestId, log);
    const started = process.hrtime.bigint();
    try {
      await next();
      answerUnrouted(ctx);
    } catch (err) {
      answerError(ctx, err);
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

import type { Context } from 'koa';
import { DomainError } from '../../errors/domain-errors';
import { HttpError } from './errors';

/** The one mapping of domain errors to statuses, the same on both surfaces. */
const DOMAIN_STATUS: Record<DomainError['kind'], number> = { not_found: 404, conflict: 409, invalid: 400, unavailable: 503 };

/** Body parser (co-body / raw-body) failures carry an `expose`d status and a `type`. */
interface BodyParserError {
  status?: number;
  statusCode?: number;
  type?: string;
  expose?: boolean;
}

/** Maps library errors to the client-facing errors of errors.ts. */
export function toHttpError(err: unknown): HttpError | undefined {
  if (err instanceof HttpError) return err;
  if (err instanceof DomainError) return new HttpError(DOMAIN_STATUS[err.kind], err.message);
  const e = err as BodyParserError;
  const status = e?.status ?? e?.statusCode;
  switch (e?.type) {
    case 'entity.too.large':
      return new HttpError(413, 'Request body is larger than 1 MB');
    case 'entity.parse.failed':
      return new HttpError(400, 'Malformed JSON in request body');
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new HttpError(415, 'Unsupported content encoding or charset');
    case 'request.aborted':
      return new HttpError(400, 'Request aborted');
    case 'request.size.invalid':
      return new HttpError(400, 'Request size did not match Content-Length');
    default:
      break;
  }
  // co-body rethrows JSON.parse's SyntaxError with status 400 and no type.
  if (err instanceof SyntaxError && status === 400) return new HttpError(400, 'Malformed JSON in request body');
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return new HttpError(status, status === 413 ? 'Request body is larger than 1 MB' : 'Bad request');
  }
  return undefined;
}

/**
 * The single place that formats errors: always JSON `{"error": "..."}`, never a stack trace or an
 * HTML page. Unexpected errors are logged with the request id and answered 500. Called by the
 * request's outermost middleware (request-context.ts) with whatever escaped the routes.
 */
export function answerError(ctx: Context, err: unknown): void {
  const httpError = toHttpError(err);
  if (httpError) {
    ctx.status = httpError.status;
    ctx.set(httpError.headers);
    ctx.body = { error: httpError.message };
    return;
  }
  ctx.state.log?.error({ err }, 'unhandled error');
  ctx.status = 500;
  ctx.body = { error: 'Internal server error' };
}

/** A request no route answered is a 404 in the same format. */
export function answerUnrouted(ctx: Context): void {
  if (ctx.status === 404 && ctx.body === undefined) answerError(ctx, new HttpError(404, `No route for ${ctx.method} ${ctx.path}`));
}

import { createHash } from 'node:crypto';
import type { Context } from 'koa';
import type { AuthContext } from '../../auth/authenticate';
import type { AppDeps } from '../deps';
import { toHttpError } from './error-middleware';
import { badRequest, HttpError } from './errors';
import {
  beatKey,
  claimKey,
  completeKey,
  IDEMPOTENCY_HEARTBEAT_MS,
  IDEMPOTENCY_KEY_HOURS,
  releaseKey,
  type StoredAnswer,
} from './idempotency-repository';

/**
 * `Idempotency-Key` on the routes declared `idempotent: true` (docs/decisions.md, "Idempotent
 * creates"). The same key with the same request (method, path, query and body bytes, SHA-256)
 * within 24 hours answers the first answer again, with `Idempotent-Replayed: true`, and does
 * nothing new; with another request it is a 422; while the first is still running, a 409. Only 2xx
 * and 4xx answers are kept: a 5xx or a crash gives the key back so a retry runs.
 */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
export const REPLAYED_HEADER = 'Idempotent-Replayed';

/** 1 to 255 printable ASCII characters (space to tilde). */
const KEY_PATTERN = /^[\x20-\x7e]{1,255}$/;
export const KEY_PATTERN_SOURCE = '^[\\x20-\\x7E]{1,255}$';

/** Headers of the first answer a replay sends again; the rest (rate limits, request id) are the replay's own. */
const KEPT_HEADERS = ['Location'] as const;

/** The request's key, undefined without the header; a 400 naming the header for a malformed one. */
export function idempotencyKeyOf(ctx: Context): string | undefined {
  const given = ctx.req.headers['idempotency-key'];
  if (given === undefined) return undefined;
  // Node joins repeated headers of unknown names with ", "; two keys are not one.
  if (Array.isArray(given) || !KEY_PATTERN.test(given)) {
    throw badRequest(`${IDEMPOTENCY_KEY_HEADER} must be 1 to 255 printable ASCII characters (space to ~), once`);
  }
  return given;
}

/** SHA-256 of a body, hex; the empty body's for none. */
export function bodyDigest(body: string | Buffer | undefined): string {
  return createHash('sha256').update(body ?? '').digest('hex');
}

/** What two requests must share to be "the same request": method, path, query string and body bytes. */
function requestHash(ctx: Context, bodySha256: string): string {
  return createHash('sha256').update(`${ctx.method}\n${ctx.path}\n${ctx.querystring}\n${bodySha256}`).digest('hex');
}

function replay(ctx: Context, answer: StoredAnswer): void {
  if (answer.bodyText === null) {
    ctx.body = null;
  } else {
    // The stored text as it was sent (koa sends JSON.stringify of a body object), not re-serialised.
    ctx.body = answer.bodyText;
    ctx.type = 'application/json';
  }
  ctx.status = answer.status;
  ctx.set(answer.headers);
  ctx.set(REPLAYED_HEADER, 'true');
}

function storable(ctx: Context): StoredAnswer | undefined {
  const body: unknown = ctx.body;
  // Only what koa sends as JSON is kept: a stream, bytes or text is not (no idempotent route answers one).
  const json = body === null || body === undefined || (typeof body === 'object' && !Buffer.isBuffer(body) && typeof (body as { pipe?: unknown }).pipe !== 'function');
  if (!json) return undefined;
  const headers: Record<string, string> = {};
  for (const name of KEPT_HEADERS) {
    const value = ctx.response.get(name);
    if (value !== '') headers[name] = value;
  }
  return { status: ctx.status, bodyText: body === null || body === undefined ? null : JSON.stringify(body), headers };
}

/**
 * Runs `run` (validation and the handler, which set the response on `ctx`) at most once per
 * account and key. `bodySha256` is the digest of the request's body bytes, known before the work
 * starts: a JSON body as read, an upload as spooled (spooled-upload.ts).
 */
export async function idempotently(deps: AppDeps, ctx: Context, key: string, bodySha256: string, run: () => Promise<void>): Promise<void> {
  const accountId = (ctx.state.auth as AuthContext).accountId;
  const claim = await claimKey(deps.sequelize, { accountId, key, requestHash: requestHash(ctx, bodySha256), method: ctx.method, path: ctx.path });
  switch (claim.kind) {
    case 'replay':
      return replay(ctx, claim.answer);
    case 'different_request':
      throw new HttpError(
        422,
        `${IDEMPOTENCY_KEY_HEADER} "${key}" was used with a different request (method, path, query or body) in the last ${IDEMPOTENCY_KEY_HOURS} hours; use a new key for a new request`,
      );
    case 'in_flight':
      throw new HttpError(409, `A request with this ${IDEMPOTENCY_KEY_HEADER} is still in progress; retry once it has answered`, { 'Retry-After': '1' });
    case 'claimed':
      break;
  }
  const { token } = claim;
  const log = ctx.state.log as AppDeps['log'];
  const heartbeat = setInterval(() => {
    beatKey(deps.sequelize, accountId, key, token).catch((err: unknown) => log.warn({ err }, 'idempotency key heartbeat failed'));
  }, IDEMPOTENCY_HEARTBEAT_MS);
  heartbeat.unref();
  let answer: StoredAnswer | undefined;
  try {
    await run();
    answer = storable(ctx);
  } catch (err) {
    const httpError = toHttpError(err);
    if (httpError !== undefined && httpError.status >= 400 && httpError.status < 500) {
      // answerError will send exactly this: `{"error": message}`.
      await keep(deps, log, accountId, key, token, { status: httpError.status, bodyText: JSON.stringify({ error: httpError.message }), headers: {} });
    } else {
      await release(deps, log, accountId, key, token);
    }
    throw err;
  } finally {
    clearInterval(heartbeat);
  }
  if (answer !== undefined && answer.status >= 200 && answer.status < 500) await keep(deps, log, accountId, key, token, answer);
  else await release(deps, log, accountId, key, token);
}

/**
 * The work is done: failing to store its answer must not turn it into a 500 the client would
 * retry. The claim then stays in flight until the takeover timeout (409s meanwhile).
 */
async function keep(deps: AppDeps, log: AppDeps['log'], accountId: string, key: string, token: string, answer: StoredAnswer): Promise<void> {
  try {
    await completeKey(deps.sequelize, accountId, key, token, answer);
  } catch (err) {
    log.error({ err }, 'idempotency key answer not stored; the key is held until its claim times out');
  }
}

/** A release that fails leaves the claim to time out; the request's own error is what the client sees. */
async function release(deps: AppDeps, log: AppDeps['log'], accountId: string, key: string, token: string): Promise<void> {
  try {
    await releaseKey(deps.sequelize, accountId, key, token);
  } catch (err) {
    log.warn({ err }, 'idempotency key not released; it is taken over once its claim times out');
  }
}

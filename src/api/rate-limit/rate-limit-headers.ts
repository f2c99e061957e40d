import type { Context } from 'koa';
import { tooManyRequests } from '../http/errors';
import type { RateDecision } from './grouped-consumer';

/** Whole seconds until the window resets, at least 1 while anything is left of it. */
const seconds = (ms: number): number => Math.max(1, Math.ceil(ms / 1000));

/**
 * The IETF draft's `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset` (delta seconds)
 * on every counted response, set before the handler runs so errors carry them too; a refused
 * request is a 429 with `Retry-After` and the usual error body.
 */
export function applyRateDecision(ctx: Context, d: RateDecision): void {
  ctx.set({
    'RateLimit-Limit': String(d.limit),
    'RateLimit-Remaining': String(d.remaining),
    'RateLimit-Reset': String(seconds(d.resetMs)),
  });
  if (!d.allowed) throw tooManyRequests(seconds(d.resetMs));
}

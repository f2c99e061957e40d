import { RateLimiterRes, type RateLimiterPostgres } from 'rate-limiter-flexible';

/** What one request learns from the shared counter. */
export interface RateDecision {
  readonly allowed: boolean;
  readonly limit: number;
  /** Requests this key may still make in the current window after this one. */
  readonly remaining: number;
  /** Milliseconds until the window (and its count) starts over. */
  readonly resetMs: number;
}

interface Waiter {
  resolve(d: RateDecision): void;
  reject(err: unknown): void;
}

interface KeyQueue {
  inFlight: boolean;
  waiting: Waiter[];
}

/**
 * Counts requests per key in PostgreSQL through rate-limiter-flexible, one statement per batch
 * rather than per request: while a key's upsert is in flight, the requests that arrive for the
 * same key wait and are counted together by the next one (`consume(key, n)`). The counter is
 * atomic, so the total it returns tells each request of the batch its exact place in the window:
 * the ones at or below the limit pass, the rest are refused. Several API processes therefore
 * share one exact count (the 101st request is refused whichever process takes it), at a cost
 * that falls as the load on one account rises.
 *
 * Once a window is used up the limiter refuses from memory until it ends (the library's
 * in-memory block), so a client hammering past its limit costs no database work.
 */
export class GroupedConsumer {
  private readonly queues = new Map<string, KeyQueue>();

  constructor(private readonly limiter: RateLimiterPostgres) {}

  get limit(): number {
    return this.limiter.points;
  }

  take(key: string): Promise<RateDecision> {
    let queue = this.queues.get(key);
    if (queue === undefined) {
      queue = { inFlight: false, waiting: [] };
      this.queues.set(key, queue);
    }
    const q = queue;
    const decision = new Promise<RateDecision>((resolve, reject) => q.waiting.push({ resolve, reject }));
    if (!q.inFlight) void this.flush(key, q);
    return decision;
  }

  private async flush(key: string, q: KeyQueue): Promise<void> {
    q.inFlight = true;
    while (q.waiting.length > 0) {
      const batch = q.waiting;
      q.waiting = [];
      try {
        const res = await this.consume(key, batch.length);
        this.settle(batch, res);
      } catch (err) {
        for (const w of batch) w.reject(err);
      }
    }
    q.inFlight = false;
    // Nothing waits for this key: forget it, so the map holds only keys with requests in progress.
    this.queues.delete(key);
  }

  /** The library resolves under the limit and rejects with a RateLimiterRes over it; both carry the count. */
  private async consume(key: string, points: number): Promise<RateLimiterRes> {
    try {
      return await this.limiter.consume(key, points);
    } catch (err) {
      if (err instanceof RateLimiterRes) return err;
      throw err;
    }
  }

  private settle(batch: readonly Waiter[], res: RateLimiterRes): void {
    const limit = this.limit;
    const resetMs = Math.max(0, res.msBeforeNext);
    // consumedPoints is the window's total after this batch; an in-memory block reports 0 and
    // refuses the whole batch. The batch holds places total-n+1 .. total, in arrival order.
    const blocked = res.consumedPoints === 0;
    const first = res.consumedPoints - batch.length + 1;
    batch.forEach((w, i) => {
      const place = first + i;
      const allowed = !blocked && place <= limit;
      w.resolve({ allowed, limit, remaining: allowed ? limit - place : 0, resetMs });
    });
  }
}

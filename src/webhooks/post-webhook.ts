import { findEgressError, isPolicyRefusal, type Egress, type EgressStatus } from '../egress';

/** The longest an attempt waits for the receiver's answer (the design's 10 seconds). */
export const ATTEMPT_TIMEOUT_MS = 10_000;

/** What one POST to a receiver came to: what the delivery log records of it. */
export interface AttemptOutcome {
  readonly ok: boolean;
  readonly attemptedAt: Date;
  readonly durationMs: number;
  /** The receiver's status, when it answered at all. */
  readonly statusCode: number | null;
  /** Why the attempt failed, in a sentence for the delivery log; null when it succeeded. */
  readonly error: string | null;
  /**
   * For a failure: false when another attempt would fail the same way for certain, because the
   * egress policy refused the destination (an address, or a name resolving to one, that is private,
   * loopback, link-local, metadata...) or the URL itself. Such a delivery fails at once instead of
   * climbing the ladder.
   */
  readonly retryable: boolean;
}

/**
 * Makes one attempt: POST `body` with `headers` to `url` through the egress client's `send`,
 * which refuses private addresses on every connection, never follows a redirect and discards the
 * answer's body (receivers owe us nothing but a status). Success is a 2xx answer within 10 seconds;
 * a redirect, any other status, a connection error or no answer in time is a failure, retried on the
 * ladder; a destination the egress policy refuses is a failure that is not.
 */
export async function postWebhook(egress: Egress, url: string, body: string, headers: Readonly<Record<string, string>>): Promise<AttemptOutcome> {
  const attemptedAt = new Date();
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const res = await egress.send(url, { method: 'POST', headers, body, timeoutMs: ATTEMPT_TIMEOUT_MS });
    const durationMs = elapsed();
    if (res.status >= 200 && res.status < 300) return { ok: true, attemptedAt, durationMs, statusCode: res.status, error: null, retryable: false };
    const error = res.status >= 300 && res.status < 400 ? `redirect ${res.status}${locationOf(res)} (redirects are not followed)` : `HTTP ${res.status}`;
    return { ok: false, attemptedAt, durationMs, statusCode: res.status, error, retryable: true };
  } catch (err) {
    const egressError = findEgressError(err);
    const retryable = egressError === undefined || !isPolicyRefusal(egressError.reason);
    const reason = egressError === undefined ? (err as Error).message : `${egressError.reason}: ${egressError.message}${retryable ? '' : ' (not retried)'}`;
    return { ok: false, attemptedAt, durationMs: elapsed(), statusCode: null, error: reason.slice(0, 500), retryable };
  }
}

function locationOf(res: EgressStatus): string {
  const location = res.headers.location;
  const value = Array.isArray(location) ? location[0] : location;
  return value === undefined ? '' : ` to ${value.slice(0, 200)}`;
}

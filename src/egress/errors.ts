/**
 * Why an outbound request was not made or not finished:
 * - 'blocked_address': the host is, or resolves to, an address the policy refuses (private,
 *   loopback, link-local, metadata, ...), on the first hop or on a redirect;
 * - 'bad_url': not an absolute http(s) URL, credentials in it, or an unusable redirect Location;
 * - 'timeout': the whole exchange (connect, redirects, body) took longer than allowed;
 * - 'too_large': the body is, or announces itself as, larger than allowed;
 * - 'too_many_redirects': more redirect hops than allowed;
 * - 'network': anything else on the way (DNS failure, refused or reset connection, TLS error).
 */
export type EgressFailureReason = 'blocked_address' | 'timeout' | 'too_large' | 'too_many_redirects' | 'bad_url' | 'network';

/** The one error type the egress client throws for a request it refused or could not complete. */
export class EgressError extends Error {
  override readonly name = 'EgressError';
  constructor(
    readonly reason: EgressFailureReason,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/**
 * Whether the same request would be refused again: its URL is unusable or its destination is one the
 * policy refuses. Retrying such a request only repeats the refusal; every other failure (a timeout,
 * a refused connection, a DNS failure) may pass.
 */
export function isPolicyRefusal(reason: EgressFailureReason): boolean {
  return reason === 'blocked_address' || reason === 'bad_url';
}

/** The EgressError somewhere in an error's `cause` chain (undici wraps connector errors in "fetch failed"). */
export function findEgressError(err: unknown): EgressError | undefined {
  for (let e = err, depth = 0; e instanceof Error && depth < 8; e = e.cause, depth++) {
    if (e instanceof EgressError) return e;
  }
  return undefined;
}

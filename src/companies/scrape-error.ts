import { findEgressError, type EgressError } from '../egress';

/**
 * Why a site could not be scraped. The message is written for the API client (it becomes the
 * body of a 400); `retryable` tells the activity whether trying again later could change anything.
 */
export type ScrapeFailureKind =
  | 'blocked' // the URL, a redirect or a DNS answer points at a private or reserved address
  | 'bad_url'
  | 'timeout'
  | 'unreachable' // DNS failure, refused or reset connection, TLS error
  | 'too_large'
  | 'too_many_redirects'
  | 'http_status' // the site answered, but not with 2xx
  | 'not_html';

export class ScrapeError extends Error {
  override readonly name = 'ScrapeError';
  constructor(
    readonly kind: ScrapeFailureKind,
    message: string,
    readonly retryable: boolean,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export const BLOCKED_MESSAGE = 'url points to a private or reserved address';

/** Turns an egress failure of the target into a ScrapeError; anything else is rethrown as is. */
export function scrapeErrorFrom(err: unknown): ScrapeError {
  const e: EgressError | undefined = findEgressError(err);
  if (e === undefined) throw err;
  switch (e.reason) {
    case 'blocked_address':
      return new ScrapeError('blocked', BLOCKED_MESSAGE, false, { cause: e });
    case 'bad_url':
      return new ScrapeError('bad_url', `url cannot be fetched: ${e.message}`, false, { cause: e });
    case 'timeout':
      return new ScrapeError('timeout', `The site did not answer in time: ${e.message}`, true, { cause: e });
    case 'too_large':
      return new ScrapeError('too_large', `The page is too large to scrape: ${e.message}`, false, { cause: e });
    case 'too_many_redirects':
      return new ScrapeError('too_many_redirects', `The site redirects too often: ${e.message}`, false, { cause: e });
    case 'network':
      return new ScrapeError('unreachable', `The site is unreachable: ${e.message}`, true, { cause: e });
  }
}

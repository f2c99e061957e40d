/**
 * Failures of the lead provider, typed so the API and the activities can each answer in their own
 * terms. `retryable` tells an activity whether trying again later can help.
 */
export abstract class LeadProviderError extends Error {
  abstract readonly retryable: boolean;
}

/** 401/403: the account's Apollo key is wrong, revoked or lacks access. Only the account can fix it. */
export class ProviderKeyRejected extends LeadProviderError {
  override readonly name = 'ProviderKeyRejected';
  readonly retryable = false;
  constructor(readonly status: number) {
    super(`The Apollo key was rejected (HTTP ${status})`);
  }
}

/** 400/422: the provider refused the request itself; its own message says why. */
export class ProviderRequestRejected extends LeadProviderError {
  override readonly name = 'ProviderRequestRejected';
  readonly retryable = false;
  constructor(
    readonly status: number,
    readonly providerMessage: string,
  ) {
    super(`Apollo refused the request: ${providerMessage}`);
  }
}

/** 429 after the bounded retries: the account's Apollo quota is used up for now. */
export class ProviderRateLimited extends LeadProviderError {
  override readonly name = 'ProviderRateLimited';
  readonly retryable = true;
  constructor(readonly retryAfterSeconds: number) {
    super(`Apollo is rate limiting this account's key; try again in ${retryAfterSeconds} s`);
  }
}

/** 5xx, an unreadable answer, or no answer at all (timeout, connection refused, blocked address). */
export class ProviderUnavailable extends LeadProviderError {
  override readonly name = 'ProviderUnavailable';
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly status?: number,
  ) {
    super(message);
  }
}

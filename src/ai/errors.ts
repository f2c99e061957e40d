import { findEgressError } from '../egress';
import type { LlmProviderName, LlmUsage } from './types';

/** Any failure of an LLM call. `retryable` tells a caller (an activity) whether trying again can help. */
export abstract class LlmError extends Error {
  abstract readonly retryable: boolean;
  constructor(
    readonly provider: LlmProviderName,
    message: string,
  ) {
    super(message);
  }
}

export type LlmProviderErrorKind = 'auth' | 'permission' | 'rate_limit' | 'bad_request' | 'not_found' | 'server' | 'timeout' | 'connection' | 'blocked' | 'other';

/**
 * The provider refused or could not be reached (after the SDK's own retries). Authentication,
 * permission, bad-request and not-found errors will not heal by themselves: retrying them only
 * repeats the refusal, so they are not retryable. Rate limits, 5xx, timeouts and connection
 * errors are.
 */
export class LlmProviderError extends LlmError {
  override readonly name = 'LlmProviderError';
  readonly retryable: boolean;
  constructor(
    provider: LlmProviderName,
    readonly kind: LlmProviderErrorKind,
    readonly status: number | undefined,
    message: string,
  ) {
    super(provider, message);
    this.retryable = ['rate_limit', 'server', 'timeout', 'connection', 'other'].includes(kind);
  }
}

/** `unusable`: well-formed, but the caller's own checks refused it (e.g. a leftover placeholder). */
export type LlmOutputProblem = 'invalid_json' | 'schema_mismatch' | 'refusal' | 'truncated' | 'empty' | 'unusable';

/**
 * The provider answered, but not with what was asked (not JSON, not matching the schema, a
 * refusal, cut off at the token limit). The tokens were spent: `usage` says how many, so a caller
 * that retries can still account for them. Retryable: a second sample often succeeds.
 */
export class LlmOutputError extends LlmError {
  override readonly name = 'LlmOutputError';
  readonly retryable = true;
  constructor(
    provider: LlmProviderName,
    readonly problem: LlmOutputProblem,
    readonly usage: LlmUsage,
    message: string,
  ) {
    super(provider, message);
  }
}

const PROVIDER_LABEL: Record<LlmProviderName, string> = { openai: 'OpenAI', anthropic: 'Anthropic' };

const KIND_TEXT: Record<LlmProviderErrorKind, string> = {
  auth: "rejected the account's API key",
  permission: "refused the request for the account's API key",
  rate_limit: 'rate-limited the request',
  bad_request: 'rejected the request',
  not_found: 'does not know the model or endpoint',
  server: 'failed with a server error',
  timeout: 'did not answer in time',
  connection: 'could not be reached',
  blocked: 'is at an address the service may not connect to (check the base URL)',
  other: 'failed',
};

export function kindForStatus(status: number): LlmProviderErrorKind {
  if (status === 401) return 'auth';
  if (status === 403) return 'permission';
  if (status === 404) return 'not_found';
  if (status === 408) return 'timeout';
  if (status === 429) return 'rate_limit';
  if (status >= 500) return 'server';
  if (status >= 400) return 'bad_request';
  return 'other';
}

/**
 * A message safe to log and to show the account (a campaign's failure reason): the provider's own
 * explanation, shortened, with the key and anything key-shaped removed (providers echo partial keys).
 */
export function providerErrorMessage(provider: LlmProviderName, kind: LlmProviderErrorKind, status: number | undefined, detail: string, apiKey: string): string {
  let text = apiKey === '' ? detail : detail.split(apiKey).join('[redacted]');
  text = text.replace(/\bsk-[A-Za-z0-9_*.-]{6,}/g, '[redacted]').replace(/\s+/g, ' ').trim();
  if (text.length > 300) text = `${text.slice(0, 297)}...`;
  const head = `${PROVIDER_LABEL[provider]} ${KIND_TEXT[kind]}${status === undefined ? '' : ` (HTTP ${status})`}`;
  return text === '' ? head : `${head}: ${text}`;
}

/**
 * A failure before any HTTP answer (the SDK reports it as a connection error, the egress client's
 * reason is in its cause chain): the egress deadline is a timeout, a refused address is 'blocked'.
 */
export function connectionFailure(provider: LlmProviderName, err: Error, sdkTimedOut: boolean, apiKey: string): LlmProviderError {
  const egress = findEgressError(err);
  const kind: LlmProviderErrorKind =
    sdkTimedOut || egress?.reason === 'timeout' ? 'timeout' : egress?.reason === 'blocked_address' || egress?.reason === 'bad_url' ? 'blocked' : 'connection';
  const cause = egress ?? (err.cause instanceof Error ? err.cause : err);
  return new LlmProviderError(provider, kind, undefined, providerErrorMessage(provider, kind, undefined, cause.message, apiKey));
}

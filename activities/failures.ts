import { ApplicationFailure } from '@temporalio/common';
import { LlmError, LlmOutputError, LlmProviderError } from '../src/ai/errors';
import { isRetryableReportFailure } from '../src/campaigns/reporting/send-report';
import { ScrapeError } from '../src/companies';
import { InvalidInputError, NotFoundError, type ResourceName } from '../src/errors/domain-errors';
import { LeadProviderError, ProviderRateLimited } from '../src/leads/apollo/errors';
import { SendInProgress, SmtpSenderRejected, SmtpTemporaryFailure } from '../src/sending/send-failures';

/** `campaign` -> `CampaignNotFound`, `api_key` -> `ApiKeyNotFound`. */
const notFoundType = (resource: ResourceName): string => `${resource.replace(/(^|_)([a-z])/g, (_m, _sep: string, c: string) => c.toUpperCase())}NotFound`;

/**
 * The services' errors as the ApplicationFailures Temporal retries (or not) and the workflows read
 * (the campaign workflow fails a campaign with `<type>: <message>` of a non-retryable one). Told
 * apart by class; anything else is returned as it is, and Temporal retries it with the policy.
 *
 * Not retryable (retrying repeats the answer):
 * - NotFoundError: '<Resource>NotFound' ('CampaignNotFound', 'LeadNotFound');
 * - InvalidInputError: 'InvalidInput';
 * - LlmProviderError that will not heal (key, permission, model, request, blocked address): 'LlmRejected';
 * - LeadProviderError that will not heal: its name ('ProviderKeyRejected', 'ProviderRequestRejected');
 * - ScrapeError of a URL the policy refuses: 'TargetUnreachable'; of an answer that will not change: 'TargetRejected'.
 * Retryable:
 * - SmtpTemporaryFailure: 'SmtpTemporary'; SmtpSenderRejected: 'SmtpSenderRejected' (both with the emailId);
 * - SendInProgress: 'SendInProgress';
 * - LlmProviderError (rate limit, 5xx, timeout, connection): 'LlmUnavailable'; LlmOutputError: 'LlmBadOutput';
 *   any other LlmError: 'LlmError';
 * - ProviderRateLimited: after the wait the provider asked for; other LeadProviderErrors: their name;
 * - ScrapeError that may pass (timeout, DNS, connection, 429, 5xx): 'TargetUnavailable'.
 */
export function activityFailure(err: unknown): unknown {
  if (err instanceof NotFoundError) return ApplicationFailure.nonRetryable(err.message, notFoundType(err.resource));
  if (err instanceof InvalidInputError) return ApplicationFailure.nonRetryable(err.message, 'InvalidInput');
  if (err instanceof SmtpTemporaryFailure) return ApplicationFailure.retryable(err.message, 'SmtpTemporary', { emailId: err.emailId });
  if (err instanceof SmtpSenderRejected) return ApplicationFailure.retryable(err.message, 'SmtpSenderRejected', { emailId: err.emailId });
  if (err instanceof SendInProgress) return ApplicationFailure.retryable(err.message, 'SendInProgress');
  if (err instanceof LlmError) return llmFailure(err);
  if (err instanceof LeadProviderError) return leadProviderFailure(err);
  if (err instanceof ScrapeError) return scrapeFailure(err);
  return err;
}

function llmFailure(err: LlmError): ApplicationFailure {
  if (err instanceof LlmProviderError) {
    const details = { provider: err.provider, kind: err.kind, status: err.status ?? null };
    return err.retryable ? ApplicationFailure.retryable(err.message, 'LlmUnavailable', details) : ApplicationFailure.nonRetryable(err.message, 'LlmRejected', details);
  }
  if (err instanceof LlmOutputError) return ApplicationFailure.retryable(err.message, 'LlmBadOutput', { provider: err.provider, problem: err.problem });
  return ApplicationFailure.retryable(err.message, 'LlmError');
}

/**
 * A rejected key or request is not retried (the account must fix it; the workflow can fail the
 * campaign with the message), a rate limit is retried after the wait the provider asked for, an
 * outage with the policy's backoff.
 */
function leadProviderFailure(err: LeadProviderError): ApplicationFailure {
  if (err instanceof ProviderRateLimited) return ApplicationFailure.create({ message: err.message, type: err.name, nextRetryDelay: `${err.retryAfterSeconds}s` });
  return ApplicationFailure.create({ message: err.message, type: err.name, nonRetryable: !err.retryable });
}

function scrapeFailure(err: ScrapeError): ApplicationFailure {
  const details = { kind: err.kind };
  if (err.kind === 'blocked' || err.kind === 'bad_url') return ApplicationFailure.nonRetryable(err.message, 'TargetUnreachable', details);
  if (err.retryable) return ApplicationFailure.retryable(err.message, 'TargetUnavailable', details);
  return ApplicationFailure.nonRetryable(err.message, 'TargetRejected', details);
}

/**
 * What sending a campaign report throws: trouble a later attempt may not meet (the SMTP server
 * unavailable or answering 4xx, the database unreachable) is retried, as 'ReportTrouble', within
 * the report workflows' bound of a day; anything else (a refusal that will not change, a bug) is
 * not, as retrying would only repeat it.
 */
export function reportFailure(err: unknown): unknown {
  const message = err instanceof Error ? err.message : String(err);
  if (isRetryableReportFailure(err)) return ApplicationFailure.retryable(message, 'ReportTrouble', { cause: err instanceof Error ? err.name : null });
  const mapped = activityFailure(err);
  if (mapped !== err || err instanceof ApplicationFailure) return mapped;
  return ApplicationFailure.nonRetryable(message, err instanceof Error ? err.name : 'ReportFailed');
}

import { ApplicationFailure } from '@temporalio/common';
import { answerGuard } from '../../src/conversations/answer/answer-guard';
import { sendStoredServiceEmail as sendStored, ServiceEmailNotFound } from '../../src/service-mail/send-stored';
import { ServiceMailTemporaryFailure } from '../../src/service-mail/send-service-email';
import { recordServiceEmailError } from '../../src/service-mail/service-email-repository';
import type { MarkServiceEmailFailedInput, SendStoredServiceEmailResult, ServiceEmailInput } from '../../workflows/service-mail/contract';
import { activityContext, cancellableSleep } from '../activity-context';
import type { ActivityDeps } from '../deps';
import { activityFailure } from '../failures';

/**
 * A row not found by these first attempts is taken for one whose transaction has not committed
 * yet (the API starts the workflow inside it) and looked for again; after them, for one that will
 * never be there (rolled back, or deleted with its lead): not retried.
 */
const NOT_FOUND_ATTEMPTS = 3;
/** Within one attempt: a commit usually follows the start by milliseconds. */
const NOT_FOUND_PAUSES_MS = [100, 250, 500] as const;

/**
 * The `sendStoredServiceEmail` activity: sends one stored service email by id (src/service-mail/
 * send-stored.ts), with the answer's guard (the lead may have unsubscribed since). A refusal for
 * good is the row's `failed` status, returned; what a retry may fix is thrown retryable.
 */
export function sendStoredServiceEmail(deps: ActivityDeps) {
  const guard = answerGuard(deps.sequelize);
  return async (input: ServiceEmailInput): Promise<SendStoredServiceEmailResult> => {
    const mail = { sequelize: deps.sequelize, config: deps.config, log: deps.log };
    for (let pause = 0; ; pause++) {
      try {
        const sent = await sendStored(mail, input.serviceEmailId, guard);
        return { status: sent.outcome === 'failed' ? 'failed' : 'sent' };
      } catch (err) {
        const wait = NOT_FOUND_PAUSES_MS[pause];
        if (err instanceof ServiceEmailNotFound && wait !== undefined) {
          await cancellableSleep(wait);
          continue;
        }
        throw serviceMailFailure(err);
      }
    }
  };
}

/** The `markServiceEmailFailed` activity: the workflow gave up, and the row should say so rather than stay 'sending'. */
export function markServiceEmailFailed(deps: ActivityDeps) {
  return (input: MarkServiceEmailFailedInput): Promise<void> => recordServiceEmailError(deps.sequelize, input.serviceEmailId, input.error, true);
}

/**
 * What sending a stored service email throws, as Temporal should see it: temporary SMTP trouble
 * and an unreachable database are retried ('ServiceMailTrouble'); a row not found is retried for
 * its first attempts only (see NOT_FOUND_ATTEMPTS); anything else (a bug, a refusal that will not
 * change) is not, as retrying would only repeat it.
 */
export function serviceMailFailure(err: unknown): unknown {
  const message = err instanceof Error ? err.message : String(err);
  if (err instanceof ServiceMailTemporaryFailure || isDatabaseUnreachable(err)) {
    return ApplicationFailure.retryable(message, 'ServiceMailTrouble', { cause: err instanceof Error ? err.name : null });
  }
  if (err instanceof ServiceEmailNotFound) {
    const attempt = activityContext()?.info.attempt ?? NOT_FOUND_ATTEMPTS;
    return ApplicationFailure.create({ message, type: 'ServiceEmailNotFound', nonRetryable: attempt >= NOT_FOUND_ATTEMPTS });
  }
  const mapped = activityFailure(err);
  if (mapped !== err || err instanceof ApplicationFailure) return mapped;
  return ApplicationFailure.nonRetryable(message, err instanceof Error ? err.name : 'ServiceMailFailed');
}

function isDatabaseUnreachable(err: unknown): boolean {
  const name = (err as { name?: unknown } | null)?.name;
  return typeof name === 'string' && /^Sequelize(Connection\w*|Timeout|HostNotReachable|HostNotFound|AccessDenied)Error$/.test(name);
}

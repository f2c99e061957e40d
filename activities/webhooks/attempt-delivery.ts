import type { RetryAttemptInput, RetryAttemptResult } from '../../workflows/webhooks/contract';
import { egressFor } from '../../src/egress';
import { attemptRetry } from '../../src/webhooks/retry/attempt-retry';
import type { ActivityDeps } from '../deps';

/** Activity `attemptWebhookDelivery`: one retry of a failed delivery (see attempt-retry.ts). */
export function attemptWebhookDelivery(deps: ActivityDeps) {
  return (input: RetryAttemptInput): Promise<RetryAttemptResult> => attemptRetry({ sequelize: deps.sequelize, egress: egressFor(deps.config) }, input);
}

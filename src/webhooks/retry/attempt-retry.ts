import type { Sequelize } from 'sequelize';
import type { RetryAttemptInput, RetryAttemptResult } from '../../../workflows/webhooks/contract';
import type { Egress } from '../../egress';
import { loadDeliveryJobs } from '../delivery-jobs';
import { postWebhook } from '../post-webhook';
import { recordRetryAttempt } from '../record-attempts';
import { signedHeaders } from '../signing';

const SUPERSEDED: RetryAttemptResult = { outcome: 'superseded', statusCode: null, error: null };

/**
 * One retry of the ladder: posts the delivery again (same body, same event id, signed now with the
 * account's current secrets) and records the attempt. A delivery that is no longer retrying in this
 * cycle (resent meanwhile) is not posted: the result says `superseded` and the workflow ends. A
 * destination the egress policy now refuses (its name has come to resolve to a private address)
 * is recorded as failed at once: the result says `refused` and the workflow ends without the rest
 * of the ladder.
 */
export async function attemptRetry(deps: { sequelize: Sequelize; egress: Egress }, input: RetryAttemptInput): Promise<RetryAttemptResult> {
  const [job] = await loadDeliveryJobs(deps.sequelize, [input.deliveryId], { status: 'retrying', cycle: input.cycle });
  if (job === undefined) return SUPERSEDED;
  const outcome = await postWebhook(deps.egress, job.url, job.body, signedHeaders(job.body, job.eventId, new Date(), job.secrets));
  const recorded = await recordRetryAttempt(deps.sequelize, { deliveryId: job.deliveryId, cycle: job.cycle, outcome }, input.nextRetryInMs);
  if (!recorded) return SUPERSEDED;
  return { outcome: outcome.ok ? 'delivered' : outcome.retryable ? 'failed' : 'refused', statusCode: outcome.statusCode, error: outcome.error };
}

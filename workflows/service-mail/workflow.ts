import { ActivityFailure } from '@temporalio/workflow';
import { markServiceEmailFailed, sendStoredServiceEmail } from './activity-proxies';
import type { ServiceEmailInput, ServiceEmailResult } from './contract';

/**
 * One stored service email (id `service-email-<id>`): sent by its activity, which Temporal retries
 * through temporary SMTP trouble (activity-proxies.ts); the API waits a few seconds for the result
 * and otherwise answers that it is being sent, and a worker restart loses nothing. When the
 * activity gives up (a day of trouble, or a failure retrying cannot fix), the row is marked failed
 * with the last error rather than left 'sending' for ever.
 */
export async function serviceEmailWorkflow(input: ServiceEmailInput): Promise<ServiceEmailResult> {
  try {
    const sent = await sendStoredServiceEmail(input);
    return { serviceEmailId: input.serviceEmailId, status: sent.status };
  } catch (err) {
    if (!(err instanceof ActivityFailure)) throw err;
    await markServiceEmailFailed({ serviceEmailId: input.serviceEmailId, error: err.cause?.message ?? err.message });
    return { serviceEmailId: input.serviceEmailId, status: 'failed' };
  }
}

import { sleep } from '@temporalio/workflow';
import { attemptWebhookDelivery, markWebhookDeliveryFailed } from './activity-proxies';
import { RETRY_LADDER_MS, type WebhookRetryInput, type WebhookRetryResult } from './contract';

/**
 * The retries of one delivery after its first attempt failed: retry n is made RETRY_LADDER_MS[n-1]
 * after the failure before it (1 min, 5 min, 30 min, 2 h, 24 h); a sixth failure marks the delivery
 * failed. Started by the dispatcher only for deliveries whose first attempt failed, so the happy
 * path never pays for a workflow. Survives worker restarts like any workflow: its timers are the
 * server's.
 */
export async function webhookDeliveryWorkflow(input: WebhookRetryInput): Promise<WebhookRetryResult> {
  let failedAt = input.firstFailureAt;
  for (let retry = 1; retry <= RETRY_LADDER_MS.length; retry++) {
    const delay = failedAt + (RETRY_LADDER_MS[retry - 1] as number) - Date.now();
    if (delay > 0) await sleep(delay);
    const result = await attemptWebhookDelivery({ deliveryId: input.deliveryId, cycle: input.cycle, retry, nextRetryInMs: RETRY_LADDER_MS[retry] ?? null });
    if (result.outcome !== 'failed') return { outcome: result.outcome, retries: retry };
    failedAt = Date.now();
  }
  await markWebhookDeliveryFailed({ deliveryId: input.deliveryId, cycle: input.cycle });
  return { outcome: 'failed', retries: RETRY_LADDER_MS.length };
}

import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import type { RetryStarter } from '../webhooks/retry/retry-starter';
import { retryWorkflowId } from '../../workflows/webhooks/contract';
import type { webhookDeliveryWorkflow } from '../../workflows/webhooks/delivery-workflow';

/**
 * The production starter. The workflow id names the delivery and cycle, and a duplicate is
 * rejected even after the first run closed, so starting twice (the sweep after a crash, a race)
 * never retries a cycle twice: the second start finds the first and is a success.
 */
export function temporalRetryStarter(client: Client, taskQueue: string): RetryStarter {
  return {
    async start(failed) {
      const workflowId = retryWorkflowId(failed.deliveryId, failed.cycle);
      try {
        await client.workflow.start<typeof webhookDeliveryWorkflow>('webhookDeliveryWorkflow', {
          taskQueue,
          workflowId,
          workflowIdReusePolicy: 'REJECT_DUPLICATE',
          args: [{ deliveryId: failed.deliveryId, cycle: failed.cycle, firstFailureAt: failed.failedAt.getTime() }],
          staticSummary: `Webhook delivery ${failed.deliveryId}, cycle ${failed.cycle}: retries on the ladder 1 min, 5 min, 30 min, 2 h, 24 h`,
        });
      } catch (err) {
        if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
      }
      return workflowId;
    },
  };
}

/**
 * The webhook workflows' activity proxies, typed from the implementations the worker registers:
 * an activity whose name or input changes there fails the typecheck here.
 */
import { proxyActivities } from '@temporalio/workflow';
import type { WebhookWorkflowActivities } from '../../activities';

// A delivery failure is an outcome the activity returns, never an exception: the ladder's delays
// are the retry workflow's timers. Exceptions are the service's own trouble (database down) and
// are retried quickly without using up a step of the ladder. An attempt waits 10 s for the
// receiver at most; the rest of the minute covers the database around it.
export const { attemptWebhookDelivery, markWebhookDeliveryFailed } = proxyActivities<WebhookWorkflowActivities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '5 seconds', backoffCoefficient: 2, maximumInterval: '5 minutes' },
});

// A long-running activity: it heartbeats while it works, so a worker that dies is noticed within
// 30 s and the run moves to another worker; it is retried without end (the outbox waits meanwhile).
export const { runWebhookDispatcher } = proxyActivities<WebhookWorkflowActivities>({
  startToCloseTimeout: '15 minutes',
  heartbeatTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds' },
});

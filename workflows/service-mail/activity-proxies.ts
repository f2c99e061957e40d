/**
 * The service-email workflow's activity proxies, typed from the implementations the worker
 * registers: an activity whose name or input changes there fails the typecheck here.
 */
import { proxyActivities } from '@temporalio/workflow';
import type { ServiceMailWorkflowActivities } from '../../activities';

// One message over SMTP: two minutes is plenty for an attempt (the transports time out sooner).
// Temporary trouble (a 4xx, the server or the database unreachable) is retried with a backoff
// from 5 seconds up to every 30 minutes, for one day in all: an answer still goes out after an
// outage of hours, and is not delivered days late into a conversation that moved on. A refusal
// for good (5xx) is not an error: the activity settles the row 'failed' and returns.
export const { sendStoredServiceEmail } = proxyActivities<ServiceMailWorkflowActivities>({
  startToCloseTimeout: '2 minutes',
  scheduleToCloseTimeout: '1 day',
  retry: { initialInterval: '5 seconds', backoffCoefficient: 2, maximumInterval: '30 minutes' },
});

// Marking the row failed is one UPDATE: retried until the database answers.
export const { markServiceEmailFailed } = proxyActivities<ServiceMailWorkflowActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '5 seconds', backoffCoefficient: 2, maximumInterval: '5 minutes' },
});

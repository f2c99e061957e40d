import { continueAsNew, workflowInfo } from '@temporalio/workflow';
import { runWebhookDispatcher } from './activity-proxies';

/** Each run of the dispatcher activity claims and posts for this long, then reports its figures. */
export const DISPATCH_RUN_MS = 5 * 60_000;
const RUNS_PER_HISTORY = 200;

/**
 * The webhook dispatcher of one task queue, started by the worker when it is not running: it runs
 * the dispatcher activity back to back for ever, which claims outbox events in batches, posts them
 * and hands failed deliveries to retry workflows. One per queue keeps the Web UI's view simple; the
 * claims lock with SKIP LOCKED, so more could run side by side.
 */
export async function webhookDispatcherWorkflow(): Promise<never> {
  for (let run = 0; run < RUNS_PER_HISTORY && !workflowInfo().continueAsNewSuggested; run++) {
    await runWebhookDispatcher({ runForMs: DISPATCH_RUN_MS });
  }
  return continueAsNew<typeof webhookDispatcherWorkflow>();
}

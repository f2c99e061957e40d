import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import { Context } from '@temporalio/activity';

/** The running activity's context, or null when the function is called directly (tests, scripts). */
export function activityContext(): Context | null {
  try {
    return Context.current();
  } catch {
    return null;
  }
}

/**
 * Names this call so that its retries share the name: the workflow run and activity id (the same
 * for every attempt of one scheduled activity). A direct call outside Temporal gets a fresh name.
 */
export function callName(): string {
  const info = activityContext()?.info;
  if (info === undefined) return `direct:${randomUUID()}`;
  const run = info.workflowExecution;
  return run === undefined ? `activity:${info.activityId}:${info.scheduledTimestampMs}` : `${run.workflowId}/${run.runId}/${info.activityId}`;
}

/** Reports progress to the server (a no-op outside an activity). */
export function heartbeat(details: unknown): void {
  activityContext()?.heartbeat(details);
}

/** Sleeps, ending early with the activity's cancellation; a plain timer outside an activity. */
export function cancellableSleep(ms: number): Promise<void> {
  return activityContext()?.sleep(ms) ?? delay(ms).then(() => undefined);
}

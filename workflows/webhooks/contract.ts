/**
 * The webhook workflows' contract with whoever starts them, and the inputs and results of their
 * activities (whose signatures come from the implementations: activity-proxies.ts). Pure types
 * and constants: the workflow bundle and Node code both import this file.
 */

/**
 * The delay before each retry, counted from the failure before it (spec, Events): 1 minute,
 * 5 minutes, 30 minutes, 2 hours, 24 hours. A failure after the last one marks the delivery failed.
 */
export const RETRY_LADDER_MS: readonly number[] = [60_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 24 * 3_600_000];

/** What starts a retry workflow: the dispatcher's first attempt of this cycle failed at `firstFailureAt`. */
export interface WebhookRetryInput {
  readonly deliveryId: string;
  /** The delivery's cycle (1, plus one per resend): a resend's retries never mix with an older cycle's. */
  readonly cycle: number;
  /** Epoch ms when the first attempt failed; the first retry is due one ladder step later. */
  readonly firstFailureAt: number;
}

export type RetryOutcome =
  /** The receiver answered 2xx. */
  | 'delivered'
  /** Not delivered this time (the next retry, or failed after the last). */
  | 'failed'
  /** The delivery is no longer this cycle's to retry (resent, or settled elsewhere): nothing was posted. */
  | 'superseded'
  /** The egress policy refused the destination: the delivery is already failed, and no retry follows. */
  | 'refused';

export interface WebhookRetryResult {
  readonly outcome: RetryOutcome;
  /** Retries made by this workflow (not counting the dispatcher's first attempt). */
  readonly retries: number;
}

export interface RetryAttemptInput {
  readonly deliveryId: string;
  readonly cycle: number;
  /** 1 to 5: which retry of the ladder this is. */
  readonly retry: number;
  /** The delay before the next retry if this one fails, for the delivery log; null after the last. */
  readonly nextRetryInMs: number | null;
}

export interface RetryAttemptResult {
  readonly outcome: RetryOutcome;
  readonly statusCode: number | null;
  readonly error: string | null;
}

export interface DispatchRunInput {
  /** How long this run claims and posts before it returns (the workflow then starts the next run). */
  readonly runForMs: number;
}

export interface DispatchStats {
  /** Outbox events taken (every kind: most are statistics-only and need no delivery). */
  readonly eventsClaimed: number;
  readonly attempts: number;
  readonly delivered: number;
  /** First attempts that failed and were handed to a retry workflow. */
  readonly handedToRetry: number;
}

/** One retry workflow per delivery and cycle: starting it twice finds the first. */
export function retryWorkflowId(deliveryId: string, cycle: number): string {
  return `webhook-delivery-${deliveryId}-${cycle}`;
}

/** One dispatcher per task queue (the worker that serves the queue starts it if it is not running). */
export function dispatcherWorkflowId(taskQueue: string): string {
  return `webhook-dispatcher-${taskQueue}`;
}

/**
 * The webhook retry workflow on the Temporal time-skipping server: one environment per test file,
 * and per test a worker on its own task queue with the activities the test hands in (fakes that
 * record when the server scheduled them, or the real ones against PostgreSQL). Simulated time is
 * moved with `sleepUntil`; results are read through a plain client once the workflow has closed
 * (the time-skipping client's result() would let the server jump years ahead, see docs/testing.md).
 */
import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import type { WorkflowHandle } from '@temporalio/client';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { randomUUID } from 'node:crypto';
import type { WebhookWorkflowActivities } from '../../../activities';
import { retryWorkflowId, type RetryAttemptInput, type RetryAttemptResult, type RetryOutcome, type WebhookRetryInput, type WebhookRetryResult } from '../../../workflows/webhooks/contract';
import { webhookDeliveryWorkflow } from '../../../workflows/webhooks/delivery-workflow';
import { TimeSkippingHarness } from '../../support/time-skipping-harness';
import { createTestWorker } from '../../support/workflow-worker';

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;

/** What the retry workflow calls, with the implementations' signatures. */
export type RetryActivities = Pick<WebhookWorkflowActivities, 'attemptWebhookDelivery' | 'markWebhookDeliveryFailed'>;

/** One call of a fake activity, with the two readings of simulated time at that moment. */
export interface RecordedCall {
  readonly name: 'attemptWebhookDelivery' | 'markWebhookDeliveryFailed';
  readonly input: RetryAttemptInput | { deliveryId: string; cycle: number };
  /** The server's instant for this attempt of the activity (simulated time). */
  readonly scheduledAt: number;
  /** The test server's clock as read from inside the activity (simulated time too). */
  readonly serverNow: number;
  /** The activity's own attempt (above 1 when Temporal retried it after a thrown error). */
  readonly activityAttempt: number;
}

/** What the fake attempt does for a retry: an outcome, or a thrown error (the service's own trouble). */
export type FakeAttemptPlan = (retry: number, activityAttempt: number) => RetryOutcome | Error;

/**
 * Fake webhook activities that record every call with the simulated instant the server scheduled
 * it and the server clock read from inside the call; `plan` decides each retry's outcome.
 */
export class FakeRetryActivities {
  readonly calls: RecordedCall[] = [];

  constructor(
    private readonly env: TestWorkflowEnvironment,
    private readonly plan: FakeAttemptPlan = () => 'failed',
  ) {}

  get attempts(): RecordedCall[] {
    return this.calls.filter((c) => c.name === 'attemptWebhookDelivery');
  }

  get failedMarks(): RecordedCall[] {
    return this.calls.filter((c) => c.name === 'markWebhookDeliveryFailed');
  }

  activities(): RetryActivities {
    return {
      attemptWebhookDelivery: async (input) => {
        const info = await this.record('attemptWebhookDelivery', input);
        const planned = this.plan(input.retry, info.activityAttempt);
        if (planned instanceof Error) throw planned;
        const result: RetryAttemptResult = { outcome: planned, statusCode: planned === 'delivered' ? 200 : planned === 'failed' ? 500 : null, error: planned === 'failed' ? 'HTTP 500' : null };
        return result;
      },
      markWebhookDeliveryFailed: async (input) => {
        await this.record('markWebhookDeliveryFailed', input);
      },
    };
  }

  private async record(name: RecordedCall['name'], input: RecordedCall['input']): Promise<RecordedCall> {
    const info = Context.current().info;
    const call: RecordedCall = { name, input, scheduledAt: info.currentAttemptScheduledTimestampMs, serverNow: await this.env.currentTimeMs(), activityAttempt: info.attempt };
    this.calls.push(call);
    return call;
  }
}

/** A retryable error like a database outage would raise inside the activity. */
export const serviceTrouble = (): Error => ApplicationFailure.retryable('connection to the database was lost', 'DatabaseUnavailable');

export type RetryHandle = WorkflowHandle<typeof webhookDeliveryWorkflow>;

export class RetryHarness extends TimeSkippingHarness {
  /** Skips to `by` and returns the workflow's result, which must be in by then. */
  async resultBy(handle: RetryHandle, by: number): Promise<WebhookRetryResult> {
    await this.sleepUntil(by);
    const description = await handle.describe();
    if (description.status.name !== 'COMPLETED') throw new Error(`retry workflow ${handle.workflowId} is ${description.status.name} at ${new Date(by).toISOString()}`);
    return this.closedResult<typeof webhookDeliveryWorkflow>(handle.workflowId);
  }

  /**
   * Starts the retry workflow of `input` (id as the dispatcher names it) and runs `body` while a
   * worker with `activities` serves it. A workflow still running afterwards is terminated, so its
   * timers do not fire during later tests.
   */
  async retries(input: WebhookRetryInput, activities: RetryActivities, body: (handle: RetryHandle) => Promise<void>): Promise<void> {
    const taskQueue = `webhooks-${randomUUID()}`;
    const worker = await createTestWorker(this.env, taskQueue, activities);
    let handle: RetryHandle | undefined;
    try {
      await worker.runUntil(async () => {
        handle = await this.env.client.workflow.start(webhookDeliveryWorkflow, { taskQueue, workflowId: retryWorkflowId(input.deliveryId, input.cycle), args: [input] });
        await body(handle);
      });
    } finally {
      if (handle !== undefined) await handle.terminate('test over').catch(() => undefined);
    }
  }
}

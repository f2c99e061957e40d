import { WorkflowClient } from '@temporalio/client';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { Workflow, WorkflowResultType } from '@temporalio/workflow';
import { createTimeSkippingEnv } from './time-skipping';

/**
 * One time-skipping environment per test file, and the clock moves workflow tests make: read the
 * simulated now, skip to an instant, and read a closed workflow's result through a plain client.
 * Not the time-skipping client's result(): it unlocks time skipping while it waits, and once the
 * workflow is closed the test server jumps years ahead before the lock comes back, which would make
 * every later date of the file meaningless (see docs/testing.md).
 */
export class TimeSkippingHarness {
  private current?: TestWorkflowEnvironment;

  get env(): TestWorkflowEnvironment {
    if (this.current === undefined) throw new Error(`${this.constructor.name}.start() was not called`);
    return this.current;
  }

  async start(): Promise<void> {
    this.current = await createTimeSkippingEnv();
  }

  async stop(): Promise<void> {
    await this.current?.teardown();
  }

  /** The simulated now. */
  now(): Promise<number> {
    return this.env.currentTimeMs();
  }

  /** Skips simulated time up to `ms` (no-op when it is past). */
  async sleepUntil(ms: number): Promise<void> {
    const now = await this.now();
    if (ms > now) await this.env.sleep(ms - now);
  }

  /** The result of a workflow that has closed, read without touching the time-skipping lock. */
  protected closedResult<W extends Workflow>(workflowId: string): Promise<WorkflowResultType<W>> {
    const plain = new WorkflowClient({ connection: this.env.connection, namespace: this.env.namespace ?? 'default' });
    return plain.getHandle<W>(workflowId).result();
  }
}

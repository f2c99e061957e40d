import { Context } from '@temporalio/activity';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { Worker } from '@temporalio/worker';
import { expect } from 'chai';
import type { ServiceMailWorkflowActivities } from '../../activities';
import { serviceEmailWorkflow } from '../../workflows';
import { serviceEmailWorkflowId, type MarkServiceEmailFailedInput, type ServiceEmailResult } from '../../workflows/service-mail/contract';
import { TimeSkippingHarness } from '../support/time-skipping-harness';
import { workflowBundle } from '../support/workflow-worker';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** What the fake activity does at an attempt: a status, or an error thrown. */
type Plan = (attempt: number, elapsedMs: number) => 'sent' | 'failed' | Error;

class ServiceEmailHarness extends TimeSkippingHarness {
  /**
   * Runs `serviceEmailWorkflow` for `id` with a fake activity answering by `plan`, skipping simulated
   * time up to `until` after the start, and returns its result with every attempt's simulated instant.
   */
  async run(id: string, plan: Plan, until: number): Promise<{ result: ServiceEmailResult; attempts: number[]; marks: MarkServiceEmailFailedInput[] }> {
    const attempts: number[] = [];
    const marks: MarkServiceEmailFailedInput[] = [];
    const started = await this.now();
    const activities: ServiceMailWorkflowActivities = {
      sendStoredServiceEmail: async () => {
        const now = await this.now();
        attempts.push(now - started);
        const planned = plan(Context.current().info.attempt, now - started);
        if (planned instanceof Error) throw planned;
        return { status: planned };
      },
      markServiceEmailFailed: async (input) => {
        marks.push(input);
      },
    };
    const taskQueue = `service-email-${id}`;
    const worker = await Worker.create({ connection: this.env.nativeConnection, namespace: this.env.namespace ?? 'default', taskQueue, workflowBundle: await workflowBundle(), activities });
    return worker.runUntil(async () => {
      const handle = await this.env.client.workflow.start(serviceEmailWorkflow, { taskQueue, workflowId: serviceEmailWorkflowId(id), args: [{ serviceEmailId: id }] });
      await this.sleepUntil(started + until);
      const description = await handle.describe();
      if (description.status.name !== 'COMPLETED') throw new Error(`workflow ${handle.workflowId} is ${description.status.name}`);
      return { result: await this.closedResult<typeof serviceEmailWorkflow>(handle.workflowId), attempts, marks };
    });
  }
}

/**
 * The service-email workflow (an answer to a lead, sent by id) on the time-skipping server, with a
 * fake activity: temporary SMTP trouble retried with a growing backoff for up to a day, a refusal
 * for good not retried, and one workflow per email id.
 */
describe('service-email workflow (service-email-<id>): retries over hours, gives up after a day', function () {
  this.timeout(120_000);
  const h = new ServiceEmailHarness();
  before(() => h.start());
  after(() => h.stop());

  const trouble = (): Error => ApplicationFailure.retryable('451 4.2.1 Mailbox busy, try again later', 'ServiceMailTrouble');

  it('temporary trouble for three hours: retried from 5 s, doubling, at most every 30 minutes, then sent', async () => {
    const { result, attempts, marks } = await h.run('sml_hours', (_attempt, elapsed) => (elapsed < 3 * HOUR ? trouble() : 'sent'), 4 * HOUR);
    expect(result).to.deep.equal({ serviceEmailId: 'sml_hours', status: 'sent' });
    expect(marks).to.deep.equal([]);
    const gaps = attempts.slice(1).map((t, i) => t - attempts[i]!);
    expect(gaps[0], 'first backoff').to.be.within(5_000, 7_000);
    expect(gaps[1], 'second backoff').to.be.within(10_000, 12_000);
    expect(Math.max(...gaps), 'capped').to.be.at.most(30 * MINUTE + 2_000);
    expect(attempts[attempts.length - 1], 'sent once the trouble was over').to.be.within(3 * HOUR, 3 * HOUR + 30 * MINUTE + 2_000);
  });

  it('trouble for two days: it gives up after one, and the row is marked failed with the last error', async () => {
    const { result, attempts, marks } = await h.run('sml_days', () => trouble(), 2 * DAY);
    expect(result).to.deep.equal({ serviceEmailId: 'sml_days', status: 'failed' });
    expect(attempts[attempts.length - 1]).to.be.below(DAY);
    expect(marks).to.deep.equal([{ serviceEmailId: 'sml_days', error: '451 4.2.1 Mailbox busy, try again later' }]);
  });

  it('a refusal for good (the activity settled the row failed) is not retried', async () => {
    const { result, attempts, marks } = await h.run('sml_refused', () => 'failed', MINUTE);
    expect(result).to.deep.equal({ serviceEmailId: 'sml_refused', status: 'failed' });
    expect(attempts).to.have.length(1);
    expect(marks).to.deep.equal([]);
  });

  it('a failure retrying cannot fix (the row never committed) is not retried: marked failed', async () => {
    const { result, attempts, marks } = await h.run('sml_missing', () => ApplicationFailure.nonRetryable('service email sml_missing not found', 'ServiceEmailNotFound'), MINUTE);
    expect(result.status).to.equal('failed');
    expect(attempts).to.have.length(1);
    expect(marks).to.deep.equal([{ serviceEmailId: 'sml_missing', error: 'service email sml_missing not found' }]);
  });

  it('a second start of the same email is refused: one workflow per message', async () => {
    const taskQueue = 'service-email-twice';
    const first = await h.env.client.workflow.start(serviceEmailWorkflow, { taskQueue, workflowId: serviceEmailWorkflowId('sml_twice'), args: [{ serviceEmailId: 'sml_twice' }] });
    try {
      let refused: unknown;
      try {
        await h.env.client.workflow.start(serviceEmailWorkflow, { taskQueue, workflowId: serviceEmailWorkflowId('sml_twice'), args: [{ serviceEmailId: 'sml_twice' }] });
      } catch (err) {
        refused = err;
      }
      expect(refused).to.be.instanceOf(WorkflowExecutionAlreadyStartedError);
    } finally {
      await first.terminate('test over');
    }
  });
});

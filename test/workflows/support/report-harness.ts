/**
 * The report workflows on the Temporal time-skipping server: one environment per test file, and
 * per test a worker on its own task queue with the activity the test hands in (a fake that records
 * each call with the simulated time the server scheduled it, or the real one). Simulated time is
 * moved with `sleepUntil`; results are read through a plain client once the workflow has closed
 * (see docs/testing.md). Also the wall-clock arithmetic the tests use to write out the expected
 * instants, with fixed UTC offsets: independent of src/campaigns/model/calendar.ts, which is under test.
 */
import { Context } from '@temporalio/activity';
import type { WorkflowHandleWithFirstExecutionRunId } from '@temporalio/client';
import { Worker } from '@temporalio/worker';
import { randomUUID } from 'node:crypto';
import type { ReportWorkflowActivities } from '../../../activities';
import { campaignReportScheduleWorkflow, campaignReportWorkflow } from '../../../workflows';
import {
  campaignReportWorkflowId,
  reportScheduleWorkflowId,
  type CampaignReportInput,
  type MarkReportFailedInput,
  type ReportScheduleInput,
  type ReportScheduleResult,
  type SendReportInput,
  type SendReportResult,
} from '../../../workflows/reports/contract';
import { TimeSkippingHarness } from '../../support/time-skipping-harness';
import { workflowBundle } from '../../support/workflow-worker';

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

/** The instant of a wall-clock time at a fixed offset from UTC (hours; Berlin is +1 in winter, +2 in summer). */
export function at(offsetHours: number, y: number, month: number, d: number, h = 0, min = 0): number {
  return Date.UTC(y, month - 1, d, h, min) - offsetHours * HOUR;
}

/** Day of the month of the last Sunday of `month` (EU summer time begins and ends on one, at 01:00 UTC). */
export function lastSunday(y: number, month: number): number {
  const last = new Date(Date.UTC(y, month, 0));
  return last.getUTCDate() - last.getUTCDay();
}

/** Day of the month of the first `weekday` (0 Sunday .. 6 Saturday) of a month. */
export function firstWeekday(y: number, month: number, weekday: number): number {
  const first = new Date(Date.UTC(y, month - 1, 1)).getUTCDay();
  return 1 + ((weekday - first + 7) % 7);
}

export const iso = (ms: number): string => new Date(ms).toISOString();

/** One call of the fake activity. */
export interface ReportCall {
  readonly input: SendReportInput;
  /** The server's instant for this attempt (simulated time). */
  readonly scheduledAt: number;
  /** The activity's attempt (above 1 when Temporal retried it). */
  readonly attempt: number;
  /** The workflow run that asked: changes across continue-as-new. */
  readonly runId: string;
  /** The server's clock read from inside the call (for a retried attempt, scheduledAt is the previous failure). */
  readonly serverNow: number;
  /** What the fake answered: a status, or `threw`. */
  readonly outcome: SendReportResult['status'] | 'threw';
}

/** What the fake does for a call: a status, or an error thrown (the service's trouble). */
export type ReportPlan = (input: SendReportInput, attempt: number) => SendReportResult['status'] | Error;

/** Fake report activities: `sendCampaignReport` records every call with the simulated time and answers by `plan` (sent, by default). */
export class FakeReportActivity {
  readonly calls: ReportCall[] = [];
  /** Reports the on-demand workflow gave up on. */
  readonly marks: MarkReportFailedInput[] = [];

  constructor(
    private readonly clock: () => Promise<number>,
    private readonly plan: ReportPlan = () => 'sent',
  ) {}

  /** Calls that returned (not the attempts that threw). */
  get answered(): ReportCall[] {
    return this.calls.filter((c) => c.outcome !== 'threw');
  }

  /** The answered calls as "kind start..end" in ISO, for readable diffs. */
  get periods(): string[] {
    return this.answered.map((c) => `${c.input.kind} ${iso(c.input.periodStart)}..${iso(c.input.periodEnd)}`);
  }

  activities(): ReportWorkflowActivities {
    return {
      sendCampaignReport: async (input) => {
        const info = Context.current().info;
        const planned = this.plan(input, info.attempt);
        this.calls.push({ input, scheduledAt: info.currentAttemptScheduledTimestampMs, serverNow: await this.clock(), attempt: info.attempt, runId: info.workflowExecution?.runId ?? '', outcome: planned instanceof Error ? 'threw' : planned });
        if (planned instanceof Error) throw planned;
        return { reportId: input.reportId ?? `rep_${this.calls.length}`, status: planned };
      },
      markCampaignReportFailed: async (input) => {
        this.marks.push(input);
      },
    };
  }
}

export type ScheduleHandle = WorkflowHandleWithFirstExecutionRunId<typeof campaignReportScheduleWorkflow>;

export class ReportHarness extends TimeSkippingHarness {
  /** A worker for the report workflows on its own task queue. */
  async worker(taskQueue: string, activities: ReportWorkflowActivities): Promise<Worker> {
    return Worker.create({ connection: this.env.nativeConnection, namespace: this.env.namespace ?? 'default', taskQueue, workflowBundle: await workflowBundle(), activities });
  }

  /** Skips to `by` and returns the schedule's result, which must be in by then. */
  async resultBy(handle: ScheduleHandle, by: number): Promise<ReportScheduleResult> {
    await this.sleepUntil(by);
    const description = await handle.describe();
    if (description.status.name !== 'COMPLETED') throw new Error(`report schedule ${handle.workflowId} is ${description.status.name} at ${iso(by)}`);
    return this.closedResult<typeof campaignReportScheduleWorkflow>(handle.workflowId);
  }

  /**
   * Skips to `startAt`, starts the campaign's report schedule there (a random campaign id unless the setup names one) and runs
   * `body` while a worker serves it. A schedule still running afterwards is terminated, so its
   * timers do not fire in later tests.
   */
  async schedule(
    startAt: number,
    setup: Omit<ReportScheduleInput, 'campaignId' | 'accountId'> & Partial<Pick<ReportScheduleInput, 'campaignId' | 'accountId'>>,
    activities: ReportWorkflowActivities,
    body: (handle: ScheduleHandle, input: ReportScheduleInput) => Promise<void>,
  ): Promise<void> {
    const input: ReportScheduleInput = { campaignId: `cmp_${randomUUID().slice(0, 8)}`, accountId: 'acc_test', ...setup };
    const taskQueue = `reports-${input.campaignId}`;
    const worker = await this.worker(taskQueue, activities);
    let handle: ScheduleHandle | undefined;
    await this.sleepUntil(startAt);
    try {
      await worker.runUntil(async () => {
        handle = await this.env.client.workflow.start(campaignReportScheduleWorkflow, { taskQueue, workflowId: reportScheduleWorkflowId(input.campaignId), args: [input] });
        await body(handle, input);
      });
    } finally {
      if (handle !== undefined) await handle.terminate('test over').catch(() => undefined);
    }
  }

  /** Runs the on-demand report workflow of `input` to its end and returns its result. */
  async onDemand(input: CampaignReportInput, activities: ReportWorkflowActivities): Promise<SendReportResult> {
    const taskQueue = `report-${input.reportId}`;
    const worker = await this.worker(taskQueue, activities);
    return worker.runUntil(async () => {
      const handle = await this.env.client.workflow.start(campaignReportWorkflow, { taskQueue, workflowId: campaignReportWorkflowId(input.reportId), args: [input] });
      await this.sleepUntil((await this.now()) + MINUTE);
      const description = await handle.describe();
      if (description.status.name !== 'COMPLETED') throw new Error(`report workflow ${handle.workflowId} is ${description.status.name}`);
      return this.closedResult<typeof campaignReportWorkflow>(handle.workflowId);
    });
  }
}

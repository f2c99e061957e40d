/**
 * One time-skipping environment per test file, and a campaign workflow per test on its own task
 * queue with fake activities (see fake-activities.ts). Also the date arithmetic the tests use to
 * pick their simulated dates (independent of workflows/campaign/calendar.ts, which is under test).
 */
import type { WorkflowHandleWithFirstExecutionRunId } from '@temporalio/client';
import { randomUUID } from 'node:crypto';
import { registerSearchAttributes } from '../../../src/temporal/register-search-attributes';
import { campaignWorkflow } from '../../../workflows';
import { campaignWorkflowId, statusQuery, type CampaignStatusView, type CampaignWorkflowInput } from '../../../workflows/campaign/contract';
import { TimeSkippingHarness } from '../../support/time-skipping-harness';
import { createTestWorker } from '../../support/workflow-worker';
import { FakeCampaignActivities, type FakeOptions } from './fake-activities';
import type { CampaignSchedule } from '../../../src/campaigns/model/schedule';

export const DAY = 86_400_000;
export const HOUR = 3_600_000;
export const MINUTE = 60_000;

export type CampaignHandle = WorkflowHandleWithFirstExecutionRunId<typeof campaignWorkflow>;

export interface CampaignCtx {
  readonly fake: FakeCampaignActivities;
  readonly handle: CampaignHandle;
  readonly input: CampaignWorkflowInput;
}

/** The input a test sets (a random campaign id unless it names one). */
export type CampaignSetup = Partial<Omit<CampaignWorkflowInput, 'accountId'>>;

export class CampaignHarness extends TimeSkippingHarness {
  override async start(): Promise<void> {
    await super.start();
    await registerSearchAttributes(this.env.connection, this.env.namespace ?? 'default');
  }

  /** Skips to `by` and returns the campaign's result, which must be in by then. */
  async resultBy(handle: CampaignHandle, by: number): Promise<CampaignStatusView> {
    await this.sleepUntil(by);
    const description = await handle.describe();
    if (description.status.name === 'RUNNING') {
      const view = await handle.query(statusQuery);
      throw new Error(`campaign still running at ${new Date(by).toISOString()}: ${view.status} (${String(view.reason)})`);
    }
    return this.closedResult<typeof campaignWorkflow>(handle.workflowId);
  }

  /**
   * Starts a campaign (sales_outreach unless told) and runs `body` while a worker serves it. A
   * campaign still running afterwards is terminated, so that its timers do not fire in later tests.
   */
  async campaign(setup: CampaignSetup, fakeOptions: FakeOptions, body: (ctx: CampaignCtx) => Promise<void>): Promise<void> {
    const fake = new FakeCampaignActivities(fakeOptions);
    const input: CampaignWorkflowInput = { campaignId: `cmp_${randomUUID().slice(0, 8)}`, accountId: 'acc_test', mcp: 'sales_outreach', targetUrl: 'https://target.example', ...setup };
    const taskQueue = `tq-${input.campaignId}`;
    const worker = await createTestWorker(this.env, taskQueue, fake.activities());
    let handle: CampaignHandle | undefined;
    try {
      await worker.runUntil(async () => {
        handle = await this.env.client.workflow.start(campaignWorkflow, { taskQueue, workflowId: campaignWorkflowId(input.campaignId), args: [input] });
        await body({ fake, handle, input });
      });
    } finally {
      if (handle !== undefined) await handle.terminate('test over').catch(() => undefined);
    }
  }
}

/** UTC date of an instant. */
export const utcDate = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
/** `date` plus `n` days. */
export const plusDays = (date: string, n: number): string => utcDate(Date.parse(`${date}T00:00:00Z`) + n * DAY);
/** An instant given as a UTC date and time: at('2026-03-01', '09:00'). */
export const at = (date: string, time = '00:00'): number => Date.parse(`${date}T${time}:00.000Z`);
export const iso = (date: string, time = '00:00'): string => new Date(at(date, time)).toISOString();
/** 1 = Monday ... 7 = Sunday. */
export const weekday = (date: string): number => new Date(at(date)).getUTCDay() || 7;
/** Days in the month of a date. */
export const daysInMonth = (date: string): number => {
  const d = new Date(at(date));
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
};

/** The first date after the day of `now` (so a start date is always in the future) that `ok` accepts. */
export function firstDateAfter(now: number, ok: (date: string) => boolean): string {
  for (let date = plusDays(utcDate(now), 1); ; date = plusDays(date, 1)) if (ok(date)) return date;
}

/** Whole days from `from` to `to` (dates). */
export const daysBetween = (from: string, to: string): number => Math.round((at(to) - at(from)) / DAY);

/** A schedule in the campaign's own zone (UTC, every day 09:00-17:00 unless `s` says otherwise). */
export const aSchedule = (s: Partial<CampaignSchedule> = {}): CampaignSchedule => ({
  frequency: 'daily',
  timezone: 'UTC',
  leadTimezones: false,
  window: { startMinute: 9 * 60, endMinute: 17 * 60 },
  days: null,
  blackoutDates: [],
  skipHolidays: false,
  ...s,
});

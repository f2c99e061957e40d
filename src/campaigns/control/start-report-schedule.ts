import { WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { Logger } from '../../log/logger';
import { reportFrequencyOf } from '../model/report-schedule';
import { reportingChangedSignal, reportScheduleWorkflowId, type ReportScheduleInput } from '../../../workflows/reports/contract';
import type { campaignReportScheduleWorkflow } from '../../../workflows/reports/schedule-workflow';

/** What the report schedule is started from: a campaign row's reporting settings. */
export interface ReportingCampaign {
  readonly id: string;
  readonly accountId: string;
  readonly reportingFrequency: string | null;
  readonly timezone: string;
  readonly createdAt: Date;
}

export function reportScheduleInputOf(c: ReportingCampaign): ReportScheduleInput {
  return { campaignId: c.id, accountId: c.accountId, frequency: reportFrequencyOf(c.reportingFrequency), timeZone: c.timezone, since: c.createdAt.getTime() };
}

/**
 * Starts the campaign's report schedule (`campaign-reports-<id>`); one already running is left as
 * it is ('running'), so a create retried, the worker's sweep and a second worker all agree. A
 * schedule that ended (its campaign ended, or its email was removed) may be started again.
 */
export async function startReportSchedule(temporal: Client, taskQueue: string, c: ReportingCampaign): Promise<'started' | 'running'> {
  const input = reportScheduleInputOf(c);
  try {
    await temporal.workflow.start<typeof campaignReportScheduleWorkflow>('campaignReportScheduleWorkflow', {
      taskQueue,
      workflowId: reportScheduleWorkflowId(c.id),
      workflowIdConflictPolicy: 'FAIL',
      workflowIdReusePolicy: 'ALLOW_DUPLICATE',
      args: [input],
      staticSummary: `Emailed ${input.frequency} reports of campaign ${c.id} at 08:00 ${input.timeZone}, and the final one when it ends`,
    });
    return 'started';
  } catch (err) {
    if (err instanceof WorkflowExecutionAlreadyStartedError) return 'running';
    throw err;
  }
}

/**
 * After an edit of the campaign's reporting (or of its zone): the schedule follows the row. With
 * an email, a running schedule is told its new frequency and zone, and one that is not running is
 * started; without one, a running schedule is told, and ends. A report is never a reason to refuse
 * the edit: a failure here is logged (the worker's sweep starts a missing schedule later).
 */
export async function refreshReportSchedule(temporal: Client, taskQueue: string, c: ReportingCampaign & { readonly reportingEmail: string | null }, log?: Logger): Promise<void> {
  const handle = temporal.workflow.getHandle(reportScheduleWorkflowId(c.id));
  const input = reportScheduleInputOf(c);
  try {
    if (c.reportingEmail === null || c.reportingEmail === '') {
      await handle.signal(reportingChangedSignal, { hasEmail: false, frequency: input.frequency, timeZone: input.timeZone }).catch((err: unknown) => {
        if (!(err instanceof WorkflowNotFoundError)) throw err;
      });
      return;
    }
    if ((await startReportSchedule(temporal, taskQueue, c)) === 'started') return;
    await handle.signal(reportingChangedSignal, { hasEmail: true, frequency: input.frequency, timeZone: input.timeZone });
  } catch (err) {
    log?.warn({ err, campaignId: c.id }, 'report schedule not updated after an edit; the worker sweep starts a missing one');
  }
}

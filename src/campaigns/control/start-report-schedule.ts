import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import { reportFrequencyOf } from '../model/report-schedule';
import { reportScheduleWorkflowId, type ReportScheduleInput } from '../../../workflows/reports/contract';
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

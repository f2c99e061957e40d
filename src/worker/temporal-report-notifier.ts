import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { ReportNotifier } from '../../activities/deps';
import { campaignEndedSignal, reportScheduleWorkflowId } from '../../workflows/reports/contract';

/**
 * The production notifier: signals `campaignEnded` to the campaign's report schedule. A campaign
 * without a report email has no schedule, and one whose schedule already ended (a retried
 * transition after the final report) has nothing left to tell: neither is an error. Anything else
 * (Temporal unreachable) fails the activity, which Temporal retries.
 */
export function temporalReportNotifier(client: Client): ReportNotifier {
  return {
    async campaignEnded(campaignId, ended) {
      try {
        await client.workflow.getHandle(reportScheduleWorkflowId(campaignId)).signal(campaignEndedSignal, ended);
      } catch (err) {
        if (!(err instanceof WorkflowNotFoundError)) throw err;
      }
    },
  };
}

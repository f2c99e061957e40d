/**
 * The report workflows' activity proxies, typed from the implementations the worker registers:
 * an activity whose name or input changes there fails the typecheck here.
 */
import { proxyActivities } from '@temporalio/workflow';
import type { ReportWorkflowActivities } from '../../activities';

// A report renders its chart and goes out over SMTP: a couple of minutes is plenty. Trouble on the
// way (the database, the SMTP relay) is retried with a backoff up to every 30 minutes for one day
// in all, which outlasts an outage without letting a report arrive days late; the workflow then
// moves on to the next period. What retrying cannot change (the campaign is gone, an address the
// relay refuses) comes back as a non-retryable failure or as the report's `failed` status.
export const { sendCampaignReport } = proxyActivities<ReportWorkflowActivities>({
  startToCloseTimeout: '2 minutes',
  scheduleToCloseTimeout: '1 day',
  retry: { initialInterval: '10 seconds', backoffCoefficient: 2, maximumInterval: '30 minutes' },
});

// Marking a report failed is one UPDATE: retried until the database answers.
export const { markCampaignReportFailed } = proxyActivities<ReportWorkflowActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '5 seconds', backoffCoefficient: 2, maximumInterval: '5 minutes' },
});

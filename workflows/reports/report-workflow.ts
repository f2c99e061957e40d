import { ActivityFailure } from '@temporalio/workflow';
import { markCampaignReportFailed, sendCampaignReport } from './activity-proxies';
import type { CampaignReportInput, SendReportResult } from './contract';

/**
 * One report asked for through the API (`POST /campaigns/:id/reports`, id
 * `campaign-report-<reportId>`): the row the API inserted is sent, retried through trouble like a
 * scheduled one, so the API answers 202 at once and a worker restart loses nothing. When the
 * activity gives up, the row is marked failed with the last error rather than left pending.
 */
export async function campaignReportWorkflow(input: CampaignReportInput): Promise<SendReportResult> {
  try {
    return await sendCampaignReport({ campaignId: input.campaignId, kind: 'on_demand', periodStart: input.periodStart, periodEnd: input.periodEnd, reportId: input.reportId });
  } catch (err) {
    if (!(err instanceof ActivityFailure)) throw err;
    await markCampaignReportFailed({ reportId: input.reportId, error: err.cause?.message ?? err.message });
    return { reportId: input.reportId, status: 'failed' };
  }
}

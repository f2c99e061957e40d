import type { AppDeps } from '../../../api/deps';
import { PREVIEW_HEADERS, previewReport, sendReportNow } from '../../../api/resources/campaign-reports/report-actions';

/** "Send a report now" on the campaign page: the very request of POST /campaigns/:id/reports (a 429 within a minute of the last). */
export async function requestReportNow(deps: AppDeps, accountId: string, campaignId: string): Promise<void> {
  await sendReportNow(deps, accountId, campaignId, undefined);
}

/** The report of the period so far as its recipient would read it, as GET /campaigns/:id/reports/preview renders it. */
export async function reportPreview(deps: AppDeps, accountId: string, campaignId: string): Promise<{ raw: string; headers: Record<string, string> }> {
  return { raw: await previewReport(deps, accountId, campaignId), headers: { ...PREVIEW_HEADERS } };
}

import { nextReportEndingAfter, reportFrequencyOf } from '../model/report-schedule';
import type { CampaignReadModel } from './campaign-read-model';

/**
 * When the campaign's next scheduled report goes (GET /campaigns/:id's `reporting.next_report_at`,
 * the campaign page): the time its schedule workflow sends the next one, of its frequency (daily
 * when none was given) in its zone; null without a reporting email, for a draft (no schedule runs
 * until it is started), and once the campaign has completed or failed (its final report has gone).
 */
export function nextReportTime(c: Pick<CampaignReadModel, 'reportingEmail' | 'reportingFrequency' | 'timezone' | 'status' | 'createdAt'>, now: Date): Date | null {
  if (c.reportingEmail === null || c.status === 'draft' || c.status === 'completed' || c.status === 'failed') return null;
  return new Date(nextReportEndingAfter(reportFrequencyOf(c.reportingFrequency), c.timezone, now.getTime(), c.createdAt.getTime()));
}

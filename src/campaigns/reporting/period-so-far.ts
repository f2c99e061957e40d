import { currentPeriod, reportFrequencyOf, type ReportPeriod } from '../model/report-schedule';

/**
 * What an on-demand report covers, and so the preview: the campaign's current report period so
 * far (today, this week from Monday, this month from the 1st in its zone; daily without a
 * reporting frequency), never before the campaign was created. control/request-report.ts inserts
 * the on-demand report with this period.
 */
export function periodSoFar(c: { readonly reportingFrequency: string | null; readonly timezone: string; readonly createdAt: Date }, now: Date): ReportPeriod {
  const start = Math.max(currentPeriod(reportFrequencyOf(c.reportingFrequency), c.timezone, now.getTime()).start, c.createdAt.getTime());
  return { start: Math.min(start, now.getTime()), end: now.getTime() };
}

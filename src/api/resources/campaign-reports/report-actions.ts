import { ownedCampaign } from '../../../campaigns/campaign-repository';
import { periodReport, readReportCampaign } from '../../../campaigns/reporting/period-report';
import { renderReportEmail } from '../../../campaigns/reporting/report-email';
import { reportPage, type ReportPage } from '../../../campaigns/reporting/report-repository';
import { periodSoFar } from '../../../campaigns/reporting/period-so-far';
import { ReportTooSoonError, requestReport } from '../../../campaigns/control/request-report';
import type { CampaignReportRow } from '../../../campaigns/reporting/report-repository';
import { NotFoundError } from '../../../errors/domain-errors';
import type { AppDeps } from '../../deps';
import { HttpError } from '../../http/errors';
import { withTemporal } from '../campaigns/temporal-unavailable';

/** What both surfaces' report routes do; each renders the result in its casing. */

/** POST: the on-demand report, or a 429 with Retry-After when one was asked for less than a minute ago. */
export async function sendReportNow(deps: AppDeps, accountId: string, campaignId: string, email: string | undefined): Promise<CampaignReportRow> {
  try {
    return await withTemporal('send the report', () =>
      requestReport({ sequelize: deps.sequelize, temporal: deps.temporal.get(), taskQueue: deps.config.temporalTaskQueue }, accountId, campaignId, email),
    );
  } catch (err) {
    if (err instanceof ReportTooSoonError) {
      throw new HttpError(429, `A report of this campaign was asked for less than a minute ago: try again in ${err.retryAfterSeconds} s`, {
        'Retry-After': String(err.retryAfterSeconds),
      });
    }
    throw err;
  }
}

export async function listReports(deps: AppDeps, accountId: string, campaignId: string, page: number, perPage: number): Promise<ReportPage> {
  const c = await ownedCampaign(accountId, campaignId);
  return reportPage(deps.sequelize, c.id, perPage, (page - 1) * perPage);
}

/** The HTML of the report of the period so far, with the chart inline as a data: URI. Nothing is sent or stored. */
export async function previewReport(deps: AppDeps, accountId: string, campaignId: string): Promise<string> {
  const owned = await ownedCampaign(accountId, campaignId);
  const campaign = await readReportCampaign(deps.sequelize, owned.id);
  if (campaign === null) throw new NotFoundError('campaign');
  const period = periodSoFar(campaign, new Date());
  const figures = await periodReport(deps.sequelize, campaign, { start: new Date(period.start), end: new Date(period.end) });
  return (await renderReportEmail(figures, 'on_demand', deps.config, { chart: 'data' })).html;
}

/** The preview is the service's own markup with escaped values; it may load nothing but its inline styles and the data: chart. */
export const PREVIEW_HEADERS = {
  'Content-Type': 'text/html; charset=utf-8',
  'Content-Security-Policy': "default-src 'none'; img-src data:; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'self'",
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
} as const;

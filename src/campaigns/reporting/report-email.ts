/**
 * An emailed report rendered: subject, HTML part (src/web/templates/emails/campaign-report.eta,
 * Eta with autoEscape), plain-text part, and the daily chart as a PNG: attached inline and named
 * by Content-ID in the email, or a data: URI in the preview (a browser has no cid:).
 */
import path from 'node:path';
import { Eta } from 'eta';
import type { ReportKind } from '../../../workflows/reports/contract';
import type { Config } from '../../config/config';
import { campaignPageUrl } from '../../config/public-urls';
import type { ServiceMailAttachment } from '../../service-mail/send-service-email';
import { dailyActivityChart } from '../../web/charts/daily-activity-chart';
import { renderChartPng } from '../../web/charts/render-chart';
import type { PeriodReport } from './period-report';
import { reportText, reportView } from './report-view';

const eta = new Eta({ views: path.join(__dirname, '../../web/templates/emails'), autoEscape: true, cache: true, autoTrim: false });

/** The Content-ID of the chart's image part (the HTML's `<img src="cid:…">`). */
export const CHART_CID = 'daily-chart@campaign-report';

export interface ReportEmail {
  readonly subject: string;
  readonly html: string;
  readonly text: string;
  /** The chart, inline (`cid`), for the email; empty for the preview. */
  readonly attachments: readonly ServiceMailAttachment[];
}

export async function renderReportEmail(
  r: PeriodReport,
  kind: ReportKind,
  config: Pick<Config, 'publicBaseUrl'>,
  opts: { readonly chart: 'cid' | 'data' },
): Promise<ReportEmail> {
  const view = reportView(r, kind, r.campaign.reportingFrequency, campaignPageUrl(config, r.campaign.id));
  const spec = dailyActivityChart(r.daily, { title: 'Emails per day' });
  const png = await renderChartPng(spec);
  const chartSrc = opts.chart === 'cid' ? `cid:${CHART_CID}` : `data:image/png;base64,${png.toString('base64')}`;
  const html = eta.render('campaign-report', { v: view, chartSrc, chartAlt: String(spec.description) });
  return {
    // A campaign name is one line in the header, whatever was typed.
    subject: view.subject.replace(/[\r\n\t]+/g, ' '),
    html,
    text: reportText(view),
    attachments: opts.chart === 'cid' ? [{ filename: 'daily-chart.png', contentType: 'image/png', content: png, cid: CHART_CID }] : [],
  };
}

import { defineRoute } from '../../http/route';
import { CampaignId } from '../campaigns/schemas';
import { reportA } from './present';
import { listReports, PREVIEW_HEADERS, previewReport, sendReportNow } from './report-actions';
import { CampaignReport, ReportList, ReportListQuery, ReportRequestBody } from './schemas';

/**
 * Surface A's campaign reports (Bearer key, snake_case): send one now, list them, preview the
 * next. Another account's campaign, or an unknown id, is a 404. Surface B's are routes-b.ts.
 */

const PERIOD_SO_FAR =
  "The report covers the campaign's current report period so far (today, this week from Monday or this month from the 1st in the campaign's time zone, after its reporting.frequency; since the campaign's creation without one) up to now.";

const send = defineRoute({
  method: 'post',
  path: '/campaigns/:id/reports',
  auth: 'a',
  operationId: 'sendCampaignReport',
  summary: 'Email the campaign\'s report of the period so far, now',
  description:
    `${PERIOD_SO_FAR} It goes to \`email\` when given, else to the campaign's reporting.email (neither: 400), from the account's default sender, ` +
    'and is sent by a workflow of its own: the answer is the report, pending; GET /campaigns/{id}/reports shows when it was sent. ' +
    'At most one report per campaign per minute: another is a 429 with Retry-After (seconds).',
  tags: ['campaigns'],
  params: CampaignId,
  body: ReportRequestBody,
  responses: { 202: { description: 'The report, being sent', schema: CampaignReport('snake') } },
  errors: [404, 503],
  handler: async ({ params, body }, { auth, deps }) => {
    const report = await sendReportNow(deps, auth.accountId, params.id, body.email);
    return { status: 202, body: reportA(report) };
  },
});

const list = defineRoute({
  method: 'get',
  path: '/campaigns/:id/reports',
  auth: 'a',
  operationId: 'listCampaignReports',
  summary: 'The campaign\'s emailed reports, newest first',
  description: 'Scheduled, final and on-demand reports with their period, recipient, status and when each was sent.',
  tags: ['campaigns'],
  params: CampaignId,
  query: ReportListQuery('snake'),
  responses: { 200: { description: 'A page of reports', schema: ReportList('snake') } },
  errors: [404],
  handler: async ({ params, query }, { auth, deps }) => {
    const page = query.page ?? 1;
    const perPage = query.per_page ?? 20;
    const result = await listReports(deps, auth.accountId, params.id, page, perPage);
    return { body: { campaign_id: params.id, reports: result.reports.map(reportA), pagination: { total: result.total, page, per_page: perPage } } };
  },
});

const preview = defineRoute({
  method: 'get',
  path: '/campaigns/:id/reports/preview',
  auth: 'a',
  operationId: 'previewCampaignReport',
  summary: 'The HTML of the campaign\'s report of the period so far, without sending it',
  description: `${PERIOD_SO_FAR} The chart is inline (a data: URI) instead of the email's attached image. Nothing is sent or recorded.`,
  tags: ['campaigns'],
  params: CampaignId,
  responses: { 200: { description: 'The report as an HTML page', contentType: 'text/html' } },
  errors: [404],
  handler: async ({ params }, { auth, deps }) => ({ body: await previewReport(deps, auth.accountId, params.id), headers: PREVIEW_HEADERS }),
});

export const campaignReportRoutesA = [preview, send, list];

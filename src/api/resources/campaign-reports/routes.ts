import { campaignStats } from '../../../campaigns/reporting/campaign-stats';
import { dailyStats, resolveDailyRange } from '../../../campaigns/reporting/daily-stats';
import { openExportRows } from '../../../campaigns/reporting/export-rows';
import { repliesPage } from '../../../campaigns/reporting/replies-page';
import { badRequest } from '../../http/errors';
import { defineRoute } from '../../http/route';
import { EXPORT_CONTENT_TYPES, exportBody, exportFileName } from './export';
import { campaignDetailOr404, ownedCampaignOr404 } from './owned-or-404';
import {
  CampaignDetailResponse,
  CampaignIdParams,
  CampaignStatsResponse,
  DailyStatsQuery,
  DailyStatsResponse,
  ExportQuery,
  RepliesQuery,
  RepliesResponse,
} from './schemas';
import { campaignDetailView, campaignStatsView, dailyStatsView, replyView } from './views';

/**
 * Surface A's read endpoints of one campaign. The figures come from PostgreSQL (the facts and
 * costs tables are authoritative); the queries live in src/campaigns/reporting so Surface B can
 * render the same results. Another account's campaign is a 404, exactly like a missing one.
 */

const getCampaign = defineRoute({
  method: 'get',
  path: '/campaigns/:id',
  auth: 'a',
  operationId: 'getCampaign',
  summary: 'A campaign: its settings, status and headline figures',
  tags: ['campaigns'],
  params: CampaignIdParams,
  responses: { 200: { description: 'The campaign', schema: CampaignDetailResponse } },
  errors: [404],
  handler: async ({ params }, { auth, deps }) => {
    return { body: campaignDetailView(await campaignDetailOr404(deps.sequelize, auth.accountId, params.id), deps.config) };
  },
});

const getStats = defineRoute({
  method: 'get',
  path: '/campaigns/:id/stats',
  auth: 'a',
  operationId: 'getCampaignStats',
  summary: 'A campaign\'s statistics: counts, rates and costs',
  description:
    'Counts come from the recorded facts: emails_sent counts sends; delivered, bounced, opened, clicked, replied and unsubscribed ' +
    'count emails (an email opened twice or with two links clicked counts once); delivered excludes emails that bounced later. ' +
    'Rates divide by emails_sent (delivery_rate) or delivered (the others).',
  tags: ['campaigns'],
  params: CampaignIdParams,
  responses: { 200: { description: 'The statistics', schema: CampaignStatsResponse } },
  errors: [404],
  handler: async ({ params }, { auth, deps }) => {
    const c = await ownedCampaignOr404(auth.accountId, params.id);
    return { body: campaignStatsView(await campaignStats(deps.sequelize, c)) };
  },
});

const getDailyStats = defineRoute({
  method: 'get',
  path: '/campaigns/:id/stats/daily',
  auth: 'a',
  operationId: 'getCampaignDailyStats',
  summary: 'A campaign\'s figures per UTC day',
  description: 'One item per day from start to end inclusive (at most 366 days), days without activity included. start after end is a 400.',
  tags: ['campaigns'],
  params: CampaignIdParams,
  query: DailyStatsQuery,
  responses: { 200: { description: 'The days, oldest first', schema: DailyStatsResponse } },
  errors: [404],
  handler: async ({ params, query }, { auth, deps }) => {
    const c = await ownedCampaignOr404(auth.accountId, params.id);
    const range = resolveDailyRange(c, query, new Date());
    if ('problem' in range) throw badRequest(range.problem);
    return { body: dailyStatsView(c.id, await dailyStats(deps.sequelize, c.id, range.start, range.end)) };
  },
});

const listReplies = defineRoute({
  method: 'get',
  path: '/campaigns/:id/replies',
  auth: 'a',
  operationId: 'listCampaignReplies',
  summary: 'Replies to a campaign\'s emails, newest first',
  description: 'Replies written by a person; auto-replies (out of office) and bounces are not listed. Filter by sentiment: positive, neutral or negative.',
  tags: ['campaigns'],
  params: CampaignIdParams,
  query: RepliesQuery,
  responses: { 200: { description: 'A page of replies', schema: RepliesResponse } },
  errors: [404],
  handler: async ({ params, query }, { auth, deps }) => {
    const c = await ownedCampaignOr404(auth.accountId, params.id);
    const page = query.page ?? 1;
    const perPage = query.per_page ?? 20;
    const result = await repliesPage(deps.sequelize, c.id, { sentiment: query.sentiment, page, perPage });
    return { body: { campaign_id: c.id, replies: result.replies.map(replyView), pagination: { total: result.total, page, per_page: perPage } } };
  },
});

const exportCampaign = defineRoute({
  method: 'get',
  path: '/campaigns/:id/export',
  auth: 'a',
  operationId: 'exportCampaign',
  summary: 'Download every fact of a campaign as CSV or JSON',
  description:
    'An attachment named `<campaign-name>-<id>.csv|json` with one row per fact, oldest first: sent, delivered, bounced, opened, ' +
    'clicked, replied, unsubscribed, complained, meeting_booked. Columns (CSV header row, JSON keys): occurred_at, event, email_id, ' +
    'lead_email, lead_name, company, step (1 = first email), subject, message_id, url (clicks), reply_sentiment, reply_category, ' +
    'reply_preview (replies), bounce_reason (bounces). Empty CSV cells and JSON nulls mean "not applicable". JSON is an array of ' +
    'objects. The file is streamed as it is read; a download cut short by a server error ends without the closing bytes. In CSV, ' +
    'a text cell starting with =, +, -, @, tab or carriage return is prefixed with an apostrophe so spreadsheets do not run it as a formula.',
  tags: ['campaigns'],
  params: CampaignIdParams,
  query: ExportQuery,
  responses: { 200: { description: 'The export file (text/csv, or application/json for format=json)', contentType: 'text/csv', alsoContentTypes: ['application/json'] } },
  errors: [404],
  handler: async ({ params, query }, { auth, deps, log }) => {
    const c = await ownedCampaignOr404(auth.accountId, params.id);
    const format = query.format ?? 'csv';
    // Opened last: from here on the stream owns a pooled connection until Koa has sent or dropped it.
    const rows = await openExportRows(deps.sequelize, c.id);
    return {
      body: exportBody(rows, format, log),
      headers: {
        'Content-Type': EXPORT_CONTENT_TYPES[format],
        'Content-Disposition': `attachment; filename="${exportFileName(c.name, c.id, format)}"`,
        'Cache-Control': 'no-store',
        'X-Content-Type-Options': 'nosniff',
      },
    };
  },
});

export const campaignReportRoutes = [getCampaign, getStats, getDailyStats, listReplies, exportCampaign];

import { campaignListPage, ownedCampaign } from '../../../campaigns/campaign-repository';
import { pauseCampaign, resumeCampaign } from '../../../campaigns/control/campaign-control';
import { actorOf } from '../../../campaigns/edit/actor';
import { startCampaign } from '../../../campaigns/control/start-campaign';
import { readCampaign } from '../../../campaigns/reporting/campaign-read-model';
import { campaignStats } from '../../../campaigns/reporting/campaign-stats';
import { campaignStepReport } from '../../../campaigns/reporting/campaign-step-report';
import { stepStatsA } from './present-step-stats';
import { StepStatsResponse } from './step-stats-schemas';
import { dailyStats, resolveDailyRange } from '../../../campaigns/reporting/daily-stats';
import { repliesPage } from '../../../campaigns/reporting/replies-page';
import { badRequest } from '../../http/errors';
import { defineRoute } from '../../http/route';
import { controlDeps, startDeps } from './campaign-deps';
import { checkLeadLists, checkMailboxes } from './create-fields';
import { campaignFieldsFromA } from './create-fields-a';
import { campaignExport } from './export-file';
import { campaignA, createdA, dailyStatsA, listItemA, pausedA, replyA, resumedA, statsA } from './present-a';
import { CampaignId } from './schemas';
import {
  CampaignA,
  CampaignListQueryA,
  CampaignListResponseA,
  CampaignStatsA,
  CreateCampaignBodyA,
  CreatedCampaignA,
  DailyStatsA,
  DailyStatsQueryA,
  ExportQueryA,
  PausedA,
  RepliesA,
  RepliesQueryA,
  ResumedA,
} from './schemas-a';
import { withTemporal } from './temporal-unavailable';

/**
 * Surface A's campaign routes (Bearer key, snake_case), rendered by present-a.ts. Surface B's
 * (routes-b.ts) serve the same campaigns: the same rows, workflow, control and reporting. The
 * figures come from PostgreSQL (the facts and costs tables are authoritative). Another account's
 * campaign is a 404, exactly like a missing one.
 */

const list = defineRoute({
  method: 'get',
  path: '/campaigns',
  auth: 'a',
  operationId: 'listCampaigns',
  summary: 'List the account\'s campaigns, newest first',
  tags: ['campaigns'],
  query: CampaignListQueryA,
  responses: { 200: { description: 'A page of campaigns', schema: CampaignListResponseA } },
  handler: async ({ query }, { auth }) => {
    const page = query.page ?? 1;
    const perPage = query.per_page ?? 20;
    const { rows, total } = await campaignListPage(auth.accountId, { status: query.status, mcp: query.mcp, limit: perPage, offset: (page - 1) * perPage });
    return { body: { campaigns: rows.map(listItemA), pagination: { total, page, per_page: perPage } } };
  },
});

const create = defineRoute({
  method: 'post',
  path: '/campaigns',
  auth: 'a',
  operationId: 'createCampaign',
  idempotent: true,
  summary: 'Create a campaign and start its workflow',
  description:
    'Stores the campaign (status starting) and starts its durable workflow `campaign-<id>`: it waits for `schedule.start_date`, scrapes the target, plans its first leads, then moves to running and sends on its schedule. An unknown `mcp` is a 400 that lists the valid templates.',
  tags: ['campaigns'],
  body: CreateCampaignBodyA,
  responses: { 201: { description: 'The campaign, starting', schema: CreatedCampaignA } },
  errors: [503],
  handler: async ({ body }, { auth, deps }) => {
    const { fields, sequence, control } = campaignFieldsFromA(body, auth.accountId, deps.config);
    await checkLeadLists(deps.sequelize, auth.accountId, control, 'lead_list_ids');
    await checkMailboxes(deps.sequelize, auth.accountId, fields, 'mailbox_ids');
    const campaign = await withTemporal('start the campaign', () => startCampaign(startDeps(deps), fields, sequence, control));
    return { status: 201, body: createdA(campaign, deps.config), headers: { Location: `/campaigns/${campaign.id}` } };
  },
});

const pause = defineRoute({
  method: 'post',
  path: '/campaigns/:id/pause',
  auth: 'a',
  operationId: 'pauseCampaign',
  summary: 'Pause a campaign',
  description:
    'Allowed from starting, running and budget_paused; 409 otherwise. When the answer arrives, the status is paused everywhere (a GET shows it) and no further email of the campaign is sent.',
  tags: ['campaigns'],
  params: CampaignId,
  responses: { 200: { description: 'The campaign, paused', schema: PausedA } },
  errors: [409, 503],
  handler: async ({ params }, { auth, deps }) => ({
    body: pausedA(await withTemporal('pause the campaign', () => pauseCampaign(controlDeps(deps), auth.accountId, params.id, actorOf(auth, 'api_a')))),
  }),
});

const resume = defineRoute({
  method: 'post',
  path: '/campaigns/:id/resume',
  auth: 'a',
  operationId: 'resumeCampaign',
  summary: 'Resume a paused campaign',
  description:
    'Allowed from paused, and from budget_paused once every budget limit has room again; 409 otherwise (also while the plan\'s monthly email quota is used up). A campaign paused before its start date goes back to starting.',
  tags: ['campaigns'],
  params: CampaignId,
  responses: { 200: { description: 'The campaign, resumed', schema: ResumedA } },
  errors: [409, 503],
  handler: async ({ params }, { auth, deps }) => ({
    body: resumedA(await withTemporal('resume the campaign', () => resumeCampaign(controlDeps(deps), auth.accountId, params.id, actorOf(auth, 'api_a')))),
  }),
});

const get = defineRoute({
  method: 'get',
  path: '/campaigns/:id',
  auth: 'a',
  operationId: 'getCampaign',
  summary: 'A campaign: its settings, status and headline figures',
  tags: ['campaigns'],
  params: CampaignId,
  responses: { 200: { description: 'The campaign', schema: CampaignA } },
  errors: [404],
  handler: async ({ params }, { auth, deps }) => ({ body: campaignA(await readCampaign(deps.sequelize, auth.accountId, params.id), deps.config) }),
});

const stats = defineRoute({
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
  params: CampaignId,
  responses: { 200: { description: 'The statistics', schema: CampaignStatsA } },
  errors: [404],
  handler: async ({ params }, { auth, deps }) => ({ body: statsA(await campaignStats(deps.sequelize, await ownedCampaign(auth.accountId, params.id))) }),
});

const stepStats = defineRoute({
  method: 'get',
  path: '/campaigns/:id/stats/steps',
  auth: 'a',
  operationId: 'getCampaignStepStats',
  summary: 'A campaign\'s figures per step and per variant',
  description:
    'For every step of the sequence in use, and every variant of it: sent, delivered, opened, clicked, replied, positive replies, bounced, ' +
    'unsubscribed, meetings booked and leads for whom the step was passed over, with rates (counted as GET /campaigns/{id}/stats counts them). ' +
    '`winner` marks the variant a decided variant test chose.',
  tags: ['campaigns'],
  params: CampaignId,
  responses: { 200: { description: 'The steps, first email first', schema: StepStatsResponse('snake') } },
  errors: [404],
  handler: async ({ params }, { auth, deps }) => {
    const c = await ownedCampaign(auth.accountId, params.id);
    const report = await campaignStepReport(deps.sequelize, auth.accountId, c.id);
    return { body: stepStatsA(c.id, report.steps, report.winners) };
  },
});

const dailyStatsRoute = defineRoute({
  method: 'get',
  path: '/campaigns/:id/stats/daily',
  auth: 'a',
  operationId: 'getCampaignDailyStats',
  summary: 'A campaign\'s figures per UTC day',
  description: 'One item per day from start to end inclusive (at most 366 days), days without activity included. start after end is a 400.',
  tags: ['campaigns'],
  params: CampaignId,
  query: DailyStatsQueryA,
  responses: { 200: { description: 'The days, oldest first', schema: DailyStatsA } },
  errors: [404],
  handler: async ({ params, query }, { auth, deps }) => {
    const c = await ownedCampaign(auth.accountId, params.id);
    const range = resolveDailyRange(c, query, new Date());
    if ('problem' in range) throw badRequest(range.problem);
    return { body: dailyStatsA(c.id, await dailyStats(deps.sequelize, c.id, range.start, range.end)) };
  },
});

const replies = defineRoute({
  method: 'get',
  path: '/campaigns/:id/replies',
  auth: 'a',
  operationId: 'listCampaignReplies',
  summary: 'Replies to a campaign\'s emails, newest first',
  description: 'Replies written by a person; auto-replies (out of office) and bounces are not listed. Filter by sentiment: positive, neutral or negative.',
  tags: ['campaigns'],
  params: CampaignId,
  query: RepliesQueryA,
  responses: { 200: { description: 'A page of replies', schema: RepliesA } },
  errors: [404],
  handler: async ({ params, query }, { auth, deps }) => {
    const c = await ownedCampaign(auth.accountId, params.id);
    const page = query.page ?? 1;
    const perPage = query.per_page ?? 20;
    const result = await repliesPage(deps.sequelize, c.id, { sentiment: query.sentiment, page, perPage });
    return { body: { campaign_id: c.id, replies: result.replies.map(replyA), pagination: { total: result.total, page, per_page: perPage } } };
  },
});

const exportFile = defineRoute({
  method: 'get',
  path: '/campaigns/:id/export',
  auth: 'a',
  operationId: 'exportCampaign',
  summary: 'Download every fact of a campaign as CSV or JSON',
  description:
    'An attachment named `<campaign-name>-<id>.csv|json` with one row per fact, oldest first: sent, delivered, bounced, opened, ' +
    'clicked, replied, unsubscribed, complained, meeting_booked. Columns (CSV header row, JSON keys): occurred_at, event, email_id, ' +
    'lead_email, lead_name, company, step (1 = first email), subject, message_id, url (clicks), reply_sentiment, reply_category, ' +
    "reply_preview (replies), bounce_reason (bounces), variant (the email's variant of its step, A-E; empty before variants), " +
    "lead_custom_fields (the lead's custom fields: an object in JSON, its JSON text in one CSV cell; {} when it has none). " +
    'Empty CSV cells and JSON nulls mean "not applicable". JSON is an array of ' +
    'objects. The file is streamed as it is read; a download cut short by a server error ends without the closing bytes. In CSV, ' +
    'a text cell starting with =, +, -, @, tab or carriage return is prefixed with an apostrophe so spreadsheets do not run it as a formula.',
  tags: ['campaigns'],
  params: CampaignId,
  query: ExportQueryA,
  responses: { 200: { description: 'The export file (text/csv, or application/json for format=json)', contentType: 'text/csv', alsoContentTypes: ['application/json'] } },
  errors: [404],
  handler: async ({ params, query }, { auth, deps, log }) => {
    const c = await ownedCampaign(auth.accountId, params.id);
    return campaignExport(deps.sequelize, c, query.format ?? 'csv', log);
  },
});

export const campaignRoutesA = [list, create, pause, resume, get, stats, stepStats, dailyStatsRoute, replies, exportFile];

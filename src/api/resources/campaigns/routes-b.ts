import { pauseCampaign, resumeCampaign } from '../../../campaigns/campaign-control';
import { campaignDetailsPage } from '../../../campaigns/reporting/campaign-detail';
import { campaignStats } from '../../../campaigns/reporting/campaign-stats';
import { startCampaign } from '../../../campaigns/start-campaign';
import { defineRoute } from '../../http/route';
import { campaignDetailOr404, ownedCampaignOr404 } from '../campaign-reports/owned-or-404';
import { control, controlDeps, withTemporal } from '../campaigns/campaign-actions';
import { campaignFieldsFromB } from './create-fields';
import {
  V1Campaign,
  V1CampaignIdParams,
  V1CampaignListQuery,
  V1CampaignListResponse,
  V1CampaignStatsResponse,
  V1CreateCampaignBody,
  V1ResumeResponse,
  V1StopResponse,
} from './schemas';
import { v1CampaignStatsView, v1CampaignView } from './views';

/**
 * Surface B's campaigns: the same rows, workflow and control as Surface A's (stop is A's pause),
 * rendered in camelCase. Another account's campaign is a 404 worded exactly like a missing one.
 */

const create = defineRoute({
  method: 'post',
  path: '/v1/campaigns',
  auth: 'b',
  operationId: 'v1CreateCampaign',
  summary: 'Create a campaign and start its workflow',
  description:
    'Stores the campaign (status starting) and starts its durable workflow, as POST /campaigns does: it scrapes brandUrl, plans its first ' +
    'leads, moves to running and sends the sales_outreach sequence every day between 09:00 and 17:00 UTC. brandUrl is checked like ' +
    'Surface A\'s target_url (a bare domain means https). 503, with nothing stored, when the workflow service is unavailable.',
  tags: ['campaigns'],
  body: V1CreateCampaignBody,
  responses: { 201: { description: 'The campaign, starting', schema: V1Campaign } },
  errors: [503],
  handler: async ({ body }, { auth, deps }) => {
    const fields = campaignFieldsFromB(body, auth.accountId);
    const campaign = await withTemporal('start the campaign', () =>
      startCampaign({ sequelize: deps.sequelize, temporal: deps.temporal.get(), taskQueue: deps.config.temporalTaskQueue }, fields),
    );
    return {
      status: 201,
      body: v1CampaignView(await campaignDetailOr404(deps.sequelize, auth.accountId, campaign.id), deps.config),
      headers: { Location: `/v1/campaigns/${campaign.id}` },
    };
  },
});

const list = defineRoute({
  method: 'get',
  path: '/v1/campaigns',
  auth: 'b',
  operationId: 'v1ListCampaigns',
  summary: 'List the account\'s campaigns, newest first (made on either surface)',
  tags: ['campaigns'],
  query: V1CampaignListQuery,
  responses: { 200: { description: 'A page of campaigns', schema: V1CampaignListResponse } },
  handler: async ({ query }, { auth, deps }) => {
    const page = query.page ?? 1;
    const perPage = query.perPage ?? 20;
    // The same order as Surface A's list, and each item as GET renders it (the same columns and figures).
    const { details, total } = await campaignDetailsPage(deps.sequelize, auth.accountId, { status: query.status, limit: perPage, offset: (page - 1) * perPage });
    return {
      body: {
        campaigns: details.map((d) => v1CampaignView(d, deps.config)),
        pagination: { total, page, perPage },
      },
    };
  },
});

const get = defineRoute({
  method: 'get',
  path: '/v1/campaigns/:id',
  auth: 'b',
  operationId: 'v1GetCampaign',
  summary: 'A campaign: its settings, status and headline figures',
  tags: ['campaigns'],
  params: V1CampaignIdParams,
  responses: { 200: { description: 'The campaign', schema: V1Campaign } },
  errors: [404],
  handler: async ({ params }, { auth, deps }) => ({ body: v1CampaignView(await campaignDetailOr404(deps.sequelize, auth.accountId, params.id), deps.config) }),
});

const stats = defineRoute({
  method: 'get',
  path: '/v1/campaigns/:id/stats',
  auth: 'b',
  operationId: 'v1GetCampaignStats',
  summary: 'A campaign\'s statistics: counts, rates and costs',
  description:
    'The figures of GET /campaigns/{id}/stats in camelCase. emailsSent counts sends; delivered, bounced, opened, clicked, replied and ' +
    'unsubscribed count emails (an email opened twice counts once); delivered excludes emails that bounced later. Rates divide by ' +
    'emailsSent (deliveryRate) or delivered (the others).',
  tags: ['campaigns'],
  params: V1CampaignIdParams,
  responses: { 200: { description: 'The statistics', schema: V1CampaignStatsResponse } },
  errors: [404],
  handler: async ({ params }, { auth, deps }) => {
    const c = await ownedCampaignOr404(auth.accountId, params.id);
    return { body: v1CampaignStatsView(await campaignStats(deps.sequelize, c)) };
  },
});

const stop = defineRoute({
  method: 'post',
  path: '/v1/campaigns/:id/stop',
  auth: 'b',
  operationId: 'v1StopCampaign',
  summary: 'Stop a campaign (Surface A\'s pause)',
  description:
    'Allowed from starting, running and budget_paused; 409 otherwise. The campaign becomes paused (reason manual) on both surfaces, and ' +
    'when the answer arrives no further email of it is sent. POST /v1/campaigns/{id}/resume continues it.',
  tags: ['campaigns'],
  params: V1CampaignIdParams,
  responses: { 200: { description: 'The campaign, stopped (status paused)', schema: V1StopResponse } },
  errors: [404, 409, 503],
  handler: async ({ params }, { auth, deps }) => {
    const r = await control('stop the campaign', () => pauseCampaign(controlDeps(deps), auth.accountId, params.id, 'stop'));
    return { body: { id: r.id, status: r.status, stoppedAt: r.at.toISOString() } };
  },
});

const resume = defineRoute({
  method: 'post',
  path: '/v1/campaigns/:id/resume',
  auth: 'b',
  operationId: 'v1ResumeCampaign',
  summary: 'Resume a stopped campaign',
  description:
    'Allowed from paused (stopped or paused on either surface), and from budget_paused once every budget limit has room again; 409 ' +
    'otherwise (also while the plan\'s monthly email quota is used up). A campaign stopped before it started goes back to starting.',
  tags: ['campaigns'],
  params: V1CampaignIdParams,
  responses: { 200: { description: 'The campaign, resumed', schema: V1ResumeResponse } },
  errors: [404, 409, 503],
  handler: async ({ params }, { auth, deps }) => {
    const r = await control('resume the campaign', () => resumeCampaign(controlDeps(deps), auth.accountId, params.id));
    return { body: { id: r.id, status: r.status, resumedAt: r.at.toISOString() } };
  },
});

export const v1CampaignRoutes = [create, list, get, stats, stop, resume];

import type { WhereOptions } from 'sequelize';
import { pauseCampaign, resumeCampaign } from '../../../campaigns/campaign-control';
import { dashboardUrl } from '../../../campaigns/dashboard-url';
import { startCampaign } from '../../../campaigns/start-campaign';
import { Campaign } from '../../../db/models';
import { defineRoute } from '../../http/route';
import { control, controlDeps, withTemporal } from './campaign-actions';
import { campaignFieldsFromA } from './create-fields';
import { CampaignId, CampaignListQuery, CampaignListResponse, CreateCampaignBody, CreateCampaignResponse, PauseResponse, ResumeResponse } from './schemas';

const listCampaigns = defineRoute({
  method: 'get',
  path: '/campaigns',
  auth: 'a',
  operationId: 'listCampaigns',
  summary: 'List the account\'s campaigns, newest first',
  tags: ['campaigns'],
  query: CampaignListQuery,
  responses: { 200: { description: 'A page of campaigns', schema: CampaignListResponse } },
  handler: async ({ query }, { auth }) => {
    const page = query.page ?? 1;
    const perPage = query.per_page ?? 20;
    const where: WhereOptions<Campaign> = { accountId: auth.accountId };
    if (query.status !== undefined) Object.assign(where, { status: query.status });
    if (query.mcp !== undefined) Object.assign(where, { mcp: query.mcp });
    const { rows, count } = await Campaign.findAndCountAll({
      where,
      order: [['createdAt', 'DESC'], ['id', 'DESC']],
      limit: perPage,
      offset: (page - 1) * perPage,
      attributes: ['id', 'status', 'mcp', 'targetUrl', 'createdAt'],
    });
    return {
      body: {
        campaigns: rows.map((c) => ({ id: c.id, status: c.status, mcp: c.mcp, target_url: c.targetUrl, created_at: c.createdAt.toISOString() })),
        pagination: { total: count, page, per_page: perPage },
      },
    };
  },
});

const createCampaign = defineRoute({
  method: 'post',
  path: '/campaigns',
  auth: 'a',
  operationId: 'createCampaign',
  summary: 'Create a campaign and start its workflow',
  description:
    'Stores the campaign (status starting) and starts its durable workflow `campaign-<id>`: it waits for `schedule.start_date`, scrapes the target, plans its first leads, then moves to running and sends on its schedule. An unknown `mcp` is a 400 that lists the valid templates.',
  tags: ['campaigns'],
  body: CreateCampaignBody,
  responses: { 201: { description: 'The campaign, starting', schema: CreateCampaignResponse } },
  errors: [503],
  handler: async ({ body }, { auth, deps }) => {
    const fields = campaignFieldsFromA(body, auth.accountId, deps.config);
    const campaign = await withTemporal('start the campaign', () =>
      startCampaign({ sequelize: deps.sequelize, temporal: deps.temporal.get(), taskQueue: deps.config.temporalTaskQueue }, fields),
    );
    return {
      status: 201,
      body: {
        id: campaign.id,
        status: campaign.status,
        mcp: campaign.mcp,
        target_url: campaign.targetUrl,
        created_at: campaign.createdAt.toISOString(),
        dashboard_url: dashboardUrl(deps.config, campaign.id),
      },
      headers: { Location: `/campaigns/${campaign.id}` },
    };
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
  responses: { 200: { description: 'The campaign, paused', schema: PauseResponse } },
  errors: [409, 503],
  handler: async ({ params }, { auth, deps }) => {
    const r = await control('pause the campaign', () => pauseCampaign(controlDeps(deps), auth.accountId, params.id));
    return { body: { id: r.id, status: r.status, paused_at: r.at.toISOString() } };
  },
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
  responses: { 200: { description: 'The campaign, resumed', schema: ResumeResponse } },
  errors: [409, 503],
  handler: async ({ params }, { auth, deps }) => {
    const r = await control('resume the campaign', () => resumeCampaign(controlDeps(deps), auth.accountId, params.id));
    return { body: { id: r.id, status: r.status, resumed_at: r.at.toISOString() } };
  },
});

export const campaignRoutes = [listCampaigns, createCampaign, pause, resume];

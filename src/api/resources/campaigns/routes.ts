import type { WhereOptions } from 'sequelize';
import { Campaign } from '../../../db/models';
import { defineRoute } from '../../http/route';
import { CampaignListQuery, CampaignListResponse } from './schemas';

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

export const campaignRoutes = [listCampaigns];

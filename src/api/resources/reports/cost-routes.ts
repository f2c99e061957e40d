import { costGroups } from '../../../campaigns/reporting/cost-groups';
import { addDays, startOfUtcDay } from '../../../campaigns/reporting/utc-dates';
import { LAST_DAY } from '../../http/date-formats';
import { badRequest } from '../../http/errors';
import { defineRoute } from '../../http/route';
import { brandFilter } from './brand-id';
import { CostStatsQuery, CostStatsResponse } from './cost-schemas';

const costs = defineRoute({
  method: 'get',
  path: '/v1/runs/stats/costs',
  auth: 'b',
  operationId: 'v1CostStats',
  summary: 'The account\'s costs grouped by cost name, brand or feature',
  description:
    'Every cost the account recorded (campaign sending, AI writing and qualification with its own keys, lead enrichment, and calls ' +
    'outside campaigns such as POST /v1/qualify), summed per group. A cost\'s brand is its campaign\'s brandId; costs without a ' +
    'campaign have none (key null). from and to are inclusive UTC days; from after to is a 400. An unknown groupBy is a 400 naming ' +
    'the valid values.',
  tags: ['statistics'],
  query: CostStatsQuery,
  responses: { 200: { description: 'The groups and their total', schema: CostStatsResponse } },
  handler: async ({ query }, { auth, deps }) => {
    const groupBy = query.groupBy ?? 'costName';
    const brandId = brandFilter(query.brandId);
    if (query.from !== undefined && query.to !== undefined && query.from > query.to) throw badRequest(`from (${query.from}) is after to (${query.to})`);
    const result = await costGroups(deps.sequelize, auth.accountId, {
      groupBy,
      brandId,
      from: query.from === undefined ? null : startOfUtcDay(query.from),
      // from and to are days of FIRST_DAY..LAST_DAY (the `date` format); after LAST_DAY there is no midnight to end at (year 10000).
      to: query.to === undefined || query.to === LAST_DAY ? null : startOfUtcDay(addDays(query.to, 1)),
    });
    return { body: { groupBy, brandId, from: query.from ?? null, to: query.to ?? null, totalCostUsd: result.totalCostUsd, groups: result.groups } };
  },
});

export const costRoutes = [costs];

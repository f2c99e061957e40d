import { gatewayStats } from '../../../campaigns/reporting/gateway-stats';
import { defineRoute } from '../../http/route';
import { brandFilter } from './brand-id';
import { GatewayStatsQuery, GatewayStatsResponse } from './gateway-schemas';

const gateway = defineRoute({
  method: 'get',
  path: '/v1/email-gateway/stats',
  auth: 'b',
  operationId: 'v1EmailGatewayStats',
  summary: 'Delivery statistics over the account\'s campaigns, or one brand\'s',
  description:
    'The email counts are those of the campaign statistics summed over the campaigns in scope (emails, not events: an email opened ' +
    'twice counts once); emailsContacted counts distinct leads emailed. The replies* members count qualified replies by category, ' +
    'automatic replies included (out of office) and bounces excluded; a lead who answers twice counts twice there.',
  tags: ['statistics'],
  query: GatewayStatsQuery,
  responses: { 200: { description: 'The fourteen counts', schema: GatewayStatsResponse } },
  handler: async ({ query }, { auth, deps }) => ({ body: await gatewayStats(deps.sequelize, auth.accountId, brandFilter(query.brandId)) }),
});

export const gatewayRoutes = [gateway];

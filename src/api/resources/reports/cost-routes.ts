import { costGroups } from '../../../campaigns/reporting/cost-groups';
import { gatewayStats } from '../../../campaigns/reporting/gateway-stats';
import { addDays, startOfUtcDay } from '../../../campaigns/reporting/utc-dates';
import { badRequest } from '../../http/errors';
import { defineRoute } from '../../http/route';
import { CostStatsQuery, CostStatsResponse, GatewayStatsQuery, GatewayStatsResponse } from './schemas';

/**
 * A brand filter as brand ids are made from a campaign's site (lower-case host without www.), so
 * `www.Acme.com` finds the campaigns of `acme.com`.
 */
function brandFilter(brandId: string | undefined): string | null {
  if (brandId === undefined) return null;
  return brandId.trim().toLowerCase().replace(/\.$/, '').replace(/^www\./, '');
}

// Days PostgreSQL and an ISO timestamp can both hold, `to`'s following midnight included: a valid
// date such as 0000-01-01 (no year 0 in PostgreSQL) must be a 400, not a database error.
const FIRST_DAY = '1970-01-01';
const LAST_DAY = '9999-12-30';

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
    for (const [name, day] of [['from', query.from], ['to', query.to]] as const) {
      if (day !== undefined && (day < FIRST_DAY || day > LAST_DAY)) throw badRequest(`query.${name} must be a day from ${FIRST_DAY} to ${LAST_DAY}`);
    }
    if (query.from !== undefined && query.to !== undefined && query.from > query.to) throw badRequest(`from (${query.from}) is after to (${query.to})`);
    const result = await costGroups(deps.sequelize, auth.accountId, {
      groupBy,
      brandId,
      from: query.from === undefined ? null : startOfUtcDay(query.from),
      to: query.to === undefined ? null : startOfUtcDay(addDays(query.to, 1)),
    });
    return { body: { groupBy, brandId, from: query.from ?? null, to: query.to ?? null, totalCostUsd: result.totalCostUsd, groups: result.groups } };
  },
});

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

export const v1ReportRoutes = [costs, gateway];

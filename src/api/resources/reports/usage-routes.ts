import { accountUsage, usageMonth } from '../../../campaigns/reporting/usage';
import { defineRoute } from '../../http/route';
import { UsageQuery, UsageResponse } from './usage-schemas';

const getUsage = defineRoute({
  method: 'get',
  path: '/usage',
  auth: 'a',
  operationId: 'getUsage',
  summary: 'The account\'s usage in a month, against its plan',
  description: 'Months are UTC calendar months. A past month is reported against the current plan.',
  tags: ['account'],
  query: UsageQuery,
  responses: { 200: { description: 'Usage and plan', schema: UsageResponse } },
  handler: async ({ query }, { auth, deps }) => {
    const u = await accountUsage(deps.sequelize, auth.accountId, auth.plan, deps.config.planEmailLimits, usageMonth(query.period, new Date()));
    return {
      body: {
        period: u.period,
        usage: { campaigns_created: u.campaignsCreated, emails_sent: u.emailsSent, emails_remaining: u.emailsRemaining, byok_cost_usd: u.byokCostUsd },
        plan: { name: u.plan.name, email_limit: u.plan.emailLimit, price_usd: u.plan.priceUsd },
      },
    };
  },
});

export const usageRoutes = [getUsage];

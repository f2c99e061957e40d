import { planFor } from '../../../config/plans';
import { defineRoute } from '../../http/route';
import { MeResponse } from './schemas';

/**
 * One account is one organization (the service has no separate users), so both objects name the
 * same id; `organization` carries the plan figures a client budgets against.
 */
const me = defineRoute({
  method: 'get',
  path: '/v1/me',
  auth: 'b',
  operationId: 'getMe',
  summary: 'The account and organization of the API key',
  tags: ['account'],
  responses: { 200: { description: 'The current account', schema: MeResponse } },
  handler: async (_input, { auth, deps }) => {
    const createdAt = auth.accountCreatedAt.toISOString();
    return {
      body: {
        account: { id: auth.accountId, name: auth.accountName, createdAt },
        organization: { id: auth.accountId, name: auth.accountName, plan: auth.plan, emailLimit: planFor(auth.plan, deps.config.planEmailLimits).emailLimit, createdAt },
        apiKey: { id: auth.keyId, prefix: auth.keyPrefix },
      },
    };
  },
});

export const meRoutes = [me];

import { IntegrationPatchSchema } from '../../../integrations/patch-schema';
import { IntegrationInputError, showIntegrations, updateIntegrations } from '../../../integrations/settings';
import { badRequest } from '../../http/errors';
import { defineRoute } from '../../http/route';
import { IntegrationsResponse } from './schemas';

const getIntegrations = defineRoute({
  method: 'get',
  path: '/v1/integrations',
  auth: 'b',
  operationId: 'getIntegrations',
  summary: "The account's own keys for outside services, masked",
  tags: ['integrations'],
  responses: { 200: { description: 'The integration settings; secrets show only their last four characters', schema: IntegrationsResponse } },
  handler: async (_input, { deps, auth }) => ({ body: await showIntegrations(deps.sequelize, auth.accountId) }),
});

const patchIntegrations = defineRoute({
  method: 'patch',
  path: '/v1/integrations',
  auth: 'b',
  operationId: 'updateIntegrations',
  summary: "Set or clear the account's own keys for outside services",
  description:
    'Fields left out keep their value; null clears one. With an OpenAI or Anthropic key set, emails are written and replies ' +
    'qualified by that provider with the account\'s key (costs recorded per call); without one, by the built-in writer and classifier.',
  tags: ['integrations'],
  body: IntegrationPatchSchema,
  responses: { 200: { description: 'The settings after the change, masked', schema: IntegrationsResponse } },
  errors: [400],
  handler: async ({ body }, { deps, auth }) => {
    try {
      return { body: await updateIntegrations(deps.sequelize, auth.accountId, body) };
    } catch (err) {
      if (err instanceof IntegrationInputError) throw badRequest(err.message);
      throw err;
    }
  },
});

export const integrationRoutes = [getIntegrations, patchIntegrations];

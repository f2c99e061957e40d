import { previewAudience } from '../../../campaigns/audience/preview';
import { defineRoute } from '../../http/route';
import { AudiencePreviewBody, AudiencePreviewResponse } from './schemas';

const preview = defineRoute({
  method: 'post',
  path: '/v1/audiences/preview',
  auth: 'b',
  operationId: 'previewAudience',
  summary: "Preview an audience: its filters, how many of the account's reachable leads it matches, and the first of them",
  description:
    'Give the audience as text (read by the built-in parser, as a campaign without `audience` is), as filters (as the `audience` of ' +
    'POST /v1/campaigns), or as a campaign (its stored audience): one of them. The answer shows the filters matched, the words no vocabulary ' +
    'knows, the count of matching reachable leads and the first 10 of them, and why none match. With `leadId`, `explanation` says filter by ' +
    "filter whether that lead met it and with which of its fields (\"title 'Leiterin Finanzen' -> finance, head: meets 'finance leaders'\"). " +
    'An audience that names nobody (only stop words, or empty filters) matches no lead. Nothing is stored. 404 for an unknown campaign or lead.',
  tags: ['audiences'],
  body: AudiencePreviewBody,
  responses: { 200: { description: 'The preview', schema: AudiencePreviewResponse } },
  handler: async ({ body }, { deps, auth }) => {
    const result = await previewAudience(deps.sequelize, auth.accountId, body, { text: 'body.text', filters: 'body.filters', campaignId: 'body.campaignId' });
    return { body: result };
  },
});

export const audienceRoutes = [preview];

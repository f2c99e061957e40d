import { egressFor } from '../../../egress';
import { sendTestEvent, TestEventRefused } from '../../../webhooks/test-event';
import { badRequest } from '../../http/errors';
import { defineRoute } from '../../http/route';
import { TestEventBody, TestEventResponse } from './schemas';
import { testEventView } from './views';

const sendTest = defineRoute({
  method: 'post',
  path: '/v1/webhooks/test',
  auth: 'b',
  operationId: 'sendWebhookTestEvent',
  summary: 'Send a test event to an endpoint now and report how it answered',
  description:
    'Posts one `webhook.test` event (data: message, requested_at; campaign_id null), signed with the account\'s secrets exactly like a real ' +
    'event, to `url` or, without one, to the global URL, and waits for the answer (at most 10 seconds). The answer is reported, not judged: ' +
    'an endpoint answering 500 still gives 200 here, with delivered false and statusCode 500. A test event is never retried or resent; it ' +
    'shows in the delivery log like any other. 400 when there is no URL at all or the URL is not acceptable.',
  tags: ['webhooks'],
  body: TestEventBody,
  responses: { 200: { description: 'What the endpoint answered', schema: TestEventResponse } },
  errors: [400],
  handler: async ({ body }, { deps, auth }) => {
    const testDeps = { sequelize: deps.sequelize, egress: egressFor(deps.config), allowLoopback: deps.config.allowLoopbackEgress };
    try {
      return { body: testEventView(await sendTestEvent(testDeps, auth.accountId, body.url)) };
    } catch (err) {
      if (err instanceof TestEventRefused) throw badRequest(err.message);
      throw err;
    }
  },
});

export const webhookTestRoutes = [sendTest];

import { deliveryDetail, listDeliveries } from '../../../webhooks/delivery-repository';
import { resendDelivery, ResendRefused } from '../../../webhooks/resend';
import { normalizeWebhookUrl } from '../../../webhooks/webhook-url';
import { ConflictError, InvalidInputError, NotFoundError } from '../../../errors/domain-errors';
import { defineRoute } from '../../http/route';
import { Delivery, DeliveryDetail, DeliveryIdParams, DeliveryListQuery, DeliveryListResponse } from './schemas';
import { deliveryDetailView, deliveryView } from './views';

const listRoute = defineRoute({
  method: 'get',
  path: '/v1/webhook-deliveries',
  auth: 'b',
  operationId: 'listWebhookDeliveries',
  summary: 'The webhook delivery log: one entry per event and destination URL, newest first',
  description:
    'Each event goes to the campaign URL and to the global URL (once when they are the same): one delivery per URL. Filter by event name, ' +
    'campaign, status and URL; page from 1, perPage up to 100 (default 20). An unknown event name or status, or a url that is not an ' +
    'absolute URL, is a 400. `status=failed` shows what is waiting for its receiver to come back (resendsOnRecovery): when the URL next ' +
    'answers 2xx, those deliveries are sent again one at a time, oldest event first, the order `order=oldest` lists them in.',
  tags: ['webhooks'],
  query: DeliveryListQuery,
  responses: { 200: { description: 'One page of deliveries and the total matching the filters', schema: DeliveryListResponse } },
  errors: [400],
  handler: async ({ query }, { deps, auth }) => {
    const page = query.page ?? 1;
    const perPage = query.perPage ?? 20;
    const filter = { event: query.event, campaignId: query.campaignId, status: query.status, url: query.url === undefined ? undefined : storedUrl(query.url) };
    const result = await listDeliveries(deps.sequelize, auth.accountId, filter, page, perPage, query.order ?? 'newest');
    return { body: { deliveries: result.deliveries.map(deliveryView), page, perPage, total: result.total } };
  },
});

const detailRoute = defineRoute({
  method: 'get',
  path: '/v1/webhook-deliveries/:id',
  auth: 'b',
  operationId: 'getWebhookDelivery',
  summary: 'One delivery with every attempt (status code, duration, error) and the payload it posts',
  tags: ['webhooks'],
  params: DeliveryIdParams,
  responses: { 200: { description: 'The delivery', schema: DeliveryDetail } },
  errors: [404],
  handler: async ({ params }, { deps, auth }) => {
    const found = await deliveryDetail(deps.sequelize, params.id, auth.accountId);
    if (found === null) throw new NotFoundError('webhook_delivery');
    return { body: deliveryDetailView(found) };
  },
});

const resendRoute = defineRoute({
  method: 'post',
  path: '/v1/webhook-deliveries/:id/resend',
  auth: 'b',
  operationId: 'resendWebhookDelivery',
  summary: 'Send a delivered or failed delivery again (same event id, same body)',
  description:
    'Starts a new cycle of the delivery: an attempt within moments and, if it fails, the whole retry ladder again (1 min, 5 min, 30 min, ' +
    '2 h, 24 h). The event id and body are unchanged, so a receiver that deduplicates on the id (or webhook-id) treats it as a repeat; the ' +
    'signature is made with the current secret. Earlier attempts stay in the log; numbering continues. A delivery still pending or retrying ' +
    'is already being delivered: 409. A test event is never resent (409): send a new one.',
  tags: ['webhooks'],
  params: DeliveryIdParams,
  responses: { 202: { description: 'Accepted: the delivery, now pending in its next cycle', schema: Delivery } },
  errors: [404, 409],
  handler: async ({ params }, { deps, auth }) => {
    try {
      return { status: 202, body: deliveryView(await resendDelivery(deps.sequelize, params.id, auth.accountId)) };
    } catch (err) {
      if (err instanceof ResendRefused) throw err.reason === 'not_found' ? new NotFoundError('webhook_delivery') : new ConflictError(err.message);
      throw err;
    }
  },
});

export const webhookDeliveryRoutes = [listRoute, detailRoute, resendRoute];

/** The URL as deliveries store it (normalised), so any spelling of one destination finds its deliveries. */
function storedUrl(raw: string): string {
  try {
    return normalizeWebhookUrl(raw);
  } catch {
    throw new InvalidInputError('url must be an absolute URL');
  }
}

import type { AnyRoute } from '../../../api/http/route';
import { keyPageRoutes } from './keys-page';
import { usagePageRoutes } from './usage-page';
import { webhookPageRoutes } from './webhooks-page';

/** The account's pages of the dashboard: API keys, webhooks (settings, test event, delivery log) and usage. */
export const accountPageRoutes: readonly AnyRoute[] = [...keyPageRoutes, ...webhookPageRoutes, ...usagePageRoutes];

export { campaignDeliveries, type DeliveryLogPage, type DeliveryRowView } from './deliveries';
export { DELIVERY_NOTICES, WEBHOOKS_PATH } from './webhooks-page';

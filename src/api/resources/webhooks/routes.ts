import { webhookDeliveryRoutes } from './delivery-routes';
import { webhookSettingsRoutes } from './settings-routes';
import { webhookTestRoutes } from './test-event-route';

/** Surface B webhook endpoints: settings (URL, secret), the delivery log with resend, and the test event. */
export const webhookRoutes = [...webhookSettingsRoutes, ...webhookDeliveryRoutes, ...webhookTestRoutes];

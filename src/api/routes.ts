import type { AnyRoute } from './http/route';
import { apiKeyRoutes } from './resources/api-keys/routes';
import { audienceRoutes } from './resources/audiences/routes';
import { campaignRoutesA } from './resources/campaigns/routes-a';
import { campaignRoutesB } from './resources/campaigns/routes-b';
import { campaignCopyRoutesA, campaignCopyRoutesB } from './resources/campaigns/routes-copy';
import { campaignEditRoutes } from './resources/campaigns/routes-edit';
import { campaignLeadRoutesA, campaignLeadRoutesB } from './resources/campaign-leads/routes';
import { campaignReportRoutesA } from './resources/campaign-reports/routes-a';
import { campaignReportRoutesB } from './resources/campaign-reports/routes-b';
import { companyRoutes } from './resources/companies/routes';
import { defaultSenderRoutes } from './resources/default-sender/routes';
import { healthRoutes } from './resources/health/routes';
import { inboundRoutes } from './resources/inbound/routes';
import { integrationRoutes } from './resources/integrations/routes';
import { leadRoutes } from './resources/leads/routes';
import { leadEditRoutes } from './resources/leads/lead-edit-routes';
import { leadAnswerRoutes } from './resources/leads/answer-routes';
import { leadThreadRoutes } from './resources/leads/thread-routes';
import { leadListRoutesA } from './resources/lead-lists/routes-a';
import { leadListRoutesB } from './resources/lead-lists/routes-b';
import { blocklistRoutes } from './resources/blocklist/routes';
import { mailboxRoutes } from './resources/mailboxes/routes';
import { meRoutes } from './resources/me/routes';
import { meetingRoutes } from './resources/meetings/routes';
import { qualifyRoutes } from './resources/qualify/routes';
import { replyRoutes } from './resources/replies/routes';
import { sequenceRoutes } from './resources/sequences/routes';
import { benchmarkRoutes } from './resources/reports/benchmark-routes';
import { costRoutes } from './resources/reports/cost-routes';
import { gatewayRoutes } from './resources/reports/gateway-routes';
import { usageRoutes } from './resources/reports/usage-routes';
import { trackingRoutes } from './resources/tracking/routes';
import { webhookRoutes } from './resources/webhooks/routes';
import { WEB_ROUTES } from '../web/routes';

/**
 * Every resource's routes, in one list: the router and the OpenAPI document are built from it, the
 * document's paths in this order.
 */
export const RESOURCE_ROUTES: readonly AnyRoute[] = [
  ...healthRoutes,
  ...meRoutes,
  ...apiKeyRoutes,
  ...campaignRoutesA,
  ...campaignCopyRoutesA,
  ...campaignEditRoutes,
  ...campaignLeadRoutesA,
  ...campaignReportRoutesA,
  ...leadListRoutesA,
  ...usageRoutes,
  ...benchmarkRoutes,
  ...WEB_ROUTES,
  ...integrationRoutes,
  ...mailboxRoutes,
  ...defaultSenderRoutes,
  ...trackingRoutes,
  ...inboundRoutes,
  ...meetingRoutes,
  ...leadRoutes,
  ...leadEditRoutes,
  ...leadAnswerRoutes,
  ...leadThreadRoutes,
  ...leadListRoutesB,
  ...blocklistRoutes,
  ...audienceRoutes,
  ...companyRoutes,
  ...qualifyRoutes,
  ...campaignRoutesB,
  ...campaignCopyRoutesB,
  ...campaignLeadRoutesB,
  ...campaignReportRoutesB,
  ...sequenceRoutes,
  ...costRoutes,
  ...gatewayRoutes,
  ...webhookRoutes,
  ...replyRoutes,
];

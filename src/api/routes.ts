import type { AnyRoute } from './http/route';
import { apiKeyRoutes } from './resources/api-keys/routes';
import { benchmarkRoutes } from './resources/benchmarks/routes';
import { campaignReportRoutes } from './resources/campaign-reports/routes';
import { campaignRoutes } from './resources/campaigns/routes';
import { companyRoutes } from './resources/companies/routes';
import { dashboardRoutes } from './resources/dashboard/routes';
import { healthRoutes } from './resources/health/routes';
import { inboundRoutes } from './resources/inbound/routes';
import { integrationRoutes } from './resources/integrations/routes';
import { leadRoutes } from './resources/leads/routes';
import { mailboxRoutes } from './resources/mailboxes/routes';
import { meRoutes } from './resources/me/routes';
import { meetingRoutes } from './resources/meetings/routes';
import { qualifyRoutes } from './resources/qualify/routes';
import { trackingRoutes } from './resources/tracking/routes';
import { usageRoutes } from './resources/usage/routes';
import { v1CampaignRoutes } from './resources/v1-campaigns/routes';
import { v1ReportRoutes } from './resources/v1-reports/routes';
import { webhookRoutes } from './resources/webhooks/routes';

/** Every resource's routes, in one list: the router and the OpenAPI document are built from it. */
export const RESOURCE_ROUTES: readonly AnyRoute[] = [...healthRoutes, ...meRoutes, ...apiKeyRoutes, ...campaignRoutes, ...campaignReportRoutes, ...usageRoutes, ...benchmarkRoutes, ...dashboardRoutes, ...integrationRoutes, ...mailboxRoutes, ...trackingRoutes, ...inboundRoutes, ...meetingRoutes, ...leadRoutes, ...companyRoutes, ...qualifyRoutes, ...v1CampaignRoutes, ...v1ReportRoutes, ...webhookRoutes];

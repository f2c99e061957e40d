import type { AnyRoute } from './http/route';
import { apiKeyRoutes } from './resources/api-keys/routes';
import { campaignRoutes } from './resources/campaigns/routes';
import { dashboardRoutes } from './resources/dashboard/routes';
import { healthRoutes } from './resources/health/routes';
import { meRoutes } from './resources/me/routes';

/** Every resource's routes, in one list: the router and the OpenAPI document are built from it. */
export const RESOURCE_ROUTES: readonly AnyRoute[] = [...healthRoutes, ...meRoutes, ...apiKeyRoutes, ...campaignRoutes, ...dashboardRoutes];

import type { AnyRoute } from '../api/http/route';
import { accountPageRoutes } from './pages/account';
import { campaignPageRoutes } from './pages/campaign-page';
import { campaignEditRoutes } from './pages/campaign-edit';
import { campaignListRoutes } from './pages/campaign-list';
import { campaignLeadsRoutes } from './pages/campaign-leads';
import { inboxRoutes } from './pages/inbox';
import { leadListPageRoutes } from './pages/lead-lists';
import { leadThreadRoutes } from './pages/lead-thread';
import { blocklistPageRoutes } from './pages/blocklist';
import { signInRoutes } from './pages/sign-in';
import { staticRoutes } from './static-files';

/** Every page and form of the dashboard, served by the API process under /dashboard. */
export const WEB_ROUTES: readonly AnyRoute[] = [...signInRoutes, ...staticRoutes, ...campaignListRoutes, ...campaignPageRoutes, ...campaignEditRoutes, ...campaignLeadsRoutes, ...inboxRoutes, ...leadThreadRoutes, ...leadListPageRoutes, ...blocklistPageRoutes, ...accountPageRoutes];

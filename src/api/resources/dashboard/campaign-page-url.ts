import type { Config } from '../../../config/config';

/** The campaign's page in the dashboard (the page route of routes.ts, /dashboard/campaigns/:id). */
export function dashboardUrl(config: Pick<Config, 'publicBaseUrl'>, campaignId: string): string {
  return `${config.publicBaseUrl}/dashboard/campaigns/${encodeURIComponent(campaignId)}`;
}

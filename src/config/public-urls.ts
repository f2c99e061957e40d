import type { Config } from './config';

/** A campaign's page in the dashboard: the create answer's `dashboard_url`, and the emailed report's link. */
export function campaignPageUrl(config: Pick<Config, 'publicBaseUrl'>, campaignId: string): string {
  return `${config.publicBaseUrl}/dashboard/campaigns/${encodeURIComponent(campaignId)}`;
}

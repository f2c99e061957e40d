import { companyDomain, siteUrl } from '../../../companies/site-url';
import { ScrapeError } from '../../../companies/scrape-error';
import type { NewCampaign } from '../../../campaigns/campaign-repository';
import { audienceOfCampaign } from '../../../campaigns/audience/audience-of-campaign';
import type { AudienceFilters } from '../../../campaigns/audience/types';
import { badRequest } from '../../http/errors';

/** What both surfaces' create requests share on their way to a campaign row. */

/** A campaign's schedule when the request says nothing: every day, 09:00-17:00 UTC. */
export const DEFAULT_SCHEDULE = {
  scheduleFrequency: 'daily',
  timezone: 'UTC',
  sendWindowStartMinute: 9 * 60,
  sendWindowEndMinute: 17 * 60,
} as const satisfies Partial<NewCampaign>;

/**
 * The site a campaign speaks for (`target_url` on A, `brandUrl` on B) as a URL, checked the way a
 * scrape checks it (a bare domain means https); a 400 naming the field when it is unusable.
 */
export function siteField(value: string, field: string): URL {
  try {
    return siteUrl(value);
  } catch (err) {
    if (err instanceof ScrapeError) throw badRequest(`${field}: ${err.message.replace(/^url /, '')}`);
    throw err;
  }
}

/**
 * The brand a campaign speaks for: its site's host, lower-case, without `www.` and port (the key a
 * scraped company has), so `https://www.Acme.com/en` and `acme.com` are one brand. Costs copy it,
 * and the cost and delivery statistics of Surface B group and filter by it.
 */
export function brandIdOf(site: URL): string {
  return companyDomain(site);
}

/** DECIMAL columns take strings: no binary float reaches the database. */
export const usd = (v: number | undefined): string | null => (v === undefined ? null : String(v));

/**
 * The audience columns of a campaign from the request's text and filters (see
 * audienceOfCampaign: the filters win, text alone is parsed, neither is all_leads). `field` names
 * the filters in the surface's casing for the 400 of a size range whose min exceeds its max.
 */
export function audienceFields(text: string | null, filters: AudienceFilters | undefined, field: string): Pick<NewCampaign, 'audienceFilters' | 'audienceSource'> {
  (filters?.companySizes ?? []).forEach((r, i) => {
    if (r.min !== undefined && r.max !== undefined && r.min > r.max) throw badRequest(`${field}[${i}]: min must not exceed max`);
  });
  const audience = audienceOfCampaign(text, filters);
  return { audienceFilters: audience.filters, audienceSource: audience.source };
}

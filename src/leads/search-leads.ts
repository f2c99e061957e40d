import type { AudienceFilters } from '../campaigns/audience/types';
import { resolveAudience } from '../campaigns/audience/resolve';
import { personToLead } from './apollo/map-person';
import { ALL_LEADS } from './criteria-sql';
import { upsertProviderLeads } from './lead-repository';
import { toLeadView, type LeadView } from './lead-view';
import { leadProviderFor, type LeadDeps } from './provider';
import { searchStoredLeads, type LeadFilters } from './lead-repository';

export interface LeadSearchRequest extends LeadFilters {
  readonly page: number;
  readonly perPage: number;
}

export type LeadSearchSource = 'leads_store' | 'apollo';

export interface LeadSearchResult {
  readonly leads: LeadView[];
  readonly pagination: { readonly page: number; readonly perPage: number; readonly total: number };
  readonly source: LeadSearchSource;
}

/** A search's filters as audience filters: the stored leads are searched as a campaign's audience is chosen. */
export function searchAudience(filters: LeadFilters): AudienceFilters {
  const given = (list: readonly string[] | undefined): string[] => (list ?? []).map((t) => t.trim()).filter((t) => t !== '');
  const [titles, locations, industries] = [given(filters.personTitles), given(filters.organizationLocations), given(filters.organizationIndustries)];
  return {
    ...(titles.length > 0 ? { titles } : {}),
    ...(locations.length > 0 ? { locations } : {}),
    ...(industries.length > 0 ? { industries } : {}),
  };
}

/**
 * Searches leads where the account gets them from: Apollo when it configured a key, otherwise its
 * own stored leads, through the audience matcher: titles with their synonyms ("CTO" finds a Chief
 * Technology Officer), locations as countries, regions or cities, industries by the taxonomy. People Apollo finds are stored as the account's leads (source 'provider'),
 * so a result can be read again, enriched and written to; people for whom Apollo shows no usable
 * address cannot be written to and are left out of `leads` (`total` is Apollo's count). Apollo's
 * search spends no credits, so no cost is recorded for it.
 */
export async function searchLeads(deps: LeadDeps, accountId: string, req: LeadSearchRequest): Promise<LeadSearchResult> {
  const apollo = await leadProviderFor(deps, accountId);
  if (apollo === null) {
    const audience = searchAudience(req);
    // A search without filters lists every lead; filters that resolve to nothing name nobody.
    const criteria = Object.keys(audience).length === 0 ? ALL_LEADS : resolveAudience(audience);
    const { leads, total } = await searchStoredLeads(deps.sequelize, accountId, criteria, req.page, req.perPage);
    return { leads, pagination: { page: req.page, perPage: req.perPage, total }, source: 'leads_store' };
  }
  const found = await apollo.searchPeople(req);
  const candidates = found.people.map((p) => personToLead(p)).filter((l) => l !== null);
  const rows = await deps.sequelize.transaction((tx) => upsertProviderLeads(deps.sequelize, tx, accountId, candidates));
  return { leads: rows.map(toLeadView), pagination: { page: req.page, perPage: req.perPage, total: found.totalEntries }, source: 'apollo' };
}

import { personToLead } from './apollo/map-person';
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

/**
 * Searches leads where the account gets them from: Apollo when it configured a key, otherwise its
 * own stored leads. People Apollo finds are stored as the account's leads (source 'provider'),
 * so a result can be read again, enriched and written to; people for whom Apollo shows no usable
 * address cannot be written to and are left out of `leads` (`total` is Apollo's count). Apollo's
 * search spends no credits, so no cost is recorded for it.
 */
export async function searchLeads(deps: LeadDeps, accountId: string, req: LeadSearchRequest): Promise<LeadSearchResult> {
  const apollo = await leadProviderFor(deps, accountId);
  if (apollo === null) {
    const { leads, total } = await searchStoredLeads(deps.sequelize, accountId, req, req.page, req.perPage);
    return { leads, pagination: { page: req.page, perPage: req.perPage, total }, source: 'leads_store' };
  }
  const found = await apollo.searchPeople(req);
  const candidates = found.people.map((p) => personToLead(p)).filter((l) => l !== null);
  const rows = await deps.sequelize.transaction((tx) => upsertProviderLeads(deps.sequelize, tx, accountId, candidates));
  return { leads: rows.map(toLeadView), pagination: { page: req.page, perPage: req.perPage, total: found.totalEntries }, source: 'apollo' };
}

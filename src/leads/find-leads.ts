import { QueryTypes } from 'sequelize';
import { apolloAudienceParams, audienceSearchQuery } from './apollo/audience-params';
import type { ApolloClient } from './apollo/client';
import { personToLead } from './apollo/map-person';
import { matchAndStore } from './enrich-lead';
import { upsertProviderLeads } from './lead-repository';
import { leadProviderFor, type LeadDeps } from './provider';
import { storeSearchWhere, type LeadFilters } from './lead-repository';
import { criteriaWhere } from './criteria-sql';
import type { LeadCriteria } from './profile/types';
import type { ApolloSearchQuery } from './apollo/types';

export interface FindLeadsInput {
  readonly accountId: string;
  readonly campaignId: string;
  readonly filters: LeadFilters;
  /**
   * The campaign's audience as lead criteria (src/campaigns/audience): only leads matching it are
   * returned, from the store or from the provider's results. Absent: no audience (all leads).
   */
  readonly criteria?: LeadCriteria;
  /** Leads never to return (those the workflow already has): left out in the query itself. */
  readonly excludeIds?: readonly string[];
  /** At most this many leads (1..1000). */
  readonly limit: number;
  /** Leave out the leads this campaign has enrolled (any state): the campaign's planning asks for new people only. */
  readonly notEnrolledIn?: string;
  /**
   * The campaign's lead lists: candidates are their members only, from the store (the provider is
   * not searched: lists are the people the user chose). Absent or empty: the account's leads.
   */
  readonly fromLists?: readonly string[];
}

export interface FoundLead {
  readonly leadId: string;
  readonly email: string;
}

export interface FindLeadsResult {
  readonly leads: FoundLead[];
  readonly source: 'leads_store' | 'apollo';
}

export const MAX_FIND_LIMIT = 1000;
/** Apollo pages read per call at most (100 people each): bounds one activity's work and spend. */
const MAX_PROVIDER_PAGES = 5;
const PROVIDER_PAGE_SIZE = 100;

/**
 * Leads a campaign may write to next: matching the filters and the audience's criteria, not
 * suppressed, bounced or unsubscribed, and not already emailed by this campaign (so calling again
 * finds new people).
 * From Apollo when the account has a key, otherwise from its stored leads.
 */
export async function findLeads(deps: LeadDeps, input: FindLeadsInput): Promise<FindLeadsResult> {
  const limit = Math.max(0, Math.min(MAX_FIND_LIMIT, Math.floor(input.limit)));
  if (limit === 0) return { leads: [], source: 'leads_store' };
  const apollo = await leadProviderFor(deps, input.accountId);
  const fromLists = input.fromLists !== undefined && input.fromLists.length > 0;
  if (apollo === null || fromLists) return { leads: await reachable(deps, input, null, limit), source: 'leads_store' };
  return { leads: await fromProvider(deps, apollo, input, limit), source: 'apollo' };
}

/** The reachable leads among `ids` (all matching stored leads when null), oldest first. */
async function reachable(deps: LeadDeps, input: FindLeadsInput, ids: readonly string[] | null, limit: number): Promise<FoundLead[]> {
  const where = storeSearchWhere(input.accountId, ids === null ? input.filters : {}, {
    reachableOnly: true,
    notInCampaign: input.campaignId,
    ...(input.notEnrolledIn === undefined ? {} : { notEnrolledIn: input.notEnrolledIn }),
    ...(input.fromLists === undefined ? {} : { inLists: input.fromLists }),
  });
  const bind = [...where.bind];
  let sql = where.sql;
  if (input.criteria !== undefined) {
    const match = criteriaWhere(input.criteria, bind.length + 1);
    bind.push(...match.bind);
    sql += ` AND ${match.sql}`;
  }
  if (ids !== null) {
    bind.push(ids);
    sql += ` AND l.id = ANY($${bind.length}::text[])`;
  }
  if (input.excludeIds !== undefined && input.excludeIds.length > 0) {
    bind.push(input.excludeIds);
    sql += ` AND l.id <> ALL($${bind.length}::text[])`;
  }
  bind.push(limit);
  const rows = await deps.sequelize.query<{ id: string; email: string }>(`SELECT l.id, l.email FROM leads l WHERE ${sql} ORDER BY l.created_at, l.email LIMIT $${bind.length}`, {
    bind,
    type: QueryTypes.SELECT,
  });
  return rows.map((r) => ({ leadId: r.id, email: r.email }));
}

/**
 * Reads Apollo's search page by page. People with an address are stored as they come; for the
 * others, while the campaign still needs leads, the address is revealed with a people match
 * (charged to the campaign, once per person and campaign even when the activity is retried).
 * With an audience, the search carries its filters (apollo/audience-params.ts) instead of
 * `filters`, and every person stored or revealed is still checked by the local matcher before it
 * is taken; an audience that names nobody does not ask the provider at all.
 */
async function fromProvider(deps: LeadDeps, apollo: ApolloClient, input: FindLeadsInput, limit: number): Promise<FoundLead[]> {
  let query: Omit<ApolloSearchQuery, 'page' | 'perPage'> = input.filters;
  if (input.criteria !== undefined) {
    const params = apolloAudienceParams(input.criteria);
    if (params === null) return [];
    query = audienceSearchQuery(params);
  }
  const found = new Map<string, FoundLead>();
  const add = (leads: readonly FoundLead[]): void => {
    for (const l of leads) if (found.size < limit) found.set(l.leadId, l);
  };
  for (let page = 1; page <= MAX_PROVIDER_PAGES && found.size < limit; page++) {
    const result = await apollo.searchPeople({ ...query, page, perPage: PROVIDER_PAGE_SIZE });
    const withEmail = result.people.map((p) => personToLead(p)).filter((l) => l !== null);
    const stored = await deps.sequelize.transaction((tx) => upsertProviderLeads(deps.sequelize, tx, input.accountId, withEmail));
    add(await reachable(deps, input, stored.map((r) => r.id), limit - found.size));
    for (const person of result.people) {
      if (found.size >= limit) break;
      if (personToLead(person) !== null) continue;
      const revealed = await matchAndStore(deps, apollo, input.accountId, { id: person.id }, {
        campaignId: input.campaignId,
        idempotencyKey: `campaign:${input.campaignId}:apollo_match:${person.id}`,
        by: 'id',
      });
      if (revealed.matched && revealed.lead !== null) add(await reachable(deps, input, [revealed.lead.id], 1));
    }
    if (page >= result.totalPages) break;
  }
  return [...found.values()];
}

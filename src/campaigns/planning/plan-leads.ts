import { QueryTypes } from 'sequelize';
import { NotFoundError } from '../../errors/domain-errors';
import { criteriaWhere } from '../../leads/criteria-sql';
import { findLeads, MAX_FIND_LIMIT } from '../../leads/find-leads';
import type { LeadDeps } from '../../leads/provider';
import { storeSearchWhere, type LeadFilters } from '../../leads/lead-repository';
import type { LeadCriteria } from '../../leads/profile/types';
import type { AudienceFilters } from '../audience/types';
import type { PlanLeadsInput, PlanLeadsResult } from '../../../workflows/campaign/contract';
import { audienceCriteria, countAudience, recordAudienceCount, storedAudience } from './audience-match';
import { claimEnrichmentCosts } from './enrichment-claims';

/**
 * The search filters of a campaign without an audience (all_leads): none, as always. A campaign
 * with an audience passes its criteria instead: findLeads maps them onto the provider's people
 * search (src/leads/apollo/audience-params.ts) and the SQL matcher checks whatever comes back.
 */
const PROVIDER_FILTERS: LeadFilters = {};

/**
 * How many of `ids` findLeads could still return for the campaign (the account's, reachable, not
 * yet emailed by it): asking findLeads for that many more than `limit` leaves `limit` after they
 * are dropped, whatever order it returns them in.
 */
async function returnableAmong(deps: LeadDeps, input: PlanLeadsInput, criteria: LeadCriteria | null): Promise<number> {
  if (input.exclude.length === 0) return 0;
  const where = storeSearchWhere(input.accountId, {}, { reachableOnly: true, notInCampaign: input.campaignId });
  const bind = [...where.bind];
  let sql = where.sql;
  if (criteria !== null) {
    const match = criteriaWhere(criteria, bind.length + 1);
    bind.push(...match.bind);
    sql += ` AND ${match.sql}`;
  }
  const rows = await deps.sequelize.query<{ n: number }>(`SELECT count(*)::int AS n FROM leads l WHERE ${sql} AND l.id = ANY($${bind.length + 1}::text[])`, {
    bind: [...bind, [...input.exclude]],
    type: QueryTypes.SELECT,
  });
  return rows[0]?.n ?? 0;
}

/**
 * The campaign's next leads (see findLeads: the account's store, or Apollo with its key): matching
 * its audience (every lead for all_leads; none at all when the audience matches nobody), not
 * suppressed, bounced or unsubscribed, not emailed by the campaign, and never one of `exclude`
 * (the leads the workflow already has). `costUsd` is the enrichment spend this call reports,
 * each cost once even across retries (see claimEnrichmentCosts; `claimant` names the call). A
 * campaign that is not the account's is NotFoundError('campaign'); the lead provider's failures
 * are thrown as its LeadProviderErrors. Each call then stores the audience's count of matching
 * reachable leads on the campaign row (one count), which GET shows.
 */
export async function planCampaignLeads(deps: LeadDeps, input: PlanLeadsInput, claimant: string): Promise<PlanLeadsResult> {
  const found = await deps.sequelize.query<{ audience_filters: AudienceFilters | null; audience_source: string | null }>(
    `SELECT audience_filters, audience_source FROM campaigns WHERE id = $1 AND account_id = $2`,
    { bind: [input.campaignId, input.accountId], type: QueryTypes.SELECT },
  );
  const row = found[0];
  if (row === undefined) throw new NotFoundError('campaign');
  const audience = storedAudience(row.audience_filters, row.audience_source);
  const criteria = audienceCriteria(audience);

  let leadIds: string[] = [];
  const limit = Math.max(0, Math.floor(input.limit));
  if (limit > 0) {
    const margin = await returnableAmong(deps, input, criteria);
    const result = await findLeads(deps, {
      accountId: input.accountId,
      campaignId: input.campaignId,
      filters: PROVIDER_FILTERS,
      ...(criteria === null ? {} : { criteria }),
      limit: Math.min(MAX_FIND_LIMIT, limit + margin),
    });
    const exclude = new Set(input.exclude);
    leadIds = result.leads.map((l) => l.leadId).filter((id) => !exclude.has(id)).slice(0, limit);
  }
  await recordAudienceCount(deps.sequelize, input.campaignId, await countAudience(deps.sequelize, input.accountId, audience));
  return { leadIds, costUsd: await claimEnrichmentCosts(deps.sequelize, input.campaignId, claimant) };
}

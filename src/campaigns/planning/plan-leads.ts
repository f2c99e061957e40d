import { QueryTypes } from 'sequelize';
import { NotFoundError } from '../../errors/domain-errors';
import { findLeads, MAX_FIND_LIMIT } from '../../leads/find-leads';
import type { LeadDeps } from '../../leads/provider';
import { storeSearchWhere, type LeadFilters } from '../../leads/lead-repository';
import type { PlanLeadsInput, PlanLeadsResult } from '../../../workflows/campaign/contract';
import { claimEnrichmentCosts } from './enrichment-claims';

/**
 * The filters a campaign searches with. `target_audience` is free text ("VPs of sales at fintechs
 * in Germany") and the filters take titles, locations and industries; no rule turns the one into
 * the others reliably, and a wrong guess would silently starve a campaign. So every reachable lead
 * of the account's own store is the audience (the account imported them for its outreach), and an
 * Apollo search is unfiltered as well: its client takes no free-text keywords.
 */
const AUDIENCE: LeadFilters = {};

/**
 * How many of `ids` findLeads could still return for the campaign (the account's, reachable, not
 * yet emailed by it): asking findLeads for that many more than `limit` leaves `limit` after they
 * are dropped, whatever order it returns them in.
 */
async function returnableAmong(deps: LeadDeps, input: PlanLeadsInput): Promise<number> {
  if (input.exclude.length === 0) return 0;
  const where = storeSearchWhere(input.accountId, {}, { reachableOnly: true, notInCampaign: input.campaignId });
  const rows = await deps.sequelize.query<{ n: number }>(`SELECT count(*)::int AS n FROM leads l WHERE ${where.sql} AND l.id = ANY($${where.bind.length + 1}::text[])`, {
    bind: [...where.bind, [...input.exclude]],
    type: QueryTypes.SELECT,
  });
  return rows[0]?.n ?? 0;
}

/**
 * The campaign's next leads (see findLeads: the account's store, or Apollo with its key): not
 * suppressed, bounced or unsubscribed, not emailed by the campaign, and never one of `exclude`
 * (the leads the workflow already has). `costUsd` is the enrichment spend this call reports,
 * each cost once even across retries (see claimEnrichmentCosts; `claimant` names the call). A
 * campaign that is not the account's is NotFoundError('campaign'); the lead provider's failures
 * are thrown as its LeadProviderErrors.
 */
export async function planCampaignLeads(deps: LeadDeps, input: PlanLeadsInput, claimant: string): Promise<PlanLeadsResult> {
  const found = await deps.sequelize.query(`SELECT 1 FROM campaigns WHERE id = $1 AND account_id = $2`, {
    bind: [input.campaignId, input.accountId],
    type: QueryTypes.SELECT,
  });
  if (found.length === 0) throw new NotFoundError('campaign');

  let leadIds: string[] = [];
  const limit = Math.max(0, Math.floor(input.limit));
  if (limit > 0) {
    const margin = await returnableAmong(deps, input);
    const result = await findLeads(deps, { accountId: input.accountId, campaignId: input.campaignId, filters: AUDIENCE, limit: Math.min(MAX_FIND_LIMIT, limit + margin) });
    const exclude = new Set(input.exclude);
    leadIds = result.leads.map((l) => l.leadId).filter((id) => !exclude.has(id)).slice(0, limit);
  }
  return { leadIds, costUsd: await claimEnrichmentCosts(deps.sequelize, input.campaignId, claimant) };
}

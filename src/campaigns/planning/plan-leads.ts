import { QueryTypes } from 'sequelize';
import { NotFoundError } from '../../errors/domain-errors';
import { findLeads, MAX_FIND_LIMIT } from '../../leads/find-leads';
import type { LeadDeps } from '../../leads/provider';
import type { LeadFilters } from '../../leads/lead-repository';
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

  const limit = Math.min(MAX_FIND_LIMIT, Math.max(0, Math.floor(input.limit)));
  // The search and the audience's count are independent reads: run side by side, a day's planning
  // waits for the slower of the two, not their sum.
  const [result, count] = await Promise.all([
    limit === 0
      ? null
      : findLeads(deps, {
          accountId: input.accountId,
          campaignId: input.campaignId,
          filters: PROVIDER_FILTERS,
          ...(criteria === null ? {} : { criteria }),
          excludeIds: input.exclude,
          limit,
        }),
    countAudience(deps.sequelize, input.accountId, audience),
  ]);
  const leadIds = result === null ? [] : result.leads.map((l) => l.leadId);
  // Two independent writes: the count GET shows, and the enrichment spend this call reports.
  const [, costUsd] = await Promise.all([recordAudienceCount(deps.sequelize, input.campaignId, count), claimEnrichmentCosts(deps.sequelize, input.campaignId, claimant)]);
  return { leadIds, costUsd };
}

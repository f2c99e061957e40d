import { ApplicationFailure } from '@temporalio/common';
import { planCampaignLeads } from '../../src/campaigns/planning/plan-leads';
import { CampaignMissing } from '../../src/campaigns/campaign-missing';
import type { LeadDeps } from '../../src/leads/provider';
import type { PlanLeadsInput, PlanLeadsResult } from '../../workflows/campaign/contract';
import { leadProviderFailure } from '../leads/find-leads';
import { callName } from './activity-context';

/**
 * The `planLeads` activity: the campaign's next leads and the enrichment they cost (see
 * planCampaignLeads). Its retries report the same costs (they share the call's name); provider
 * failures are typed as for findLeads.
 */
export function planLeads(deps: LeadDeps) {
  return async (input: PlanLeadsInput): Promise<PlanLeadsResult> => {
    try {
      return await planCampaignLeads(deps, input, callName());
    } catch (err) {
      if (err instanceof CampaignMissing) throw ApplicationFailure.nonRetryable(err.message, 'CampaignNotFound');
      throw leadProviderFailure(err);
    }
  };
}

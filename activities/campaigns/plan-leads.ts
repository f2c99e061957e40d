import { planCampaignLeads } from '../../src/campaigns/planning/plan-leads';
import type { PlanLeadsInput, PlanLeadsResult } from '../../workflows/campaign/contract';
import { callName } from '../activity-context';
import type { ActivityDeps } from '../deps';
import { activityFailure } from '../failures';

/**
 * The `planLeads` activity: the campaign's next leads and the enrichment they cost (see
 * planCampaignLeads). Its retries report the same costs: they share the call's name.
 */
export function planLeads(deps: ActivityDeps) {
  return async (input: PlanLeadsInput): Promise<PlanLeadsResult> => {
    try {
      return await planCampaignLeads(deps, input, callName());
    } catch (err) {
      throw activityFailure(err);
    }
  };
}

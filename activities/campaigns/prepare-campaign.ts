import { prepareTarget } from '../../src/campaigns/preparation/prepare-target';
import { egressFor, type Egress } from '../../src/egress';
import type { PrepareCampaignInput, PrepareCampaignResult } from '../../workflows/campaign/contract';
import type { ActivityDeps } from '../deps';
import { activityFailure } from '../failures';

/**
 * The `prepareCampaign` activity: scrapes the campaign's target and links the stored company to
 * it (see prepareTarget). A target that will never scrape is a result ({companyId: null,
 * scrapeProblem}), not a failure: the writers cope without a company. A temporary failure is a
 * retryable 'TargetUnavailable'; the workflow bounds the attempts and then goes on without it.
 */
export function prepareCampaign(deps: ActivityDeps, egress: Egress = egressFor(deps.config)) {
  return async (input: PrepareCampaignInput): Promise<PrepareCampaignResult> => {
    try {
      const prepared = await prepareTarget(deps.sequelize, egress, input.accountId, input.campaignId);
      if (prepared.scrapeProblem !== null) deps.log.info({ campaignId: input.campaignId, problem: prepared.scrapeProblem }, 'campaign target not scraped');
      return prepared;
    } catch (err) {
      throw activityFailure(err);
    }
  };
}

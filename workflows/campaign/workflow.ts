import { setHandler } from '@temporalio/workflow';
import { CampaignEntity } from './campaign-entity';
import { leadFactSignal, leadRemovedSignal, pauseSignal, resumeSignal, statusQuery, stopSignal, type CampaignStatusView, type CampaignWorkflowInput } from './contract';
import { setCampaignSearchAttributes } from './search-attributes';

/**
 * The life of one campaign (see CampaignEntity): this function only wires the signals and the
 * status query to the entity, makes the campaign findable, and runs it. A run continued as new
 * starts here again with the state the previous run carried (`input.carried`).
 */
export async function campaignWorkflow(input: CampaignWorkflowInput): Promise<CampaignStatusView> {
  const campaign = new CampaignEntity(input, Date.now());
  setHandler(statusQuery, () => campaign.view());
  setHandler(pauseSignal, (signal) => campaign.pause(signal));
  setHandler(stopSignal, (signal) => campaign.stop(signal));
  setHandler(resumeSignal, (signal) => campaign.resume(signal));
  setHandler(leadFactSignal, (fact) => campaign.leadFact(fact));
  setHandler(leadRemovedSignal, (removed) => campaign.leadRemoved(removed));
  setCampaignSearchAttributes(input, campaign.status);
  return campaign.run();
}

import { setHandler } from '@temporalio/workflow';
import { CampaignEntity } from './campaign-entity';
import {
  editUpdate,
  leadFactSignal,
  leadRemovedSignal,
  pauseSignal,
  pauseUpdate,
  resumeSignal,
  resumeUpdate,
  statusQuery,
  stopSignal,
  stopUpdate,
  type CampaignStatusView,
  type CampaignWorkflowInput,
} from './contract';
import { setCampaignSearchAttributes } from './search-attributes';

/**
 * The life of one campaign (see CampaignEntity): this function only wires the Updates, signals
 * and the status query to the entity, makes the campaign findable, and runs it. A run continued
 * as new starts here again with the state the previous run carried (`input.carried`).
 */
export async function campaignWorkflow(input: CampaignWorkflowInput): Promise<CampaignStatusView> {
  const campaign = new CampaignEntity(input, Date.now());
  setHandler(statusQuery, () => campaign.view());
  setHandler(pauseUpdate, (request) => campaign.control('pause', request), { validator: (_request) => campaign.validateControl('pause') });
  setHandler(stopUpdate, (request) => campaign.control('stop', request), { validator: (_request) => campaign.validateControl('stop') });
  setHandler(resumeUpdate, (request) => campaign.control('resume', request), { validator: (_request) => campaign.validateControl('resume') });
  setHandler(editUpdate, (edit) => campaign.edit(edit), { validator: (edit) => campaign.validateEdit(edit) });
  // The signals of runs recorded before the Updates (their histories still deliver them).
  setHandler(pauseSignal, (signal) => campaign.pause(signal));
  setHandler(stopSignal, (signal) => campaign.stop(signal));
  setHandler(resumeSignal, (signal) => campaign.resume(signal));
  setHandler(leadFactSignal, (fact) => campaign.leadFact(fact));
  setHandler(leadRemovedSignal, (removed) => campaign.leadRemoved(removed));
  setCampaignSearchAttributes(input, campaign.status);
  return campaign.run();
}

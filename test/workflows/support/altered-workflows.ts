/**
 * A deliberately incompatible campaign workflow, registered under the real one's name, for
 * replay.test.ts to prove that the replay check can fail. It makes the campaign findable as the
 * real one does, then looks for a lead before anything else: its first activity is planLeads
 * where every recorded history has a start-date timer or prepareCampaign. The kind of change
 * that, deployed without patched(), would break every campaign already running.
 */
import { proxyActivities } from '@temporalio/workflow';
import type { CampaignWorkflowActivities } from '../../../activities';
import type { CampaignStatusView, CampaignWorkflowInput } from '../../../workflows/campaign/contract';
import { setCampaignSearchAttributes } from '../../../workflows/campaign/search-attributes';
import { campaignWorkflow as realCampaignWorkflow } from '../../../workflows/campaign/workflow';

const { planLeads } = proxyActivities<CampaignWorkflowActivities>({ startToCloseTimeout: '1 minute' });

export async function campaignWorkflow(input: CampaignWorkflowInput): Promise<CampaignStatusView> {
  setCampaignSearchAttributes(input, input.carried?.status ?? 'starting');
  await planLeads({ campaignId: input.campaignId, accountId: input.accountId, limit: 1, exclude: [] });
  return realCampaignWorkflow(input);
}

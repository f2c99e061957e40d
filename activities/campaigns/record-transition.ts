import { recordTransition } from '../../src/campaigns/events/record-transition';
import type { CampaignTransition } from '../../workflows/campaign/contract';
import type { ActivityDeps } from '../deps';

/**
 * The `recordCampaignTransition` activity: the campaigns row and the transition's events, in one
 * transaction (see recordTransition). When the campaign completes or fails, its report schedule is
 * then told, so the final report goes out at once. That is done here rather than by the campaign
 * workflow, whose commands (and recorded histories) stay as they were; a retried activity signals
 * again with the same moment, which the schedule ignores.
 */
export function recordCampaignTransition(deps: ActivityDeps) {
  return async (transition: CampaignTransition): Promise<void> => {
    await recordTransition(deps.sequelize, transition);
    const { status } = transition;
    if ((status === 'completed' || status === 'failed') && deps.reports !== undefined) {
      await deps.reports.campaignEnded(transition.campaignId, { at: Date.parse(transition.at), status });
    }
  };
}

import { recordTransition } from '../../src/campaigns/events/record-transition';
import type { CampaignTransition } from '../../workflows/campaign/contract';
import type { ActivityDeps } from '../deps';

/** The `recordCampaignTransition` activity: the campaigns row and the transition's events, in one transaction (see recordTransition). */
export function recordCampaignTransition(deps: ActivityDeps) {
  return (transition: CampaignTransition): Promise<void> => recordTransition(deps.sequelize, transition);
}

import { emitEvents } from '../../src/campaigns/events/emit-events';
import type { CampaignEventsInput } from '../../workflows/campaign/contract';
import type { ActivityDeps } from '../deps';

/** The `emitCampaignEvents` activity: events with no status change, each once across retries (see emitEvents). */
export function emitCampaignEvents(deps: ActivityDeps) {
  return (input: CampaignEventsInput): Promise<void> => emitEvents(deps.sequelize, input);
}

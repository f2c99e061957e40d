import type { Sequelize } from 'sequelize';
import { readEventFills, writeCampaignEvents } from '../../src/campaigns/events/campaign-events';
import type { CampaignEventsInput } from '../../workflows/campaign/contract';

/**
 * The `emitCampaignEvents` activity: events that come with no status change (budget warnings,
 * milestones) go to the outbox in one transaction, each once however often the activity is retried
 * (ids derived from the request, see deterministicEventId).
 */
export function emitCampaignEvents(sequelize: Sequelize) {
  return async (input: CampaignEventsInput): Promise<void> => {
    if (input.events.length === 0) return;
    const fills = await readEventFills(sequelize, input.campaignId, input.events);
    await sequelize.transaction(async (tx) => {
      await writeCampaignEvents(sequelize, tx, { campaignId: input.campaignId, accountId: input.accountId, at: input.at, source: 'events', events: input.events }, fills);
    });
  };
}

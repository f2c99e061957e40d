import type { Sequelize } from 'sequelize';
import type { CampaignEventsInput } from '../../../workflows/campaign/contract';
import { readEventFills, writeCampaignEvents } from './campaign-events';

/**
 * Events that come with no status change (budget warnings, milestones) go to the outbox in one
 * transaction, each once however often the same request is repeated (ids derived from the
 * request, see deterministicEventId).
 */
export async function emitEvents(sequelize: Sequelize, input: CampaignEventsInput): Promise<void> {
  if (input.events.length === 0) return;
  const fills = await readEventFills(sequelize, input.campaignId, input.events);
  await sequelize.transaction(async (tx) => {
    await writeCampaignEvents(sequelize, tx, { campaignId: input.campaignId, accountId: input.accountId, at: input.at, source: 'events', events: input.events }, fills);
  });
}

import { Campaign } from '../../db/models';

/**
 * The campaign `campaignId` if it belongs to `accountId`, else null: another account's campaign
 * and a campaign that does not exist look the same to the caller (neither is its business).
 */
export async function findOwnedCampaign(accountId: string, campaignId: string): Promise<Campaign | null> {
  return Campaign.findOne({ where: { id: campaignId, accountId } });
}

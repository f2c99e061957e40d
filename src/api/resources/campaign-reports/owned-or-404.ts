import type { Sequelize } from 'sequelize';
import { campaignDetail, type CampaignDetail } from '../../../campaigns/reporting/campaign-detail';
import { findOwnedCampaign } from '../../../campaigns/reporting/owned-campaign';
import type { Campaign } from '../../../db/models';
import { notFound } from '../../http/errors';
import { CampaignNotFound } from './schemas';

/**
 * The caller's campaign for both surfaces' read routes, or the 404 they all answer: another
 * account's campaign and a missing one look the same.
 */
export async function ownedCampaignOr404(accountId: string, campaignId: string): Promise<Campaign> {
  const c = await findOwnedCampaign(accountId, campaignId);
  if (c === null) throw notFound(CampaignNotFound);
  return c;
}

/** The caller's campaign with its figures (one prepared statement), or the same 404. */
export async function campaignDetailOr404(sequelize: Sequelize, accountId: string, campaignId: string): Promise<CampaignDetail> {
  const detail = await campaignDetail(sequelize, accountId, campaignId);
  if (detail === null) throw notFound(CampaignNotFound);
  return detail;
}

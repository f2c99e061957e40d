import type { Sequelize } from 'sequelize';
import type { Campaign, CampaignStatus } from '../../db/models/campaign';
import { campaignCounts, type CampaignCounts } from './campaign-counts';
import { campaignCosts, type CampaignCosts } from './cost-breakdown';
import { campaignRates, type CampaignRates } from './rates';

/** A campaign's results over its life so far. */
export interface CampaignStats {
  readonly campaignId: string;
  readonly status: CampaignStatus;
  /** From the start (or creation, before it started) to the end (or now, while it is not over). */
  readonly period: { readonly start: Date; readonly end: Date };
  readonly counts: CampaignCounts;
  readonly rates: CampaignRates;
  readonly costs: CampaignCosts;
}

export function statsPeriod(c: Pick<Campaign, 'startedAt' | 'createdAt' | 'completedAt' | 'failedAt'>, now: Date): { start: Date; end: Date } {
  return { start: c.startedAt ?? c.createdAt, end: c.completedAt ?? c.failedAt ?? now };
}

export async function campaignStats(sequelize: Sequelize, c: Campaign, now = new Date()): Promise<CampaignStats> {
  const [counts, costs] = await Promise.all([campaignCounts(sequelize, c.id), campaignCosts(sequelize, c.id)]);
  return { campaignId: c.id, status: c.status, period: statsPeriod(c, now), counts, rates: campaignRates(counts), costs };
}

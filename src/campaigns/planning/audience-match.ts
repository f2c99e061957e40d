/**
 * A campaign's audience as lead criteria, and the count of the account's reachable leads it
 * matches: taken at create and after each planning call, stored on the campaign row so a read
 * shows it without counting.
 */
import type { Sequelize, Transaction } from 'sequelize';
import { QueryTypes } from 'sequelize';
import { ALL_LEADS } from '../../leads/criteria-sql';
import { countMatchingLeads } from '../../leads/lead-repository';
import type { LeadCriteria } from '../../leads/profile/types';
import { zeroMatchReason, type CampaignAudience } from '../audience/audience-of-campaign';
import { resolveAudience } from '../audience/resolve';
import { AUDIENCE_SOURCES, type AudienceFilters, type AudienceSource } from '../audience/types';

/** The audience as stored on a campaign row (columns audience_filters, audience_source). */
export function storedAudience(filters: AudienceFilters | null, source: string | null): CampaignAudience {
  const known = (AUDIENCE_SOURCES as readonly string[]).includes(source ?? '') ? (source as AudienceSource) : 'all_leads';
  // Filters are the audience whenever they are stored; all_leads is the only source without any.
  if (known === 'all_leads' || filters === null) return { filters: null, source: 'all_leads' };
  return { filters, source: known };
}

/** The criteria the matcher selects with: null for all_leads (today's unfiltered store search). */
export function audienceCriteria(audience: CampaignAudience): LeadCriteria | null {
  return audience.filters === null ? null : resolveAudience(audience.filters);
}

export interface AudienceCount {
  readonly matchedLeads: number;
  readonly reason: string | null;
}

/** How many reachable leads of the account (of `lists`, when the campaign names lists) the audience matches (one count), and why none. */
export async function countAudience(sequelize: Sequelize, accountId: string, audience: CampaignAudience, lists: readonly string[] = []): Promise<AudienceCount> {
  const matchedLeads = await countMatchingLeads(sequelize, accountId, audienceCriteria(audience) ?? ALL_LEADS, { reachableOnly: true, inLists: lists });
  return { matchedLeads, reason: zeroMatchReason(audience, matchedLeads) };
}

/** Stores the count on the campaign row. */
export async function recordAudienceCount(sequelize: Sequelize, campaignId: string, count: AudienceCount, transaction?: Transaction): Promise<void> {
  await sequelize.query('UPDATE campaigns SET audience_matched_leads = $2, audience_reason = $3 WHERE id = $1', {
    bind: [campaignId, count.matchedLeads, count.reason],
    type: QueryTypes.UPDATE,
    ...(transaction === undefined ? {} : { transaction }),
  });
}

import { QueryTypes } from 'sequelize';
import { NotFoundError } from '../../errors/domain-errors';
import { findLeads, MAX_FIND_LIMIT } from '../../leads/find-leads';
import type { LeadDeps } from '../../leads/provider';
import type { AudienceFilters } from '../audience/types';
import type { EnrolNewLeadsInput, EnrolNewLeadsResult } from '../../../workflows/campaign/contract';
import { enrolLeads, enrolSettingsOf } from '../enrolment/enrol-leads';
import { activeCount } from '../enrolment/enrolment-repository';
import { audienceCriteria, countAudience, recordAudienceCount, storedAudience } from './audience-match';
import { claimEnrichmentCosts } from './enrichment-claims';

/** Search rounds per call: skipped candidates make a round come back short, the next looks further. */
const MAX_ROUNDS = 5;

/**
 * A sending day's planning: tops the campaign's queue up to `wanted` leads awaiting their first
 * email, from its sources (its lead lists, else the account's leads or the provider) narrowed by
 * its audience. Each candidate is enrolled as queued or skipped with its reason (enrol-leads.ts),
 * so a person skipped once is not offered again. Then the count of matching reachable leads is
 * stored on the campaign (GET shows it) and the enrichment spend of the call is claimed once.
 */
export async function planEnrolments(deps: LeadDeps, input: EnrolNewLeadsInput, claimant: string): Promise<EnrolNewLeadsResult> {
  const settings = await enrolSettingsOf(deps.sequelize, input.accountId, input.campaignId);
  if (settings === null) throw new NotFoundError('campaign');
  const found = await deps.sequelize.query<{ audience_filters: AudienceFilters | null; audience_source: string | null; queued: number }>(
    `SELECT audience_filters, audience_source,
       (SELECT count(*)::int FROM campaign_enrolments ce WHERE ce.campaign_id = c.id AND ce.state = 'queued') AS queued
     FROM campaigns c WHERE c.id = $1`,
    { bind: [input.campaignId], type: QueryTypes.SELECT },
  );
  const row = found[0];
  if (row === undefined) throw new NotFoundError('campaign');
  const audience = storedAudience(row.audience_filters, row.audience_source);
  const criteria = audienceCriteria(audience);
  const lists = settings.leadListIds;

  // The audience's count does not depend on what is enrolled: taken side by side with the search,
  // a day's planning waits for the slower of the two, not their sum.
  const counting = countAudience(deps.sequelize, input.accountId, audience, lists);
  // Handled here as well: a search that fails first must not leave this rejection unhandled.
  counting.catch(() => undefined);
  let need = Math.min(MAX_FIND_LIMIT, Math.max(0, Math.floor(input.wanted) - row.queued));
  let enrolled = 0;
  let skipped = 0;
  let exhausted: boolean | null = null;
  for (let round = 0; round < MAX_ROUNDS && need > 0; round++) {
    const result = await findLeads(deps, {
      accountId: input.accountId,
      campaignId: input.campaignId,
      filters: {},
      ...(criteria === null ? {} : { criteria }),
      notEnrolledIn: input.campaignId,
      fromLists: lists,
      limit: need,
    });
    const source = lists.length > 0 ? 'list' : 'audience';
    const done = await enrolLeads(
      deps.sequelize,
      settings,
      result.leads.map((l) => l.leadId),
      { source, day: input.day, maxQueued: need, retake: false },
    );
    enrolled += done.queued.length;
    skipped += Object.values(done.skipped).reduce((a, b) => a + b, 0);
    need -= done.queued.length;
    exhausted = result.leads.length === 0 && enrolled === 0;
    // Fewer candidates than asked: there are no more to look at today.
    if (result.leads.length < need + done.queued.length) break;
  }

  const [count, costUsd, active] = await Promise.all([
    counting,
    claimEnrichmentCosts(deps.sequelize, input.campaignId, claimant),
    activeCount(deps.sequelize, input.campaignId),
  ]);
  await recordAudienceCount(deps.sequelize, input.campaignId, count);
  return { enrolled, skipped, costUsd, poolExhausted: exhausted, activeLeads: active };
}

import { activeCount, endForFact } from '../../src/campaigns/enrolment/enrolment-repository';
import type { EndLeadSequenceInput, EndLeadSequenceResult } from '../../workflows/campaign/contract';
import type { ActivityDeps } from '../deps';
import { activityFailure } from '../failures';

/**
 * The `endLeadSequence` activity: a reply, meeting, unsubscribe or bounce the API recorded ends the
 * lead's row (and its colleagues', see endForFact) when still active; the workflow counts it when
 * it did.
 */
export function endLeadSequence(deps: ActivityDeps) {
  return async (input: EndLeadSequenceInput): Promise<EndLeadSequenceResult> => {
    try {
      const outcome = await endForFact(deps.sequelize, input.campaignId, input.leadId, input.fact);
      return { ...outcome, activeLeads: await activeCount(deps.sequelize, input.campaignId) };
    } catch (err) {
      throw activityFailure(err);
    }
  };
}

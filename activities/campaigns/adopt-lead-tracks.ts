import { adoptTracks } from '../../src/campaigns/enrolment/enrolment-repository';
import type { AdoptLeadTracksInput } from '../../workflows/campaign/contract';
import type { ActivityDeps } from '../deps';
import { activityFailure } from '../failures';

/** The `adoptLeadTracks` activity: a run that kept its leads in its own state hands them to the enrolment table once. */
export function adoptLeadTracks(deps: ActivityDeps) {
  return async (input: AdoptLeadTracksInput): Promise<void> => {
    try {
      await adoptTracks(deps.sequelize, input.accountId, input.campaignId, input.tracks);
    } catch (err) {
      throw activityFailure(err);
    }
  };
}

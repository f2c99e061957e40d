import { decideVariantWinners as decide } from '../../src/campaigns/sequences/decide-winners';
import type { DecideWinnersInput, DecideWinnersResult } from '../../workflows/campaign/contract';
import type { ActivityDeps } from '../deps';
import { activityFailure } from '../failures';

/**
 * The `decideVariantWinners` activity: the sequence's open variant tests checked on the campaign's
 * figures; a winner is stored and announced once (see decideVariantWinners), so a retry is harmless.
 */
export function decideVariantWinners(deps: ActivityDeps) {
  return async (input: DecideWinnersInput): Promise<DecideWinnersResult> => {
    try {
      return await decide(deps.sequelize, input);
    } catch (err) {
      throw activityFailure(err);
    }
  };
}

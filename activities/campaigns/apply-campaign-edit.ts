import { applyEdit } from '../../src/campaigns/edit/apply-edit';
import type { ApplyEditInput, ApplyEditResult } from '../../workflows/campaign/contract';
import type { ActivityDeps } from '../deps';
import { activityFailure } from '../failures';

/** The `applyCampaignEdit` activity: an edit's row, sequence and history, in one transaction (see applyEdit). */
export function applyCampaignEdit(deps: ActivityDeps) {
  return async (input: ApplyEditInput): Promise<ApplyEditResult> => {
    try {
      return await applyEdit(deps.sequelize, input);
    } catch (err) {
      throw activityFailure(err);
    }
  };
}

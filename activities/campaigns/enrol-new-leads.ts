import { planEnrolments } from '../../src/campaigns/planning/plan-enrolments';
import type { EnrolNewLeadsInput, EnrolNewLeadsResult } from '../../workflows/campaign/contract';
import { callName } from '../activity-context';
import type { ActivityDeps } from '../deps';
import { activityFailure } from '../failures';

/**
 * The `enrolNewLeads` activity: a sending day's planning into the enrolment table (see
 * planEnrolments). Its retries report the same enrichment costs: they share the call's name.
 */
export function enrolNewLeads(deps: ActivityDeps) {
  return async (input: EnrolNewLeadsInput): Promise<EnrolNewLeadsResult> => {
    try {
      return await planEnrolments(deps, input, callName());
    } catch (err) {
      throw activityFailure(err);
    }
  };
}

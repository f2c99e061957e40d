import { ApplicationFailure } from '@temporalio/common';
import type { Sequelize } from 'sequelize';
import type { Config } from '../../src/config/config';
import { LeadProviderError, ProviderRateLimited } from '../../src/leads/apollo/errors';
import { findLeads, type FindLeadsInput, type FindLeadsResult } from '../../src/leads/find-leads';

export type { FindLeadsInput, FindLeadsResult };

/**
 * A lead provider failure as an ApplicationFailure the retry policy understands: a rejected key or
 * request is not retried (the account must fix it; the workflow can fail the campaign with the
 * message), a rate limit is retried after the wait Apollo asked for, an outage with the policy's
 * backoff. Anything else is returned as it is.
 */
export function leadProviderFailure(err: unknown): unknown {
  if (!(err instanceof LeadProviderError)) return err;
  if (err instanceof ProviderRateLimited) {
    return ApplicationFailure.create({ message: err.message, type: err.name, nextRetryDelay: `${err.retryAfterSeconds}s` });
  }
  return ApplicationFailure.create({ message: err.message, type: err.name, nonRetryable: !err.retryable });
}

/** The campaign's next leads (see src/leads/find-leads.ts), provider failures as leadProviderFailure says. */
export function findLeadsActivity(deps: { readonly sequelize: Sequelize; readonly config: Config }) {
  return async (input: FindLeadsInput): Promise<FindLeadsResult> => {
    try {
      return await findLeads(deps, input);
    } catch (err) {
      throw leadProviderFailure(err);
    }
  };
}

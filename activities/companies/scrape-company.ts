import { ApplicationFailure } from '@temporalio/common';
import { companyRecord, saveCompany, scrapeCompany as scrapeSite, ScrapeError, type CompanyRecord } from '../../src/companies';
import { egressFor, type Egress } from '../../src/egress';
import type { ActivityDeps } from '../index';

export interface ScrapeCompanyInput {
  readonly accountId: string;
  /** A URL or a bare domain (`acme.com`). */
  readonly url: string;
}

/**
 * The `scrapeCompany` activity: scrapes a site, stores the company (upsert by account and domain)
 * and returns it as plain JSON. When the target cannot be scraped:
 * - 'TargetUnreachable', not retryable: the URL is invalid or points at a private or reserved
 *   address (directly, by DNS or by redirect); no retry can change the policy's answer;
 * - 'TargetUnavailable', retryable: timeout, DNS or connection failure, HTTP 429 or 5xx;
 * - 'TargetRejected', not retryable: an answer that will be the same next time (HTTP 4xx, not
 *   HTML, too large, a redirect loop).
 * Database errors escape as they are and are retried by Temporal.
 */
export function scrapeCompany(deps: ActivityDeps, egress: Egress = egressFor(deps.config)) {
  return async (input: ScrapeCompanyInput): Promise<CompanyRecord> => {
    let scraped;
    try {
      scraped = await scrapeSite(egress, input.url);
    } catch (err) {
      if (!(err instanceof ScrapeError)) throw err;
      if (err.kind === 'blocked' || err.kind === 'bad_url') throw ApplicationFailure.nonRetryable(err.message, 'TargetUnreachable', { kind: err.kind });
      if (err.retryable) throw ApplicationFailure.retryable(err.message, 'TargetUnavailable', { kind: err.kind });
      throw ApplicationFailure.nonRetryable(err.message, 'TargetRejected', { kind: err.kind });
    }
    return companyRecord(await saveCompany(deps.sequelize, input.accountId, scraped));
  };
}

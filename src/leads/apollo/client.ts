import Ajv, { type ValidateFunction } from 'ajv';
import { setTimeout as delay } from 'node:timers/promises';
import { findEgressError } from '../../egress';
import { LeadProviderError, ProviderKeyRejected, ProviderRateLimited, ProviderRequestRejected, ProviderUnavailable } from './errors';
import type { HttpAnswer, HttpPost } from './http';
import { retryDelayMs } from './retry-after';
import {
  ApolloMatchAnswer,
  ApolloSearchAnswer,
  type ApolloMatchQuery,
  type ApolloPeoplePage,
  type ApolloPerson,
  type ApolloSearchQuery,
} from './types';

export interface ApolloClientOptions {
  /** APOLLO_API_URL, without a trailing slash (e.g. https://api.apollo.io). */
  readonly baseUrl: string;
  /** The account's own Apollo key. */
  readonly apiKey: string;
  readonly post: HttpPost;
  /** Retries of a 429 before giving up with ProviderRateLimited. */
  readonly maxRateLimitRetries?: number;
  /** A 429 asking for a longer wait than this is not waited for: the caller gets ProviderRateLimited. */
  readonly maxRetryWaitMs?: number;
  readonly sleep?: (ms: number) => Promise<void>;
}

const ajv = new Ajv({ strict: false, allErrors: false });
const checkSearch: ValidateFunction = ajv.compile(ApolloSearchAnswer);
const checkMatch: ValidateFunction = ajv.compile(ApolloMatchAnswer);

/**
 * A client of Apollo's people API (and of anything that speaks it): people search and people
 * enrichment. It owns the protocol: the paths, the `X-Api-Key` header, what each status means, and
 * a bounded wait-and-retry on 429. A 5xx is not retried here: the caller decides (an activity
 * leaves it to Temporal's retry policy, the API answers 503).
 */
export class ApolloClient {
  private readonly maxRetries: number;
  private readonly maxWaitMs: number;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(private readonly opts: ApolloClientOptions) {
    this.maxRetries = opts.maxRateLimitRetries ?? 2;
    this.maxWaitMs = opts.maxRetryWaitMs ?? 10_000;
    this.sleep = opts.sleep ?? ((ms) => delay(ms));
  }

  /**
   * People search (`mixed_people/search`). Titles, locations, seniorities, employee ranges and
   * keywords pass through under Apollo's own names; industries go as organization keyword tags,
   * since Apollo's industry filter takes its internal tag ids, not names.
   */
  async searchPeople(q: ApolloSearchQuery): Promise<ApolloPeoplePage> {
    const body: Record<string, unknown> = { page: q.page, per_page: q.perPage };
    if (q.personTitles?.length) body.person_titles = q.personTitles;
    if (q.organizationLocations?.length) body.organization_locations = q.organizationLocations;
    if (q.organizationIndustries?.length) body.q_organization_keyword_tags = q.organizationIndustries;
    if (q.personLocations?.length) body.person_locations = q.personLocations;
    if (q.personSeniorities?.length) body.person_seniorities = q.personSeniorities;
    if (q.organizationNumEmployeesRanges?.length) body.organization_num_employees_ranges = q.organizationNumEmployeesRanges;
    if (q.keywords !== undefined && q.keywords.trim() !== '') body.q_keywords = q.keywords;
    const answer = await this.call('/api/v1/mixed_people/search', body, checkSearch);
    const a = answer as ApolloSearchAnswer;
    return {
      people: [...(a.contacts ?? []), ...a.people],
      page: a.pagination.page,
      perPage: a.pagination.per_page,
      totalEntries: a.pagination.total_entries,
      totalPages: a.pagination.total_pages,
    };
  }

  /** People enrichment (`people/match`): the matched person, or null. Personal emails are never asked for. */
  async matchPerson(q: ApolloMatchQuery): Promise<ApolloPerson | null> {
    let body: Record<string, unknown>;
    if ('email' in q) body = { email: q.email };
    else if ('linkedinUrl' in q) body = { linkedin_url: q.linkedinUrl };
    else if ('id' in q) body = { id: q.id };
    else body = { first_name: q.firstName, last_name: q.lastName, domain: q.domain };
    const answer = (await this.call('/api/v1/people/match', { ...body, reveal_personal_emails: false, reveal_phone_number: false }, checkMatch)) as ApolloMatchAnswer;
    return answer.person ?? null;
  }

  private async call(path: string, payload: Record<string, unknown>, check: ValidateFunction): Promise<unknown> {
    const url = `${this.opts.baseUrl}${path}`;
    const body = JSON.stringify(payload);
    for (let attempt = 0; ; attempt++) {
      const res = await this.send(url, body);
      if (res.status >= 200 && res.status < 300) return parseAnswer(res, check);
      if (res.status === 401 || res.status === 403) throw new ProviderKeyRejected(res.status);
      if (res.status === 400 || res.status === 422) throw new ProviderRequestRejected(res.status, providerMessage(res));
      if (res.status === 429) {
        const waitMs = retryDelayMs(res, attempt);
        if (attempt >= this.maxRetries || waitMs > this.maxWaitMs) throw new ProviderRateLimited(Math.max(1, Math.ceil(waitMs / 1000)));
        await this.sleep(waitMs);
        continue;
      }
      if (res.status >= 500) throw new ProviderUnavailable(`Apollo answered HTTP ${res.status}`, true, res.status);
      throw new ProviderUnavailable(`Apollo answered HTTP ${res.status}, which this client does not expect`, false, res.status);
    }
  }

  private async send(url: string, body: string): Promise<HttpAnswer> {
    try {
      return await this.opts.post(url, {
        headers: { 'content-type': 'application/json', accept: 'application/json', 'cache-control': 'no-cache', 'x-api-key': this.opts.apiKey },
        body,
      });
    } catch (err) {
      if (err instanceof LeadProviderError) throw err;
      const egress = findEgressError(err);
      // A refused address or a bad APOLLO_API_URL will not heal by retrying; a timeout or reset may.
      const retryable = egress === undefined || (egress.reason !== 'blocked_address' && egress.reason !== 'bad_url');
      throw new ProviderUnavailable(`Apollo could not be reached: ${(egress ?? (err as Error)).message}`, retryable);
    }
  }
}

function parseAnswer(res: HttpAnswer, check: ValidateFunction): unknown {
  let json: unknown;
  try {
    json = JSON.parse(res.body);
  } catch {
    throw new ProviderUnavailable('Apollo answered with a body that is not JSON', true, res.status);
  }
  if (!check(json)) {
    const first = check.errors?.[0];
    throw new ProviderUnavailable(`Apollo's answer is not in the expected form (${first ? `${first.instancePath || 'body'} ${first.message}` : 'invalid'})`, false, res.status);
  }
  return json;
}

/** Apollo's own explanation of a refused request (`error` or `message`), or the start of the body. */
function providerMessage(res: HttpAnswer): string {
  try {
    const json = JSON.parse(res.body) as Record<string, unknown>;
    for (const key of ['error', 'message', 'error_message']) {
      const v = json[key];
      if (typeof v === 'string' && v.trim() !== '') return v.trim().slice(0, 300);
    }
  } catch {
    // not JSON: fall through to the text
  }
  const text = res.body.trim().slice(0, 300);
  return text === '' ? `HTTP ${res.status}` : text;
}

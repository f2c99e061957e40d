import { QueryTypes, type Sequelize } from 'sequelize';
import { LEAD_COLUMNS, toLeadView, type LeadRow, type LeadView } from './lead-view';

/**
 * The filters of a lead search (the spec's `person_titles`, `organization_locations`,
 * `organization_industries`). Within a filter any term may match; every filter given must match.
 */
export interface LeadFilters {
  readonly personTitles?: readonly string[];
  readonly organizationLocations?: readonly string[];
  readonly organizationIndustries?: readonly string[];
}

/** A LIKE pattern matching values that contain `term` literally (its % _ and \ escaped). */
export function containsPattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * A POSIX regex matching `term` as a whole word sequence ("US" matches "Austin, TX, US" but not
 * "Austin"; "new york" matches "New York, NY, United States"), its regex characters escaped.
 */
export function wordsPattern(term: string): string {
  return `(^|[^[:alnum:]])${term.replace(/[.*+?^${}()|[\]\\]/g, (c) => `\\${c}`)}($|[^[:alnum:]])`;
}

const terms = (list: readonly string[] | undefined): string[] | null => {
  const cleaned = (list ?? []).map((t) => t.trim()).filter((t) => t !== '');
  return cleaned.length === 0 ? null : cleaned;
};

export interface StoreSearchOptions {
  /** Leave out leads that cannot be written to: suppressed, bounced or unsubscribed. */
  readonly reachableOnly?: boolean;
  /** Leave out leads this campaign has already emailed (or is emailing). */
  readonly notInCampaign?: string;
}

/**
 * The WHERE clause of a store search and its bind values ($1 is the account). A title matches when
 * it contains a term; an industry likewise; a location term matches when it appears as whole words
 * in the lead's "city, state, country". All case-insensitive, all in SQL.
 */
export function storeSearchWhere(accountId: string, filters: LeadFilters, opts: StoreSearchOptions = {}): { sql: string; bind: unknown[] } {
  const bind: unknown[] = [accountId];
  const clauses = ['l.account_id = $1'];
  const titles = terms(filters.personTitles);
  if (titles) {
    bind.push(titles.map(containsPattern));
    clauses.push(`l.title ILIKE ANY($${bind.length}::text[])`);
  }
  const locations = terms(filters.organizationLocations);
  if (locations) {
    bind.push(locations.map(wordsPattern));
    clauses.push(`concat_ws(', ', l.city, l.state, l.country) ~* ANY($${bind.length}::text[])`);
  }
  const industries = terms(filters.organizationIndustries);
  if (industries) {
    bind.push(industries.map(containsPattern));
    clauses.push(`l.industry ILIKE ANY($${bind.length}::text[])`);
  }
  if (opts.reachableOnly) {
    clauses.push('l.bounced_at IS NULL AND l.unsubscribed_at IS NULL');
    clauses.push('NOT EXISTS (SELECT 1 FROM suppressions s WHERE s.account_id = l.account_id AND s.email = l.email)');
  }
  if (opts.notInCampaign !== undefined) {
    bind.push(opts.notInCampaign);
    clauses.push(`NOT EXISTS (SELECT 1 FROM emails e WHERE e.campaign_id = $${bind.length} AND e.lead_id = l.id)`);
  }
  return { sql: clauses.join(' AND '), bind };
}

/** One page of the account's stored leads matching the filters, oldest first, and the total. */
export async function searchStoredLeads(
  sequelize: Sequelize,
  accountId: string,
  filters: LeadFilters,
  page: number,
  perPage: number,
  opts: StoreSearchOptions = {},
): Promise<{ leads: LeadView[]; total: number }> {
  const where = storeSearchWhere(accountId, filters, opts);
  const n = where.bind.length;
  const [rows, count] = await Promise.all([
    sequelize.query<LeadRow>(`SELECT ${LEAD_COLUMNS} FROM leads l WHERE ${where.sql} ORDER BY l.created_at, l.email LIMIT $${n + 1} OFFSET $${n + 2}`, {
      bind: [...where.bind, perPage, (page - 1) * perPage],
      type: QueryTypes.SELECT,
    }),
    sequelize.query<{ n: string }>(`SELECT count(*) AS n FROM leads l WHERE ${where.sql}`, { bind: where.bind, type: QueryTypes.SELECT }),
  ]);
  return { leads: rows.map(toLeadView), total: Number(count[0]?.n ?? 0) };
}

/**
 * One stored lead as the audience matcher sees it (the explanation of why a lead is in or out of
 * an audience reads it): its raw fields, its profile columns, its keyword text and whether it can
 * be written to, in one statement.
 */
import { QueryTypes, type Sequelize } from 'sequelize';
import { LEAD_COLUMNS, type LeadRow } from './lead-view';
import { RAW_PROFILE_COLUMNS, type RawProfileRow } from './profile-columns';
import type { LeadProfile } from './profile/types';

/** A stored lead with what the audience matcher reads: its raw fields, profile columns and whether it can be written to. */
export interface LeadForMatching {
  readonly row: LeadRow;
  /** The raw values imports and the provider carried (profile-columns.ts), to say which field a column came from. */
  readonly raw: RawProfileRow;
  readonly profile: LeadProfile;
  readonly keywordText: string | null;
  /** Why it cannot be written to (bounced, unsubscribed, suppressed), or null. */
  readonly unreachable: 'bounced' | 'unsubscribed' | 'suppressed' | null;
}

interface MatchingRow extends LeadRow, RawProfileRow {
  readonly title_key: string | null;
  readonly title_keys: string[] | null;
  readonly title_norm: string | null;
  readonly seniority: string | null;
  readonly department: string | null;
  readonly country_code: string | null;
  readonly state_code: string | null;
  readonly city_norm: string | null;
  readonly industry_id: string | null;
  readonly company_size: number | null;
  readonly keyword_text: string | null;
  readonly bounced: boolean;
  readonly unsubscribed: boolean;
  readonly suppressed: boolean;
}

/** One lead of the account as the matcher sees it, or null when the account has no such lead. */
export async function getLeadForMatching(sequelize: Sequelize, accountId: string, id: string): Promise<LeadForMatching | null> {
  const rows = await sequelize.query<MatchingRow>(
    `SELECT ${LEAD_COLUMNS}, ${RAW_PROFILE_COLUMNS}, l.title_key, l.title_keys, l.title_norm, l.seniority, l.department, l.country_code,
            l.state_code, l.city_norm, l.industry_id, l.company_size, l.keyword_text,
            l.bounced_at IS NOT NULL AS bounced, l.unsubscribed_at IS NOT NULL AS unsubscribed,
            EXISTS (SELECT 1 FROM suppressions s WHERE s.account_id = l.account_id AND s.email = l.email) AS suppressed
       FROM leads l WHERE l.account_id = $1 AND l.id = $2`,
    { bind: [accountId, id], type: QueryTypes.SELECT },
  );
  const r = rows[0];
  if (r === undefined) return null;
  return {
    row: r,
    raw: r,
    profile: {
      titleKey: r.title_key,
      titleKeys: r.title_keys ?? [],
      titleNorm: r.title_norm,
      seniority: r.seniority as LeadProfile['seniority'],
      department: r.department,
      countryCode: r.country_code,
      stateCode: r.state_code,
      cityNorm: r.city_norm,
      industryId: r.industry_id,
      companySize: r.company_size,
    },
    keywordText: r.keyword_text,
    unreachable: r.bounced ? 'bounced' : r.unsubscribed ? 'unsubscribed' : r.suppressed ? 'suppressed' : null,
  };
}

/**
 * How a stored lead is read (one column list for every query) and shown on Surface B (camelCase,
 * with `name` composed from the parts).
 */
import type { LeadSource } from '../db/models/lead';
import type { CustomFields } from './custom-fields';
import type { LeadInput } from './fields';
import { statusView, type UserStatus } from './lead-status';
import type { Verdict, VerificationChecks } from './verification/types';

export type LeadSourceName = LeadSource;

/** A `leads` row as the queries of this module select it. */
export interface LeadRow {
  readonly id: string;
  readonly email: string;
  readonly first_name: string | null;
  readonly last_name: string | null;
  readonly title: string | null;
  readonly company: string | null;
  readonly company_domain: string | null;
  readonly industry: string | null;
  readonly city: string | null;
  readonly state: string | null;
  readonly country: string | null;
  readonly linkedin_url: string | null;
  readonly phone: string | null;
  /** The import's custom fields by normalised name; null when the lead has none. */
  readonly custom_fields: Record<string, string> | null;
  readonly source: LeadSourceName;
  readonly created_at: Date;
  /** Address verification (docs/verification.md): null until the lead is first checked. */
  readonly verification: Verdict | null;
  readonly verification_checks: VerificationChecks | null;
  readonly verified_at: Date | null;
  /** What the user decided about the person (lead-status.ts); absent in queries that do not select it. */
  readonly user_status?: string | null;
}

/** The columns of LeadRow, qualified with `l.` so they can be used in joins. */
export const LEAD_COLUMNS =
  'l.id, l.email, l.first_name, l.last_name, l.title, l.company, l.company_domain, l.industry, l.city, l.state, l.country, l.linkedin_url, l.phone, l.custom_fields, l.source, l.created_at, l.verification, l.verification_checks, l.verified_at, l.user_status';

/**
 * A stored lead: what came in, plus its id, a composed `name`, its source and creation time. Its
 * custom fields are always an object (`{}` when it has none), so a client reads
 * `customFields.plan` without first asking whether there are any.
 */
export interface LeadView extends LeadInput {
  readonly id: string;
  readonly name: string | null;
  readonly customFields: CustomFields;
  readonly source: LeadSourceName;
  readonly createdAt: string;
  readonly verification: LeadVerificationView;
  readonly status: UserStatus | null;
}

/** A lead's last address verification: the verdict, when, and each check; status, checkedAt and checks are null until it is checked. */
export interface LeadVerificationView {
  readonly status: Verdict | null;
  readonly checkedAt: string | null;
  readonly checks: VerificationChecks | null;
}

export function toVerificationView(r: Pick<LeadRow, 'verification' | 'verification_checks' | 'verified_at'>): LeadVerificationView {
  return {
    status: r.verification,
    checkedAt: r.verified_at === null ? null : new Date(r.verified_at).toISOString(),
    checks: r.verification_checks,
  };
}

export function toLeadView(r: LeadRow): LeadView {
  const name = [r.first_name, r.last_name].filter((p): p is string => p !== null && p !== '').join(' ');
  return {
    id: r.id,
    email: r.email,
    firstName: r.first_name,
    lastName: r.last_name,
    name: name === '' ? null : name,
    title: r.title,
    company: r.company,
    companyDomain: r.company_domain,
    industry: r.industry,
    city: r.city,
    state: r.state,
    country: r.country,
    linkedinUrl: r.linkedin_url,
    phone: r.phone,
    customFields: r.custom_fields ?? {},
    source: r.source,
    createdAt: new Date(r.created_at).toISOString(),
    verification: toVerificationView(r),
    ...statusView(r.user_status),
  };
}

/**
 * A lead's profile: the normalised columns (title key, seniority, department, country, city,
 * industry, company size) computed from its raw fields, and the criteria the matcher selects
 * leads by. Vocabularies (titles and their synonyms, departments, industries and their synonyms,
 * regions) are data files in vocabulary/; countries and cities come from packages.
 */

/** Seniority levels, highest first. */
export const SENIORITIES = ['c_level', 'vp', 'head', 'director', 'manager', 'senior', 'entry'] as const;
export type Seniority = (typeof SENIORITIES)[number];

/** An employee-count range, both ends inclusive; an open end is absent. */
export interface CompanySizeRange {
  readonly min?: number;
  readonly max?: number;
}

/**
 * What the lead matcher takes: an audience's filters resolved to what the lead columns hold
 * (canonical ids), ready for SQL. Each list is
 * OR within itself; lists combine with AND; an empty list does not constrain.
 */
export interface LeadCriteria {
  /** Canonical title keys of the title vocabulary (e.g. `cto`, `vp_engineering`); a lead matches when its title names one of them. */
  readonly titleKeys: readonly string[];
  /**
   * Titles given as (seniority, department) pairs ("VPs of Engineering" when no exact key exists,
   * "marketing directors"); a lead matches a pair when both its columns match.
   */
  readonly titleRoles: readonly { readonly seniority: Seniority | null; readonly department: string | null }[];
  readonly seniorities: readonly Seniority[];
  readonly departments: readonly string[];
  /** ISO 3166-1 alpha-2 codes, upper case. */
  readonly countryCodes: readonly string[];
  /** States and provinces, ISO 3166-2 codes upper case (US-TX, CA-ON): one filter with countries and cities. */
  readonly subdivisions?: readonly string[];
  /** Cities, each with its country: the normalised name the lead column holds. */
  readonly cities: readonly { readonly city: string; readonly countryCode: string }[];
  readonly industryIds: readonly string[];
  readonly companySizes: readonly CompanySizeRange[];
  /** Lower-cased words, matched against title, company and industry. */
  readonly keywords: readonly string[];
  /**
   * Custom field conditions: the lead's field must equal one of a condition's values (trimmed,
   * case ignored); conditions combine with AND. Absent or empty: no constraint.
   */
  readonly custom?: CustomFieldCriteria;
  /** A lead matching any one of these is left out. */
  readonly exclude: {
    readonly titleKeys: readonly string[];
    readonly companies: readonly string[];
    readonly domains: readonly string[];
    readonly emails: readonly string[];
    /** Excluded titles with no exact key, as (seniority, department) pairs ("not sales managers"). */
    readonly titleRoles?: readonly { readonly seniority: Seniority | null; readonly department: string | null }[];
    /** Excluded industries ("not agencies"). */
    readonly industryIds?: readonly string[];
    /** Excluded values no vocabulary knows: a lead whose title, company or industry has one is left out. */
    readonly keywords?: readonly string[];
    /** Excluded custom field values: a lead whose field equals a value of any condition (case ignored) is left out; one without the field is not. */
    readonly custom?: CustomFieldCriteria;
  };
  /** Values given that no vocabulary knows; they constrain as keywords, never widen. */
  readonly unrecognised: readonly string[];
}

/** One condition on a custom field: its normalised name (src/leads/custom-fields.ts) and the values it is compared with. */
export interface CustomFieldCondition {
  readonly field: string;
  readonly values: readonly string[];
}

/** Conditions on custom fields; a list rather than a map, so two filters on one name stay two conditions. */
export type CustomFieldCriteria = readonly CustomFieldCondition[];

/**
 * The keyword an audience that names nobody carries (a phrase of stop words only, a text over the
 * length limit, filters with no member): no lead's title, company or industry can contain it (a
 * control character), so any matcher that honours `keywords` selects nobody. Never a bind-unsafe
 * NUL.
 */
export const MATCH_NOBODY_KEYWORD = '\u0001nobody\u0001';

/**
 * The normalised columns of one lead, computed at import (and by the migration for existing
 * rows) from its raw fields; the matcher reads only these.
 */
export interface LeadProfile {
  /** The title's main key (of its highest part). */
  readonly titleKey: string | null;
  /** Every key the title names ('CTO / Co-Founder': cto, founder), what audiences match; empty when none. */
  readonly titleKeys: readonly string[];
  /** The title lower-cased, accents and punctuation folded: what keywords match. */
  readonly titleNorm: string | null;
  readonly seniority: Seniority | null;
  readonly department: string | null;
  readonly countryCode: string | null;
  /** The state or province, ISO 3166-2 (from the state field, or from the city). */
  readonly stateCode: string | null;
  /** The city's one name in the city data when it lies in the lead's country ('München' is 'munich'), else as written; folded. */
  readonly cityNorm: string | null;
  readonly industryId: string | null;
  /** Employees, when known (a range's lower end). */
  readonly companySize: number | null;
}

/** The raw fields a LeadProfile is computed from (as stored on leads, plus what imports carry). */
export interface LeadProfileInput {
  readonly title?: string | null;
  readonly seniority?: string | null;
  readonly department?: string | null;
  readonly city?: string | null;
  readonly state?: string | null;
  readonly country?: string | null;
  readonly industry?: string | null;
  /** "51-200", "1,000", "10001+": read as its lower end. */
  readonly companySize?: string | number | null;
}

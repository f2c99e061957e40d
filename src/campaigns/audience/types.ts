/**
 * The audience of a campaign: who it emails, as filters over the account's leads. Shared by the
 * parser (free text to filters), the resolver (filters to the lead criteria of
 * src/leads/profile), the API (both surfaces' `audience` object) and the lead provider mapping.
 */
import type { CompanySizeRange, Seniority } from '../../leads/profile/types';

export type { CompanySizeRange, Seniority };

export interface AudienceExclusions {
  /** Titles never to email (matched like `titles`). */
  readonly titles?: readonly string[];
  /** Company names (case and spacing ignored). */
  readonly companies?: readonly string[];
  /** Email domains or company domains (`acme.com` also excludes `eu.acme.com`). */
  readonly domains?: readonly string[];
  readonly emails?: readonly string[];
  /** Industries never to email ("not agencies"): ids, names or synonyms, like `industries`. */
  readonly industries?: readonly string[];
  /**
   * Custom field values never to email, by field name: a lead whose field equals one of them
   * (trimmed, case ignored) is left out; a lead without the field is not.
   */
  readonly custom?: CustomFieldFilter;
}

/**
 * Custom field name (CUSTOM_FIELD_NAME_PATTERN of src/leads/custom-fields.ts) to the values one of
 * which the lead's field must equal, trimmed and case ignored. Names combine with AND.
 */
export type CustomFieldFilter = Readonly<Record<string, readonly string[]>>;

/**
 * Filters as a user writes them (Surface A in snake_case, B in camelCase; this is the camelCase
 * form). Every member is optional; members combine with AND, values within one member with OR.
 * An audience with no member at all names nobody: "everyone" is chosen only by giving no audience.
 */
export interface AudienceFilters {
  /** Job titles as written ("CTO", "VP of Engineering"), matched with their synonyms. */
  readonly titles?: readonly string[];
  readonly seniorities?: readonly Seniority[];
  /**
   * A range of levels, both ends included ("VP-level and above" is seniorityMin vp): the lowest
   * and the highest level taken (SENIORITIES order). One filter with `seniorities`: a lead meets
   * it with a level in the list or in the range.
   */
  readonly seniorityMin?: Seniority;
  readonly seniorityMax?: Seniority;
  /** Department ids of the vocabulary (engineering, marketing, sales, people, finance, ...). */
  readonly departments?: readonly string[];
  /** Countries (name, alias, demonym or ISO code), regions (DACH, Nordics, EU, EMEA, West Coast), states and provinces (Texas, ON, US-CA) or cities. */
  readonly locations?: readonly string[];
  /** Industry ids of the taxonomy, or their names and synonyms ("fintech", "SaaS"); an umbrella ("healthcare") takes what it covers. */
  readonly industries?: readonly string[];
  readonly companySizes?: readonly CompanySizeRange[];
  /** Words that must appear in the lead's title, company or industry. */
  readonly keywords?: readonly string[];
  /** The lead's custom fields (from its import): `{plan: ["pro", "enterprise"]}`. */
  readonly custom?: CustomFieldFilter;
  readonly exclude?: AudienceExclusions;
}

/** How a campaign's filters were obtained. */
export const AUDIENCE_SOURCES = ['parser', 'llm', 'explicit', 'all_leads'] as const;
export type AudienceSource = (typeof AUDIENCE_SOURCES)[number];


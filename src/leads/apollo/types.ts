import { Type, type Static } from '@sinclair/typebox';

/**
 * The parts of Apollo's answers this service reads (people search and people enrichment). Only
 * what is used is declared; everything else Apollo sends is ignored. Values may be null.
 */
const Str = Type.Optional(Type.Union([Type.String(), Type.Null()]));

export const ApolloOrganization = Type.Object({
  id: Str,
  name: Str,
  website_url: Str,
  primary_domain: Str,
  industry: Str,
  estimated_num_employees: Type.Optional(Type.Union([Type.Number(), Type.Null()])),
});

export const ApolloPerson = Type.Object({
  id: Type.String(),
  first_name: Str,
  last_name: Str,
  name: Str,
  title: Str,
  /** Apollo's seniority value (c_suite, vp, director...). */
  seniority: Str,
  email: Str,
  email_status: Str,
  linkedin_url: Str,
  city: Str,
  state: Str,
  country: Str,
  organization_name: Str,
  organization: Type.Optional(Type.Union([ApolloOrganization, Type.Null()])),
  phone_numbers: Type.Optional(Type.Union([Type.Array(Type.Object({ raw_number: Str, sanitized_number: Str })), Type.Null()])),
});
export type ApolloPerson = Static<typeof ApolloPerson>;

export const ApolloSearchAnswer = Type.Object({
  people: Type.Array(ApolloPerson),
  /** People already saved as contacts in the Apollo account (same shape). */
  contacts: Type.Optional(Type.Array(ApolloPerson)),
  pagination: Type.Object({
    page: Type.Integer(),
    per_page: Type.Integer(),
    total_entries: Type.Integer({ minimum: 0 }),
    total_pages: Type.Integer({ minimum: 0 }),
  }),
});
export type ApolloSearchAnswer = Static<typeof ApolloSearchAnswer>;

/** `{person: null}` (or no `person`) is "no match". */
export const ApolloMatchAnswer = Type.Object({ person: Type.Optional(Type.Union([ApolloPerson, Type.Null()])) });
export type ApolloMatchAnswer = Static<typeof ApolloMatchAnswer>;

/** Who to look up with people/match. `id` is Apollo's own person id (from a search). */
export type ApolloMatchQuery =
  | { readonly email: string }
  | { readonly firstName: string; readonly lastName: string; readonly domain: string }
  | { readonly linkedinUrl: string }
  | { readonly id: string };

export interface ApolloSearchQuery {
  readonly personTitles?: readonly string[];
  readonly organizationLocations?: readonly string[];
  /** Sent as `q_organization_keyword_tags`. */
  readonly organizationIndustries?: readonly string[];
  /** The person's own location (`person_locations`): countries, states, cities. */
  readonly personLocations?: readonly string[];
  /** Apollo's seniority values (`person_seniorities`: owner, founder, c_suite, vp...). */
  readonly personSeniorities?: readonly string[];
  /** Employee-count ranges as "min,max" (`organization_num_employees_ranges`). */
  readonly organizationNumEmployeesRanges?: readonly string[];
  /** Free-text keywords (`q_keywords`). */
  readonly keywords?: string;
  readonly page: number;
  readonly perPage: number;
}

export interface ApolloPeoplePage {
  readonly people: ApolloPerson[];
  readonly page: number;
  readonly perPage: number;
  readonly totalEntries: number;
  readonly totalPages: number;
}

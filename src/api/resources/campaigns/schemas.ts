import { Type, type TNumber, type TSchema } from '@sinclair/typebox';
import { MAX_AUDIENCE_TEXT_LENGTH } from '../../../campaigns/audience/parse-text';
import { customFilterSchema, dottedCustomMembers, MAX_CUSTOM_FILTER_NAMES } from '../../../campaigns/audience/filters-schema';
import { AUDIENCE_SOURCES } from '../../../campaigns/audience/types';
import { CAMPAIGN_STATUSES } from '../../../db/models/campaign';
import { DEPARTMENT_IDS } from '../../../leads/profile/departments';
import { SENIORITIES } from '../../../leads/profile/types';
import { NOT_BLANK, Timestamp } from '../../http/common-schemas';
import { StringEnum } from '../string-enum';
import { cased, CasedObject, type Casing } from './casing';

/**
 * Schema pieces both surfaces' campaign routes share, written once. Those with field names are
 * built per casing (see casing.ts): schemas-a.ts builds them snake_case, schemas-b.ts camelCase.
 */

export const Nullable = <T extends TSchema>(schema: T, description?: string) => Type.Union([schema, Type.Null()], description === undefined ? {} : { description });
export const Count = (description?: string) => Type.Integer({ minimum: 0, ...(description === undefined ? {} : { description }) });
export const Usd = (description: string) => Type.Number({ minimum: 0, description });
const Fraction = (description: string) => Type.Number({ minimum: 0, maximum: 1, description });

export const CampaignStatus = Type.Union(CAMPAIGN_STATUSES.map((s) => Type.Literal(s)));

/**
 * The campaign in the path, on every campaign route of both surfaces. Ids are opaque; one that
 * names no campaign of the account, well-formed or not, is a 404 worded like a missing one.
 */
export const CampaignId = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) }, { additionalProperties: false });

export const StatusReason = Nullable(
  Type.String(),
  'Why the campaign is in its status: manual, budget_exceeded or quota_exceeded (paused), trial_ended or schedule_complete (completed), a failure reason (failed); null otherwise.',
);

// --- create bodies: the fields both surfaces take, checked alike (create-fields.ts checks further) ---

/** A campaign's name: 1 to 200 characters, not blank (stored trimmed). */
export const CampaignName = (description: string) => Type.String({ minLength: 1, maxLength: 200, pattern: NOT_BLANK, description });

/**
 * The site a campaign speaks for (`target_url` on A, `brandUrl` on B): an http(s) URL or a bare
 * domain, whose host must be a valid domain name or IP address (siteField in create-fields.ts).
 */
export const SiteUrl = (description: string) => Type.String({ minLength: 1, maxLength: 2048, description });

export const DailyLimit = Nullable(Type.Number({ minimum: 0 }), 'Null: no daily limit.');

export const DashboardUrl = Type.String({ format: 'uri', description: 'The campaign in the dashboard.' });

/** The counts shown with a campaign (HeadlineCounts of the read model). */
export function HeadlineStats<C extends Casing>(casing: C, description: string) {
  return CasedObject(
    casing,
    { emails_sent: Count(), delivered: Count(), opened: Count(), replied: Count(), meetings_booked: Count() },
    { additionalProperties: false, description },
  );
}

/** A campaign's statistics: GET /campaigns/{id}/stats (snake_case) and GET /v1/campaigns/{id}/stats (camelCase). */
export function CampaignStatsResponse<C extends Casing>(casing: C) {
  const name = (snake: string) => cased(casing, snake);
  // Surface A has always called the total total_byok_usd; Surface B calls it totalUsd.
  const total = (casing === 'snake' ? 'total_byok_usd' : 'total_usd') as C extends 'snake' ? 'total_byok_usd' : 'total_usd';
  return CasedObject(
    casing,
    {
      campaign_id: Type.String(),
      status: CampaignStatus,
      period: Type.Object(
        {
          start: Type.String({ format: 'date-time', description: 'When the campaign started (its creation, before it has started).' }),
          end: Type.String({ format: 'date-time', description: 'When it completed or failed; now while it is not over.' }),
        },
        { additionalProperties: false },
      ),
      stats: CasedObject(
        casing,
        {
          emails_sent: Count('Emails sent.'),
          delivered: Count('Emails accepted by the receiving server and not bounced afterwards.'),
          bounced: Count('Emails refused by the receiving server, at once or by a later bounce message.'),
          opened: Count('Emails opened at least once (a click counts as an open).'),
          clicked: Count('Emails with at least one link clicked.'),
          replied: Count('Emails answered by a person (auto-replies and bounces do not count).'),
          unsubscribed: Count('Emails whose recipient unsubscribed (link, one-click or by replying so).'),
          meetings_booked: Count('Meetings booked through the calendar link.'),
        },
        { additionalProperties: false },
      ),
      rates: CasedObject(
        casing,
        {
          delivery_rate: Fraction(`delivered / ${name('emails_sent')}`),
          open_rate: Fraction('opened / delivered'),
          click_rate: Fraction('clicked / delivered'),
          reply_rate: Fraction('replied / delivered'),
          conversion_rate: Fraction(`${name('meetings_booked')} / delivered`),
        },
        { additionalProperties: false, description: 'Fractions in [0, 1], rounded to 4 decimals; 0 when the denominator is 0.' },
      ),
      costs: CasedObject(
        casing,
        {
          ...({ [total]: Usd('Everything recorded for the campaign: AI writing and qualification with the account\'s own keys, lead enrichment, sending.') } as Record<typeof total, TNumber>),
          breakdown: CasedObject(
            casing,
            {
              ai_generation: Usd('Writing emails and qualifying replies with the account\'s LLM key.'),
              lead_enrichment: Usd('Leads revealed through the lead provider.'),
              email_sending: Usd('Emails sent.'),
            },
            { additionalProperties: false },
          ),
        },
        { additionalProperties: false, description: 'USD, rounded to 6 decimals.' },
      ),
    },
    { additionalProperties: false },
  );
}

/** The answer of a pause, stop or resume: the campaign's new status and when it took effect, as `at`. */
export function ControlResponse<C extends Casing, At extends string>(casing: C, at: At) {
  return CasedObject(casing, { id: Type.String(), status: CampaignStatus, ...({ [at]: Timestamp } as Record<At, typeof Timestamp>) }, { additionalProperties: false });
}

// --- the audience (create bodies and campaign responses of both surfaces) ---

/** Bounds of a create request's `audience`: values per list, characters per value, employees. */
export const AUDIENCE_BOUNDS = { maxItems: 50, maxLength: 200, maxEmployees: 10_000_000 } as const;

/**
 * The audience's free text (`target_audience`, `targetAudience`): longer than
 * MAX_AUDIENCE_TEXT_LENGTH is a 400.
 */
export const AudienceText = (description: string) => Type.String({ maxLength: MAX_AUDIENCE_TEXT_LENGTH, description });

/**
 * AudienceFilters in `casing`. Bounded (a create body): every value is non-blank text of at most
 * AUDIENCE_BOUNDS.maxLength characters, every list at most AUDIENCE_BOUNDS.maxItems values, an
 * unknown member or seniority is a 400 naming it. Unbounded (a response): the same members, as
 * stored (the parser's filters can be longer).
 */
export function AudienceFiltersSchema<C extends Casing>(casing: C, bounded: boolean) {
  const Value = (description?: string) =>
    bounded
      ? Type.String({ minLength: 1, maxLength: AUDIENCE_BOUNDS.maxLength, pattern: NOT_BLANK, ...(description === undefined ? {} : { description }) })
      : Type.String(description === undefined ? {} : { description });
  const List = <T extends TSchema>(item: T, description?: string) =>
    Type.Optional(Type.Array(item, { ...(bounded ? { maxItems: AUDIENCE_BOUNDS.maxItems } : {}), ...(description === undefined ? {} : { description }) }));
  const Employees = Type.Optional(Type.Integer({ minimum: 0, ...(bounded ? { maximum: AUDIENCE_BOUNDS.maxEmployees } : {}) }));
  return CasedObject(
    casing,
    {
      titles: List(Value(), 'Job titles as written ("CTO", "VP of Engineering"), matched with their synonyms.'),
      seniorities: List(StringEnum(SENIORITIES), `Seniority levels, highest first: ${SENIORITIES.join(', ')}.`),
      seniority_min: Type.Optional(
        StringEnum(SENIORITIES, {
          description:
            'The lowest level taken: "vp" is VP-level and above (vp, c_level), "director" every leader (director, head, vp, c_level). With seniority_max, a range; one filter with seniorities (a lead in either is in).',
        }),
      ),
      seniority_max: Type.Optional(
        StringEnum(SENIORITIES, { description: 'The highest level taken ("manager": manager, senior, entry). seniority_min must not be above seniority_max.' }),
      ),
      departments: List(
        Value(),
        `Functions, by department id (${DEPARTMENT_IDS.join(', ')}) or any word for one ("HR", "Finanzen"). Separate from the level: "finance leaders" is departments ["finance"] with seniority_min "director".`,
      ),
      locations: List(Value(), 'Countries (name in English or its own language, or ISO code), regions (DACH, Nordics, EU, EMEA, West Coast), US states and Canadian provinces ("Texas", "ON", "US-CA") or cities ("Munich", "München", "Munich, DE").'),
      industries: List(Value(), 'Industries by id, name or synonym ("fintech", "SaaS"); an umbrella takes what it covers ("e-commerce": online and mail-order retail; "healthcare": hospitals, clinics, medical devices, ...).'),
      company_sizes: List(
        Type.Object({ min: Employees, max: Employees }, { additionalProperties: false, minProperties: 1, description: 'Employees, both ends inclusive; an open end is left out.' }),
      ),
      keywords: List(Value(), 'Words the lead\'s title, company or industry must contain.'),
      // The same name on both surfaces: its keys are the leads' custom field names, never cased.
      custom: Type.Optional(
        customFilterSchema(
          bounded,
          "The lead's custom fields (the columns of its import that are no lead field, by normalised name: lower case, a-z, 0-9 and _, at most 40 characters): " +
            'name to values, e.g. {"plan": ["Pro", "Enterprise"]}. The lead\'s field must equal one of the values (spaces around them and case ignored); ' +
            `names combine with AND. At most ${MAX_CUSTOM_FILTER_NAMES} names, 1 to 50 values each.`,
        ),
      ),
      exclude: Type.Optional(
        Type.Object(
          {
            titles: List(Value()),
            companies: List(Value(), 'Company names (case and spacing ignored).'),
            domains: List(Value(), 'Email or company domains (acme.com also excludes eu.acme.com).'),
            emails: List(Value()),
            industries: List(Value()),
            custom: Type.Optional(
              customFilterSchema(bounded, 'Custom field name to values: a lead whose field equals one of them is left out; a lead without the field is not.'),
            ),
          },
          { additionalProperties: false, ...dottedCustomMembers(bounded), description: 'Leads matching any of these are never emailed.' },
        ),
      ),
    },
    {
      additionalProperties: false,
      ...(bounded ? dottedCustomMembers(true) : {}),
      description:
        'Members combine with AND, values within a member with OR. Filters that name nobody (an empty object) match no lead. A custom field may also be named as a member of its own, `"custom.plan": ["Pro"]`, as templates name it; it is stored (and shown) in `custom`.',
    },
  );
}

/** The audience shown with a campaign (create answers, GET, lists). */
export function AudienceView<C extends Casing>(casing: C) {
  return CasedObject(
    casing,
    {
      text: Nullable(Type.String(), 'The audience as written (target_audience); kept, but the filters choose when both were given.'),
      filters: Nullable(AudienceFiltersSchema(casing, false), 'The filters the campaign emails; null for all_leads.'),
      source: StringEnum(AUDIENCE_SOURCES, {
        description:
          'explicit: the filters given; parser: read from the text by the built-in parser; llm: read from the text by the LLM of the account (structured output, validated); all_leads: neither was given, every reachable lead of the account.',
      }),
      matched_leads: Nullable(Count(), 'Reachable leads of the account matching the audience: counted at create and after each planning of leads; null before the first count.'),
      reason: Nullable(Type.String(), 'Why no lead matches (null when some do).'),
    },
    { additionalProperties: false },
  );
}

// --- lead control (issue 27): the campaign's sources and settings, its leads' states ---

/** Most lead lists one campaign takes its candidates from. */
export const MAX_CAMPAIGN_LEAD_LISTS = 50;

/**
 * The create body's lead-control members in `casing`, spread into each surface's create body
 * (`...LeadControlBody('snake').properties`).
 */
export function LeadControlBody<C extends Casing>(casing: C) {
  return CasedObject(casing, {
    lead_list_ids: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
        maxItems: MAX_CAMPAIGN_LEAD_LISTS,
        description: `Lead lists of the account (at most ${MAX_CAMPAIGN_LEAD_LISTS}) whose leads are the campaign's candidates, narrowed by the audience when one is given. An id that is no list of the account is a 400 naming it, and nothing is created.`,
      }),
    ),
    allow_duplicate_leads: Type.Optional(
      Type.Boolean({ description: 'Take leads already in an active sequence of another campaign of the account (default false: they are skipped, reason "in another campaign (<name>)").' }),
    ),
    stop_company_on_reply: Type.Optional(
      Type.Boolean({ description: 'When a lead replies positively or books a meeting, stop the other leads of the same company in this campaign (default true).' }),
    ),
    max_first_emails_per_domain_per_day: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 1000, description: 'At most this many first emails per company domain per sending day; absent: no cap.' }),
    ),
    skip_risky_leads: Type.Optional(Type.Boolean({ description: 'Skip leads whose address verification is risky (default false; invalid addresses are always skipped).' })),
  });
}

/** The lead-control settings a campaign shows, members of its GET (spread like LeadControlBody). */
export function LeadControlView<C extends Casing>(casing: C) {
  return CasedObject(casing, {
    allow_duplicate_leads: Type.Boolean({ description: 'Leads in an active sequence of another campaign are taken too.' }),
    stop_company_on_reply: Type.Boolean({ description: 'A positive reply or a booked meeting stops the other leads of the same company in this campaign.' }),
    max_first_emails_per_domain_per_day: Nullable(Type.Integer({ minimum: 1 }), 'Cap of first emails per company domain per sending day; null: none.'),
    skip_risky_leads: Type.Boolean({ description: 'Leads whose address verification is risky are skipped.' }),
  });
}

/** Where a campaign's candidates come from, as its GET shows it. */
export function SourcesView<C extends Casing>(casing: C) {
  return CasedObject(
    casing,
    {
      lead_list_ids: Type.Array(
        Type.Object({ id: Type.String(), name: Nullable(Type.String(), 'Null when the list has since been deleted.') }, { additionalProperties: false }),
        { description: 'The lead lists named at create, in that order; empty: the candidates are the account\'s leads (or the lead provider\'s) matching the audience.' },
      ),
      audience: AudienceView(casing),
      matched_leads: Nullable(Count(), 'Reachable leads of the sources matching the audience, counted at create and after each planning; null before the first count.'),
    },
    { additionalProperties: false },
  );
}

/** A campaign's leads counted by enrolment state, and in all (GET of a campaign, the page of its leads). */
export function EnrolmentCounts<C extends Casing>(casing: C, description: string) {
  return CasedObject(
    casing,
    {
      queued: Count('Enrolled, first email still to go.'),
      in_sequence: Count('At least one step sent, the next one due.'),
      replied: Count(),
      meeting_booked: Count(),
      bounced: Count(),
      unsubscribed: Count(),
      finished: Count('Every step sent, or stopped for a colleague\'s answer.'),
      removed: Count('Taken out by the user (or marked, blocklisted or erased).'),
      skipped: Count('Never started, each with its reason.'),
      total: Count('Every lead the campaign has enrolled or skipped.'),
    },
    { additionalProperties: false, description },
  );
}

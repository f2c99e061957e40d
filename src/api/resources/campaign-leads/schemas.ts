import { Type } from '@sinclair/typebox';
import { ENROLMENT_STATES } from '../../../campaigns/enrolment/states';
import { FIELD_LIMITS } from '../../../leads/fields';
import { Timestamp } from '../../http/common-schemas';
import { CasedObject, type Casing } from '../campaigns/casing';
import { Count, EnrolmentCounts, Nullable } from '../campaigns/schemas';
import { StringEnum } from '../string-enum';
import { MAX_ENROL_PER_CALL } from '../../../campaigns/control/enrol-by-hand';

/** Most leads one page of a campaign's leads holds. */
export const MAX_LEADS_PER_PAGE = 500;

export const CampaignLeadParams = Type.Object(
  { id: Type.String({ minLength: 1, maxLength: 100 }), leadId: Type.String({ minLength: 1, maxLength: 100 }) },
  { additionalProperties: false },
);

/** The schemas whose member names differ by surface, built once per casing. */
function surfaceSchemas<C extends Casing>(casing: C) {
  const EnrolBody = CasedObject(
    casing,
    {
      lead_ids: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: MAX_ENROL_PER_CALL, description: 'Ids of leads of the account.' })),
      emails: Type.Optional(
        Type.Array(Type.String({ minLength: 1, maxLength: FIELD_LIMITS.email }), { maxItems: MAX_ENROL_PER_CALL, description: 'Addresses of leads of the account (case ignored).' }),
      ),
    },
    { additionalProperties: false, description: `Leads by id, by address, or both: at least one, at most ${MAX_ENROL_PER_CALL} in all per call.` },
  );
  const EnrolResult = CasedObject(
    casing,
    {
      added: Count('Leads queued now: their first email goes on the campaign\'s next sending day.'),
      skipped: Type.Record(Type.String(), Type.Integer({ minimum: 1 }), {
        description: 'Leads enrolled as skipped, counted by reason ("in another campaign (<name>)", "blocklisted", "suppressed", "invalid address", "risky address", "marked by the user").',
      }),
      already_enrolled: Count('Leads the campaign already had, left as they are (a lead removed or skipped before is checked again instead).'),
      not_found: Type.Array(Type.String(), { description: 'Ids and addresses that name no lead of the account, as given.' }),
    },
    { additionalProperties: false },
  );
  const LeadsQuery = CasedObject(
    casing,
    {
      state: Type.Optional(StringEnum(ENROLMENT_STATES, { description: 'Only leads in this state.' })),
      page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1, description: 'Page number, from 1.' })),
      per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_LEADS_PER_PAGE, default: 50, description: `Leads per page, at most ${MAX_LEADS_PER_PAGE}.` })),
    },
    { additionalProperties: false },
  );
  const EnrolledLead = CasedObject(
    casing,
    {
      id: Type.String({ description: 'The lead\'s id.' }),
      email: Type.String(),
      name: Nullable(Type.String()),
      company: Nullable(Type.String()),
      state: StringEnum(ENROLMENT_STATES),
      step: Nullable(Type.Integer({ minimum: 1 }), 'The last step sent (1 = the first email); null before the first.'),
      next_send_date: Nullable(Type.String({ format: 'date' }), 'The day the next step is due on or after, in the zone the lead is written in (shown beside it); null once the sequence has ended.'),
      reason: Nullable(Type.String(), 'Why: always set for skipped and removed, and for a sequence stopped early.'),
      detail: Nullable(Type.Record(Type.String(), Type.Unknown()), 'What the reason names (the other campaign, the cause of a suppression, ...).'),
      source: StringEnum(['audience', 'list', 'manual', 'workflow'] as const, { description: 'How the lead came in: the audience, a lead list, by hand, or a workflow\'s earlier record.' }),
      verification: Nullable(Type.String(), 'The address\'s last verification: valid, risky, invalid or unknown; null: never checked.'),
      time_zone: Type.String({
        description: 'The IANA zone the lead is written in: their own (schedule.timezone "lead") when their city or country gives one, else the campaign\'s.',
      }),
      time_zone_source: StringEnum(['city', 'country', 'campaign'] as const, {
        description: 'Where that zone comes from: the lead\'s city, their country\'s main zone, or the campaign (its zone is used for every lead unless it sends in each lead\'s hours, and for leads whose zone is not known).',
      }),
      enrolled_at: Timestamp,
      updated_at: Timestamp,
    },
    { additionalProperties: false },
  );
  const Pagination = CasedObject(
    casing,
    { total: Count('Leads matching the filter, on every page.'), page: Type.Integer({ minimum: 1 }), per_page: Type.Integer({ minimum: 1 }) },
    { additionalProperties: false },
  );
  const LeadsPage = CasedObject(
    casing,
    {
      campaign_id: Type.String(),
      leads: Type.Array(EnrolledLead, { description: 'Oldest enrolment first.' }),
      counts: EnrolmentCounts(casing, 'The campaign\'s leads by state, whatever the filter.'),
      pagination: Pagination,
    },
    { additionalProperties: false },
  );
  return { EnrolBody, EnrolResult, LeadsQuery, EnrolledLead, LeadsPage };
}

export const A = surfaceSchemas('snake');
export const B = surfaceSchemas('camel');

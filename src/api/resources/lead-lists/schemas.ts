import { Type } from '@sinclair/typebox';
import { MAX_MEMBERS_PER_CALL } from '../../../leads/lists/add-members';
import { FIELD_LIMITS } from '../../../leads/fields';
import { NOT_BLANK, Timestamp } from '../../http/common-schemas';
import { CasedObject, type Casing } from '../campaigns/casing';
import { Lead } from '../leads/schemas';

/** Longest list name: room for a descriptive name, not for a document. */
export const MAX_LIST_NAME_LENGTH = 200;

const Name = Type.String({
  minLength: 1,
  maxLength: MAX_LIST_NAME_LENGTH,
  pattern: NOT_BLANK,
  description: `The list's name, unique in the account whatever its case; trimmed; at most ${MAX_LIST_NAME_LENGTH} characters.`,
});

export const ListNameBody = Type.Object({ name: Name }, { additionalProperties: false });

export const ListIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) }, { additionalProperties: false });

export const ListMemberParams = Type.Object(
  { id: Type.String({ minLength: 1, maxLength: 100 }), leadId: Type.String({ minLength: 1, maxLength: 100 }) },
  { additionalProperties: false },
);

/** The schemas whose member names differ by surface, built once per casing. */
function surfaceSchemas<C extends Casing>(casing: C) {
  const LeadList = CasedObject(
    casing,
    {
      id: Type.String(),
      name: Type.String(),
      lead_count: Type.Integer({ minimum: 0, description: 'Leads in the list.' }),
      created_at: Timestamp,
      updated_at: Timestamp,
    },
    { additionalProperties: false },
  );
  const Pagination = CasedObject(
    casing,
    { page: Type.Integer({ minimum: 1 }), per_page: Type.Integer({ minimum: 1 }), total: Type.Integer({ minimum: 0 }) },
    { additionalProperties: false },
  );
  const PageQuery = CasedObject(
    casing,
    {
      page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1, description: 'Page number, from 1.' })),
      per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'Items per page, at most 100.' })),
    },
    { additionalProperties: false },
  );
  const AddMembersBody = CasedObject(
    casing,
    {
      lead_ids: Type.Optional(
        Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: MAX_MEMBERS_PER_CALL, description: 'Ids of leads of the account.' }),
      ),
      emails: Type.Optional(
        Type.Array(Type.String({ minLength: 1, maxLength: FIELD_LIMITS.email }), {
          maxItems: MAX_MEMBERS_PER_CALL,
          description: 'Addresses of leads of the account (case ignored).',
        }),
      ),
    },
    {
      additionalProperties: false,
      description: `Leads by id, by address, or both: at least one, at most ${MAX_MEMBERS_PER_CALL} in all per call.`,
    },
  );
  const AddMembersResult = CasedObject(
    casing,
    {
      added: Type.Integer({ minimum: 0, description: 'Leads added to the list.' }),
      already_in_list: Type.Integer({ minimum: 0, description: 'Leads named that the list already held.' }),
      not_found: CasedObject(
        casing,
        {
          lead_ids: Type.Array(Type.String(), { description: 'Ids of no lead of the account, as given.' }),
          emails: Type.Array(Type.String(), { description: 'Addresses of no lead of the account, as given.' }),
        },
        { additionalProperties: false },
      ),
    },
    { additionalProperties: false },
  );
  const LeadListPage = CasedObject(casing, { lead_lists: Type.Array(LeadList), pagination: Pagination }, { additionalProperties: false });
  return { LeadList, Pagination, PageQuery, AddMembersBody, AddMembersResult, LeadListPage };
}

export const B = surfaceSchemas('camel');
export const A = surfaceSchemas('snake');

/** A list's lead on Surface B: the lead as GET /v1/leads/:id shows it, and when it was added. */
export const ListMemberB = Type.Composite([Lead, Type.Object({ addedAt: Timestamp })], { additionalProperties: false });
export const ListMembersPageB = Type.Object({ leads: Type.Array(ListMemberB), pagination: B.Pagination }, { additionalProperties: false });

const Text = Type.Union([Type.String(), Type.Null()]);

/** A list's lead on Surface A, snake_case (Surface A has no lead resource of its own to mirror). */
export const ListMemberA = Type.Object(
  {
    id: Type.String(),
    email: Type.String(),
    first_name: Text,
    last_name: Text,
    name: Text,
    title: Text,
    company: Text,
    company_domain: Text,
    industry: Text,
    city: Text,
    state: Text,
    country: Text,
    linkedin_url: Text,
    phone: Text,
    custom_fields: Type.Record(Type.String(), Type.String()),
    source: Type.String(),
    created_at: Timestamp,
    added_at: Timestamp,
  },
  { additionalProperties: false },
);
export const ListMembersPageA = Type.Object({ leads: Type.Array(ListMemberA), pagination: A.Pagination }, { additionalProperties: false });

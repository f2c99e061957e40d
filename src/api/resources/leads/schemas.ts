import { Type } from '@sinclair/typebox';
import { CUSTOM_FIELD_NAME_PATTERN, MAX_CUSTOM_FIELDS_PER_IMPORT } from '../../../leads/custom-fields';
import { FIELD_LIMITS } from '../../../leads/fields';
import { Timestamp } from '../../http/common-schemas';
import { VERDICTS } from '../../../leads/verification/types';
import { StringEnum } from '../string-enum';

const Text = Type.Union([Type.String(), Type.Null()]);

const Check = (what: string) =>
  Type.Object(
    {
      result: StringEnum(['pass', 'fail', 'warn', 'unknown'] as const, { description: 'pass; fail (cannot receive mail); warn (risky); unknown (could not tell, or not checked).' }),
      detail: Type.String({ description: 'Why, in a few words.' }),
    },
    { additionalProperties: false, description: what },
  );

export const LeadVerification = Type.Object(
  {
    status: Type.Union([StringEnum(VERDICTS), Type.Null()], {
      description:
        'invalid: malformed, or its domain takes no mail (campaigns never send to it); risky: a role address or a disposable domain; ' +
        'unknown: DNS could not tell (sent to); valid: every check passed; null: never checked.',
    }),
    checkedAt: Type.Union([Timestamp, Type.Null()], { description: 'When the checks ran; null when never checked.' }),
    checks: Type.Union(
      [
        Type.Object(
          {
            syntax: Check('RFC 5322 syntax: one mailbox, no display name, a domain name with a dot.'),
            role: Check('A role address (info@, sales@, ...): warn.'),
            disposable: Check('A disposable-address domain (the mailchecker list): warn.'),
            mailDomain: Check('MX records of the domain, or an A/AAAA record (implicit MX); a null MX fails; a DNS timeout is unknown.'),
          },
          { additionalProperties: false },
        ),
        Type.Null(),
      ],
      { description: 'Each check with its result; null when never checked.' },
    ),
  },
  { additionalProperties: false, description: "The address's last verification (docs/verification.md)." },
);

export const Lead = Type.Object(
  {
    id: Type.String(),
    email: Type.String({ format: 'email' }),
    firstName: Text,
    lastName: Text,
    name: Type.Union([Type.String(), Type.Null()], { description: 'First and last name together.' }),
    title: Text,
    company: Text,
    companyDomain: Type.Union([Type.String(), Type.Null()], { description: 'Bare domain, e.g. acme.com.' }),
    industry: Text,
    city: Text,
    state: Text,
    country: Text,
    linkedinUrl: Text,
    phone: Text,
    customFields: Type.Record(Type.String({ pattern: CUSTOM_FIELD_NAME_PATTERN }), Type.String(), {
      additionalProperties: false,
      description:
        'The columns of its import that are no lead field, by normalised name (lower case, a-z, 0-9 and _, at most 40 characters): ' +
        '"Favourite Colour" is favourite_colour. Text values; a field the lead has no value for is absent; {} when it has none.',
    }),
    source: Type.Union([Type.Literal('import'), Type.Literal('provider'), Type.Literal('api')], {
      description: 'How the lead entered the store: a CSV import, the lead provider (Apollo), or the API.',
    }),
    createdAt: Timestamp,
    verification: LeadVerification,
    status: Type.Union([Type.Literal('interested'), Type.Literal('not_interested'), Type.Literal('do_not_contact'), Type.Null()], {
      description: 'What the user decided about the person (PATCH /v1/leads/:id); null when nothing was set.',
    }),
  },
  { additionalProperties: false },
);

const LeadPagination = Type.Object(
  { page: Type.Integer({ minimum: 1 }), perPage: Type.Integer({ minimum: 1 }), total: Type.Integer({ minimum: 0 }) },
  { additionalProperties: false },
);

export const LeadListQuery = Type.Object(
  {
    page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1, description: 'Page number, from 1.' })),
    perPage: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'Leads per page, at most 100 (default 20).' })),
    per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'Same as perPage (the name the other list endpoints use).' })),
  },
  { additionalProperties: false },
);

export const LeadListResponse = Type.Object({ leads: Type.Array(Lead), pagination: LeadPagination }, { additionalProperties: false });

export const LeadImportQuery = Type.Object(
  {
    list_id: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: "Add the file's leads (new and duplicates) to this lead list of the account." })),
    listId: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Same as list_id.' })),
  },
  { additionalProperties: false },
);

export const LeadIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) }, { additionalProperties: false });

const Terms = (what: string) =>
  Type.Optional(
    Type.Array(Type.String({ minLength: 1, maxLength: 200 }), {
      maxItems: 50,
      description: `${what} Any term may match (case-insensitive); every filter given must match.`,
    }),
  );

export const LeadSearchBody = Type.Object(
  {
    person_titles: Terms(
      'Job titles, matched with their synonyms ("CTO" finds "Chief Technology Officer") or by seniority and department ("marketing directors"); ' +
        'a title no vocabulary knows must appear as words in the title, company or industry.',
    ),
    organization_locations: Terms('Places: countries (name or ISO code), regions ("DACH", "Nordics", "EMEA") or cities.'),
    organization_industries: Terms('Industries, by name or synonym ("fintech", "SaaS").'),
    per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'Leads per page, at most 100.' })),
    page: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 1, description: 'Page number, from 1 (Apollo serves at most 500 pages).' })),
  },
  { additionalProperties: false },
);

export const LeadSearchResponse = Type.Object(
  {
    leads: Type.Array(Lead),
    pagination: LeadPagination,
    source: Type.Union([Type.Literal('leads_store'), Type.Literal('apollo')], {
      description: "Where the leads came from: the account's stored leads, or Apollo with the account's own key.",
    }),
  },
  { additionalProperties: false },
);

export const LeadEnrichBody = Type.Object(
  {
    email: Type.Optional(Type.String({ minLength: 3, maxLength: FIELD_LIMITS.email })),
    firstName: Type.Optional(Type.String({ minLength: 1, maxLength: FIELD_LIMITS.firstName })),
    lastName: Type.Optional(Type.String({ minLength: 1, maxLength: FIELD_LIMITS.lastName })),
    domain: Type.Optional(Type.String({ minLength: 1, maxLength: FIELD_LIMITS.companyDomain, description: 'Company domain or website.' })),
    linkedinUrl: Type.Optional(Type.String({ minLength: 1, maxLength: FIELD_LIMITS.linkedinUrl })),
  },
  {
    additionalProperties: false,
    description: 'Exactly one of: {email}, {firstName, lastName, domain} or {linkedinUrl}.',
  },
);

export const LeadImportResult = Type.Object(
  {
    total: Type.Integer({ minimum: 0, description: 'Data rows read (blank lines are not rows).' }),
    imported: Type.Integer({ minimum: 0 }),
    duplicates: Type.Integer({ minimum: 0, description: 'Rows whose address the account already had, or that appeared earlier in the file.' }),
    suppressed: Type.Integer({ minimum: 0, description: "Rows whose address is on the account's suppression list." }),
    invalid: Type.Integer({ minimum: 0, description: 'Rows skipped as unreadable or invalid (all of them, even beyond the listed errors).' }),
    verification: Type.Object(
      { valid: Type.Integer({ minimum: 0 }), risky: Type.Integer({ minimum: 0 }), invalid: Type.Integer({ minimum: 0 }), unknown: Type.Integer({ minimum: 0 }) },
      { additionalProperties: false, description: 'The imported (new) leads by verification verdict; duplicates keep their stored verification.' },
    ),
    addedToList: Type.Optional(Type.Integer({ minimum: 0, description: 'With list_id: leads of the file added to the list (those already in it are not counted).' })),
    errors: Type.Array(Type.Object({ line: Type.Integer({ minimum: 1 }), error: Type.String() }, { additionalProperties: false }), {
      maxItems: 100,
      description: 'The first 100 invalid rows: the line each starts on (the header is line 1) and why it was skipped.',
    }),
    columns: Type.Object(
      {
        used: Type.Array(Type.String(), { description: 'Header names the import read into lead fields, in header order.' }),
        custom: Type.Array(
          Type.Object(
            {
              column: Type.String({ description: 'The header as written.' }),
              field: Type.String({ pattern: CUSTOM_FIELD_NAME_PATTERN, description: "The custom field's normalised name." }),
            },
            { additionalProperties: false },
          ),
          {
            maxItems: MAX_CUSTOM_FIELDS_PER_IMPORT,
            description: `Header names kept as custom fields of each lead, in header order, at most ${MAX_CUSTOM_FIELDS_PER_IMPORT}.`,
          },
        ),
        ignored: Type.Array(Type.String(), {
          description: `Header names that fed nothing: no letter a-z or digit to name a custom field by (accents folded), or past the ${MAX_CUSTOM_FIELDS_PER_IMPORT} custom fields an import keeps.`,
        }),
      },
      { additionalProperties: false, description: "Which of the header's columns fed lead fields, which became custom fields, and which fed nothing." },
    ),
  },
  { additionalProperties: false },
);

export const LEAD_EXPORT_FORMATS = ['csv', 'json'] as const;

export const LeadExportQuery = Type.Object(
  { format: Type.Optional(StringEnum(LEAD_EXPORT_FORMATS, { default: 'csv', description: 'csv (default) or json.' })) },
  { additionalProperties: false },
);

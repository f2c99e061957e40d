import { Type } from '@sinclair/typebox';
import { MAX_CUSTOM_FIELD_VALUE_LENGTH, type EditableField } from '../../../leads/edit-lead';
import { MAX_CUSTOM_FIELDS_PER_IMPORT } from '../../../leads/custom-fields';
import { FIELD_LIMITS } from '../../../leads/fields';
import { USER_STATUSES } from '../../../leads/lead-status';
import { Lead } from './schemas';

const Status = Type.Unsafe<(typeof USER_STATUSES)[number] | null>({
  type: ['string', 'null'],
  enum: [...USER_STATUSES, null],
  description:
    'What you decided about the person: interested, not_interested or do_not_contact; null clears it. Any status ends the lead\'s queued and ' +
    'running sequences in every campaign; do_not_contact also adds the address to the blocklist. Clearing ends and unblocks nothing.',
});

/** An editable field: text within the import's limit, or null (or blank) to clear it. */
const Field = (f: EditableField) => Type.Optional(Type.Union([Type.String({ maxLength: FIELD_LIMITS[f] }), Type.Null()]));

export const LeadEditBody = Type.Object(
  {
    status: Type.Optional(Status),
    firstName: Field('firstName'),
    lastName: Field('lastName'),
    title: Field('title'),
    company: Field('company'),
    companyDomain: Field('companyDomain'),
    industry: Field('industry'),
    city: Field('city'),
    state: Field('state'),
    country: Field('country'),
    linkedinUrl: Field('linkedinUrl'),
    phone: Field('phone'),
    seniority: Field('seniority'),
    department: Field('department'),
    companySize: Field('companySize'),
    customFields: Type.Optional(
      Type.Record(Type.String(), Type.Union([Type.String({ maxLength: MAX_CUSTOM_FIELD_VALUE_LENGTH }), Type.Null()]), {
        maxProperties: MAX_CUSTOM_FIELDS_PER_IMPORT,
        description:
          'Merged into the lead\'s custom fields: a value sets the field, null (or blank) removes it, fields not named stay. Names are as imports ' +
          `give them: lower-case a-z, 0-9 and _, starting with a letter, at most 40 characters; at most ${MAX_CUSTOM_FIELDS_PER_IMPORT} per lead.`,
      }),
    ),
    email: Type.Optional(Type.Unknown({ description: 'Refused (400): the address is the lead\'s identity; import a new lead instead.' })),
  },
  {
    additionalProperties: false,
    description: 'At least one member. Values are checked as an import checks them (a domain, a LinkedIn profile URL, a phone number).',
  },
);

/** The lead after a change, as GET shows it (its `status` included). */
export const LeadWithStatus = Lead;

import { Type } from '@sinclair/typebox';
import { STEP_MODES, VARIANT_IDS } from '../../../campaigns/model/sequence';
import { FIELD_LIMITS } from '../../../leads/fields';
import { CUSTOM_FIELD_NAME_PATTERN } from '../../../leads/custom-fields';
import { SequenceBody, TrackingBody } from '../campaigns/sequence-schemas';
import { Nullable, SiteUrl } from '../campaigns/schemas';
import { StringEnum } from '../string-enum';

/** The previews: POST /v1/sequences/preview and POST /v1/campaigns/{id}/preview (Surface B, camelCase). */

const Field = (max: number) => Type.Optional(Nullable(Type.String({ maxLength: max })));

/** Lead fields typed in, for a preview without a stored lead. */
const PreviewLeadFields = Type.Object(
  {
    email: Type.String({ format: 'email', maxLength: FIELD_LIMITS.email }),
    firstName: Field(FIELD_LIMITS.firstName),
    lastName: Field(FIELD_LIMITS.lastName),
    title: Field(FIELD_LIMITS.title),
    company: Field(FIELD_LIMITS.company),
    companyDomain: Field(FIELD_LIMITS.companyDomain),
    industry: Field(FIELD_LIMITS.industry),
    city: Field(FIELD_LIMITS.city),
    state: Field(FIELD_LIMITS.state),
    country: Field(FIELD_LIMITS.country),
    linkedinUrl: Field(FIELD_LIMITS.linkedinUrl),
    phone: Field(FIELD_LIMITS.phone),
    customFields: Type.Optional(
      Type.Record(Type.String({ pattern: CUSTOM_FIELD_NAME_PATTERN }), Type.String({ maxLength: 10_000 }), {
        maxProperties: 200,
        description: 'Custom fields by their normalised name ({{ custom.<name> }}).',
      }),
    ),
  },
  { additionalProperties: false, description: 'A lead as its fields, when it is not one of the account\'s leads (yet).' },
);

const SpamCheck = Type.Optional(Type.Boolean({ description: 'Score each step with SpamAssassin where the host has it (default true; a second or two per step).' }));

export const SequencePreviewBody = Type.Object(
  {
    sequence: SequenceBody('camel'),
    leadId: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'One of the account\'s leads; or give `lead`.' })),
    lead: Type.Optional(PreviewLeadFields),
    mcp: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'The template whose voice the built-in writer uses (default sales_outreach).' })),
    brandUrl: Type.Optional(SiteUrl('The site the campaign would speak for (its scrape by this account is used when there is one).')),
    targetAudience: Type.Optional(Type.String({ maxLength: 2000 })),
    targetOutcome: Type.Optional(Type.String({ maxLength: 2000 })),
    valueForTarget: Type.Optional(Type.String({ maxLength: 2000 })),
    calendarLink: Type.Optional(Type.String({ format: 'uri', maxLength: 2048 })),
    tracking: Type.Optional(TrackingBody('camel')),
    plainTextOnly: Type.Optional(Type.Boolean()),
    spamCheck: SpamCheck,
  },
  { additionalProperties: false },
);

export const CampaignPreviewBody = Type.Object(
  { leadId: Type.String({ minLength: 1, maxLength: 100, description: 'One of the account\'s leads.' }), spamCheck: SpamCheck },
  { additionalProperties: false },
);

const SpamView = Type.Object(
  {
    status: StringEnum(['checked', 'unavailable', 'off', 'failed'] as const, {
      description: 'checked: scored by SpamAssassin (local rules only); unavailable: not installed on this host; off: not asked for; failed: the check itself failed (see reason).',
    }),
    score: Nullable(Type.Number(), 'SpamAssassin\'s score (spam from `required` up); null unless checked.'),
    required: Nullable(Type.Number()),
    rules: Type.Array(
      Type.Object({ name: Type.String(), score: Type.Number(), description: Type.String() }, { additionalProperties: false }),
      { description: 'The rules that fired, highest score first.' },
    ),
    reason: Nullable(Type.String(), 'Why it was not checked.'),
  },
  { additionalProperties: false },
);

export const PreviewResponse = Type.Object(
  {
    lead: Type.Object({ id: Nullable(Type.String()), email: Type.String() }, { additionalProperties: false }),
    steps: Type.Array(
      Type.Object(
        {
          step: Type.Integer({ minimum: 1 }),
          delayDays: Type.Integer({ minimum: 0 }),
          variant: StringEnum(VARIANT_IDS, { description: 'The variant this lead gets.' }),
          mode: StringEnum(STEP_MODES),
          writer: Nullable(StringEnum(['template', 'builtin', 'openai', 'anthropic'] as const), 'Who writes the content; null for a skipped step.'),
          skipped: Nullable(Type.String(), 'Why the step would be passed over for this lead; null when it would go out.'),
          subject: Nullable(Type.String()),
          text: Nullable(Type.String(), 'The text/plain part as sent (the unsubscribe line included).'),
          html: Nullable(Type.String(), 'The text/html part as sent (tracked links and open beacon included); null for plain text only or a skipped step.'),
          inReplyToStep: Nullable(Type.Integer({ minimum: 1 }), 'The step whose email this one replies to (In-Reply-To); null when it opens a thread.'),
          spam: Nullable(SpamView, 'Null for a skipped step.'),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

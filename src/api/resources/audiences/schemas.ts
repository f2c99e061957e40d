import { Type } from '@sinclair/typebox';
import { MAX_AUDIENCE_TEXT_LENGTH } from '../../../campaigns/audience/parse-text';
import { PREVIEW_LEAD_COUNT } from '../../../campaigns/audience/preview';
import { AudienceFiltersSchema, Count, Nullable } from '../campaigns/schemas';
import { Lead } from '../leads/schemas';
import { AUDIENCE_SOURCES } from '../../../campaigns/audience/types';
import { StringEnum } from '../string-enum';

/** POST /v1/audiences/preview: exactly one of text and filters (the handler refuses both or neither). */
export const AudiencePreviewBody = Type.Object(
  {
    text: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: MAX_AUDIENCE_TEXT_LENGTH,
        description: `The audience as written ("CTOs at fintechs in Germany"), read by the built-in parser; at most ${MAX_AUDIENCE_TEXT_LENGTH} characters.`,
      }),
    ),
    filters: Type.Optional(AudienceFiltersSchema('camel', true)),
    campaignId: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: "One of the account's campaigns: its stored audience." })),
    leadId: Type.Optional(
      Type.String({ minLength: 1, maxLength: 100, description: "One of the account's leads: the answer's `explanation` says, filter by filter, why it is in or out." }),
    ),
  },
  { additionalProperties: false, description: 'Exactly one of text, filters (the `audience` of POST /v1/campaigns) and campaignId; leadId optional.' },
);

const ExplanationCheck = Type.Object(
  {
    filter: StringEnum(['title', 'role', 'seniority', 'department', 'place', 'industry', 'companySize', 'keywords', 'custom', 'exclude'] as const, {
      description: 'The filter checked; `role` is a function and a level read from the same words ("finance leaders").',
    }),
    wanted: Type.String({ description: 'What the audience asks: the words of the text it was read from, or the filter and its values.' }),
    met: Type.Boolean(),
    lead: Type.String({ description: "What of the lead was read for it, field by field: \"title 'Leiterin Finanzen' -> finance, head\"." }),
    text: Type.String({ description: "The check in one sentence: \"title 'Leiterin Finanzen' -> finance, head: meets 'finance leaders'\"." }),
  },
  { additionalProperties: false },
);

const Explanation = Type.Object(
  {
    leadId: Type.String(),
    inAudience: Type.Boolean({ description: 'The audience takes this lead: it meets every filter, no exclusion applies, and it can be written to.' }),
    matchesFilters: Type.Boolean({ description: 'It meets every filter and no exclusion applies.' }),
    unreachable: Nullable(StringEnum(['bounced', 'unsubscribed', 'suppressed'] as const), 'Why the lead cannot be written to; null when it can.'),
    checks: Type.Array(ExplanationCheck, { description: 'One per filter, in the order the matcher applies them; exclusions last.' }),
    summary: Type.String({ description: 'In, or out and the first reason.' }),
  },
  { additionalProperties: false },
);

export const AudiencePreviewResponse = Type.Object(
  {
    filters: Nullable(AudienceFiltersSchema('camel', false), "The filters matched; null for a campaign whose audience is every lead (all_leads)."),
    source: StringEnum(AUDIENCE_SOURCES, {
      description: "parser: read from the text by the built-in parser; explicit: the filters given; for a campaign, its audience's source (llm, all_leads too).",
    }),
    unrecognised: Type.Array(Type.String(), {
      description: 'Words and values no vocabulary knows (kept as keywords, so they narrow the audience), and why it names nobody when it does.',
    }),
    matchedLeads: Count('Reachable leads of the account matching the audience (not bounced, unsubscribed or suppressed).'),
    leads: Type.Array(Lead, { maxItems: PREVIEW_LEAD_COUNT, description: `The first ${PREVIEW_LEAD_COUNT} matching reachable leads, in id order.` }),
    reason: Nullable(Type.String(), 'Why no lead matches (null when some do).'),
    explanation: Nullable(Explanation, 'Why the lead named by leadId is in or out; null when none was named.'),
  },
  { additionalProperties: false },
);

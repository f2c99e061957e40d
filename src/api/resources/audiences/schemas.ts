import { Type } from '@sinclair/typebox';
import { MAX_AUDIENCE_TEXT_LENGTH } from '../../../campaigns/audience/parse-text';
import { PREVIEW_LEAD_COUNT } from '../../../campaigns/audience/preview';
import { AudienceFiltersSchema, Count, Nullable } from '../campaigns/schemas';
import { Lead } from '../leads/schemas';
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
  },
  { additionalProperties: false, description: 'Exactly one of text and filters (the `audience` of POST /v1/campaigns).' },
);

export const AudiencePreviewResponse = Type.Object(
  {
    filters: AudienceFiltersSchema('camel', false),
    source: StringEnum(['parser', 'explicit'] as const, { description: 'parser: read from the text by the built-in parser; explicit: the filters given.' }),
    unrecognised: Type.Array(Type.String(), {
      description: 'Words and values no vocabulary knows (kept as keywords, so they narrow the audience), and why it names nobody when it does.',
    }),
    matchedLeads: Count('Reachable leads of the account matching the audience (not bounced, unsubscribed or suppressed).'),
    leads: Type.Array(Lead, { maxItems: PREVIEW_LEAD_COUNT, description: `The first ${PREVIEW_LEAD_COUNT} matching reachable leads, in id order.` }),
    reason: Nullable(Type.String(), 'Why no lead matches (null when some do).'),
  },
  { additionalProperties: false },
);

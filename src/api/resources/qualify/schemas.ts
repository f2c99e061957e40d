import { Type } from '@sinclair/typebox';
import { CATEGORIES, SENTIMENTS } from '../../../qualification/categories';
import { NEXT_ACTIONS } from '../../../qualification/next-actions';

/** The reply text a caller may send: 100 KB. Longer replies are quoted history, not more answer. */
export const MAX_BODY_TEXT_BYTES = 100 * 1024;

export const QualifyBody = Type.Object(
  {
    fromEmail: Type.Optional(Type.String({ format: 'email', maxLength: 320, description: 'Who wrote the reply.' })),
    toEmail: Type.Optional(Type.String({ format: 'email', maxLength: 320, description: 'The address the reply was sent to (yours).' })),
    subject: Type.Optional(Type.String({ maxLength: 1000, description: 'The reply subject.' })),
    bodyText: Type.String({
      minLength: 1,
      maxLength: MAX_BODY_TEXT_BYTES,
      description: 'The plain-text body, at most 100 KB (UTF-8). Quoted history below the reply may be left in: it is ignored.',
    }),
  },
  { additionalProperties: false },
);

export const QualifyResponse = Type.Object(
  {
    category: Type.Union(
      CATEGORIES.map((c) => Type.Literal(c)),
      { description: 'interested, meeting_booked, closed, neutral, not_interested, out_of_office or unsubscribe.' },
    ),
    sentiment: Type.Union(
      SENTIMENTS.map((s) => Type.Literal(s)),
      { description: 'Follows from the category: interested, meeting_booked, closed positive; neutral, out_of_office neutral; not_interested, unsubscribe negative.' },
    ),
    confidence: Type.Number({ minimum: 0, maximum: 1, description: 'How sure the classifier is.' }),
    nextAction: Type.String({
      pattern: '^[a-z_]+(:\\S+)?$',
      description: `A suggested next step: one of ${NEXT_ACTIONS.join(', ')}, optionally followed by ":" and an argument (follow_up_after:2026-12-07, contact_referral:jane@example.com, follow_up_later:2027-01-01).`,
    }),
    qualifiedBy: Type.Union([Type.Literal('builtin'), Type.Literal('openai'), Type.Literal('anthropic')], {
      description: "'openai' or 'anthropic' when the account's LLM key was used, 'builtin' otherwise (also when the LLM failed).",
    }),
    model: Type.Optional(Type.String({ description: 'The LLM model that answered, when an LLM did.' })),
  },
  { additionalProperties: false },
);

import { Type } from '@sinclair/typebox';
import { ANSWER_REFUSALS } from '../../../conversations/answerability';
import { MAX_BODY, MAX_CC } from '../../../conversations/answer/answer-lead';
import { MAX_SUBJECT } from '../../../conversations/answer/threading';
import { NOT_BLANK, Timestamp } from '../../http/common-schemas';
import { Nullable } from '../campaigns/schemas';

/** One line: a subject or an address must not carry a header of its own. */
const ONE_LINE = '^[^\\r\\n]*$';

export const AnswerBody = Type.Object(
  {
    body: Type.String({
      minLength: 1,
      maxLength: MAX_BODY,
      pattern: NOT_BLANK,
      description:
        'The answer, plain text. It is sent as the text part, with the sender\'s signature under it, and as HTML paragraphs of the same text ' +
        '(escaped; the URLs it spells out become links). Not tracked: no open pixel, no rewritten links, no unsubscribe footer.',
    }),
    subject: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: MAX_SUBJECT,
        pattern: ONE_LINE,
        description: 'Default: "Re: " and the subject of the conversation\'s last message (without stacking "Re:"). One line.',
      }),
    ),
    cc: Type.Optional(
      Type.Array(Type.String({ format: 'email', maxLength: 254 }), {
        minItems: 1,
        maxItems: MAX_CC,
        uniqueItems: true,
        description: `Up to ${MAX_CC} addresses copied on the answer.`,
      }),
    ),
  },
  { additionalProperties: false },
);

export const AnswerParams = Type.Object(
  { id: Type.String({ minLength: 1, maxLength: 100 }), answerId: Type.String({ minLength: 1, maxLength: 100 }) },
  { additionalProperties: false },
);

export const LeadAnswer = Type.Object(
  {
    id: Type.String(),
    leadId: Type.String(),
    status: Type.Union([Type.Literal('sending'), Type.Literal('sent'), Type.Literal('failed')], {
      description: 'sending: not taken by the SMTP server yet (retried for up to a day); sent: taken; failed: refused for good (see error).',
    }),
    messageId: Type.String({ description: 'Its Message-ID, the same on every attempt.' }),
    from: Type.String({ description: 'The From address: the mailbox that wrote to the lead (sticky sender), or the default sender\'s.' }),
    fromName: Nullable(Type.String()),
    to: Type.String({ description: "The lead's address." }),
    cc: Type.Array(Type.String()),
    subject: Type.String(),
    inReplyTo: Nullable(Type.String(), 'The Message-ID of the conversation\'s last message.'),
    references: Type.Array(Type.String(), { description: "The conversation's Message-IDs, oldest first (the first and the last 19 of a longer one)." }),
    mailboxId: Nullable(Type.String(), 'The mailbox the lead knows (it sends the answer while active; the default server with the same From otherwise); null: the default sender.'),
    campaignId: Nullable(Type.String(), 'The campaign of the conversation, whose costs count it.'),
    text: Type.String({ description: 'The text as sent, signature included.' }),
    error: Nullable(Type.String(), 'The SMTP server\'s last refusal: why it failed, or why it is still being sent.'),
    createdAt: Timestamp,
    sentAt: Nullable(Timestamp),
  },
  { additionalProperties: false },
);

export const AnswerRefused = Type.Object(
  {
    error: Type.String(),
    reason: Type.Optional(
      Type.Union(
        ANSWER_REFUSALS.map((r) => Type.Literal(r)),
        { description: 'unsubscribed, bounced, blocklisted, or no_conversation (nothing was ever sent to the lead).' },
      ),
    ),
  },
  { additionalProperties: false },
);

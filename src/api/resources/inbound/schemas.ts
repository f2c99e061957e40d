import { Type } from '@sinclair/typebox';

export const InboundStored = Type.Object(
  {
    replyId: Type.String({ description: 'Id of the stored inbound message (rpl_…); the same for a repeated delivery.' }),
    kind: Type.Union([Type.Literal('reply'), Type.Literal('auto_reply'), Type.Literal('bounce')], {
      description: 'reply: a person answered; auto_reply: an automatic answer (out of office), stored but not counted as a reply; bounce: a delivery status notification.',
    }),
    matched: Type.Boolean({ description: 'Whether the message was matched to a sent email (In-Reply-To, References, or the original attached to a bounce).' }),
    campaignId: Type.Union([Type.String(), Type.Null()], { description: 'Campaign of the matched email; null when unmatched.' }),
    emailId: Type.Union([Type.String(), Type.Null()], { description: 'The matched sent email; null when unmatched.' }),
    duplicate: Type.Boolean({ description: 'The account already had this Message-ID: nothing was changed.' }),
  },
  { additionalProperties: false },
);

export const InboundDropped = Type.Object(
  { matched: Type.Literal(false, { description: 'The message matches no sent email and no account; it was not stored.' }) },
  { additionalProperties: false },
);

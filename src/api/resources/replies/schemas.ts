import { Type, type TSchema } from '@sinclair/typebox';
import { REPLY_CATEGORIES, SENTIMENTS } from '../../../db/models/reply';
import { Timestamp } from '../../http/common-schemas';
import { StringEnum } from '../string-enum';

const Nullable = <T extends TSchema>(schema: T, description: string) => Type.Union([schema, Type.Null()], { description });

const KINDS = ['reply', 'auto_reply', 'bounce'] as const;

const CATEGORY_WORDS =
  'interested, meeting_booked, closed (positive); neutral, out_of_office (neutral); not_interested, unsubscribe (negative)';

const Category = StringEnum(REPLY_CATEGORIES, { description: CATEGORY_WORDS });
const Sentiment = StringEnum(SENTIMENTS);

/** A day (the whole UTC day) or an instant; a wrong one is answered naming the parameter. */
const DateOrDateTime = (description: string) =>
  Type.Union([Type.String({ format: 'date' }), Type.String({ format: 'date-time' })], { description: `${description} A day YYYY-MM-DD (UTC) or an RFC 3339 date-time.` });

export const ReplyListQuery = Type.Object(
  {
    campaignId: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Only replies to this campaign\'s emails.' })),
    category: Type.Optional(StringEnum(REPLY_CATEGORIES, { description: 'Only replies whose effective category (the user\'s label, else the model\'s) is this one.' })),
    unread: Type.Optional(Type.Boolean({ description: 'true: only unread replies; false: only read ones.' })),
    mailboxId: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Only replies to emails sent from this mailbox.' })),
    kind: Type.Optional(
      StringEnum(KINDS, {
        description: 'reply (written by a person), auto_reply (an automatic answer) or bounce. Left out: replies and automatic answers; bounces are listed only when asked for.',
      }),
    ),
    receivedFrom: Type.Optional(DateOrDateTime('Received at or after (a day: from its start).')),
    receivedTo: Type.Optional(DateOrDateTime('Received at or before (a day: to its end).')),
    from: Type.Optional(DateOrDateTime('Short for receivedFrom.')),
    to: Type.Optional(DateOrDateTime('Short for receivedTo.')),
    unreadFirst: Type.Optional(Type.Boolean({ description: 'true: unread replies first, each part newest first.' })),
    page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1, description: 'Page number, from 1.' })),
    perPage: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'Replies per page, at most 100.' })),
  },
  { additionalProperties: false },
);

const Mailbox = Type.Object({ id: Type.String(), fromEmail: Type.String() }, { additionalProperties: false });

const replyFields = {
  id: Type.String(),
  kind: StringEnum(KINDS, { description: 'reply: written by a person; auto_reply: an automatic answer (out of office); bounce: a delivery report.' }),
  campaignId: Nullable(Type.String(), 'The campaign of the answered email; null when the message matched no sent email.'),
  campaignName: Nullable(Type.String(), 'Null with campaignId.'),
  leadId: Nullable(Type.String(), 'The lead who was written to; null when unknown (or erased).'),
  email: Type.String({ description: 'The sender\'s address.' }),
  name: Nullable(Type.String(), 'The lead\'s name when the lead answered, the sender\'s when someone else did; null when unknown.'),
  company: Nullable(Type.String(), 'The lead\'s company when the reply arrived.'),
  title: Nullable(Type.String(), 'The lead\'s title, when the lead is the one who answered.'),
  subject: Nullable(Type.String(), 'The message\'s subject.'),
  preview: Type.String({ description: 'The start of what the person wrote (quoted history left out).' }),
  category: Nullable(Category, 'Effective: the user\'s label when there is one, else the model\'s. What every statistic counts. Null for a bounce.'),
  sentiment: Nullable(Sentiment, 'Follows from the effective category.'),
  modelCategory: Nullable(Category, 'What the qualifier said.'),
  modelSentiment: Nullable(Sentiment, 'What the qualifier said.'),
  userCategory: Nullable(Category, 'The user\'s correction; null when there is none.'),
  labelledAt: Nullable(Timestamp, 'When the label was last corrected (or the correction dropped); null if never.'),
  read: Type.Boolean(),
  readAt: Nullable(Timestamp, 'When the reply was first marked read; null while unread.'),
  receivedAt: Timestamp,
  mailbox: Nullable(Mailbox, 'The mailbox the answered email was sent from; null when unmatched or sent without a mailbox.'),
};

export const InboxReply = Type.Object(replyFields, { additionalProperties: false });

export const InboxReplyDetail = Type.Object(
  { ...replyFields, bodyText: Type.String({ description: 'The whole plain-text body as received (quoted history included), bounded at 200,000 characters.' }) },
  { additionalProperties: false },
);

export const ReplyListResponse = Type.Object(
  {
    replies: Type.Array(InboxReply, { description: 'Newest first (unread first with unreadFirst).' }),
    page: Type.Integer({ minimum: 1 }),
    perPage: Type.Integer({ minimum: 1 }),
    total: Type.Integer({ minimum: 0, description: 'Replies matching the filters, over all pages.' }),
    unread: Type.Integer({ minimum: 0, description: 'Unread replies matching the other filters (unread left out).' }),
  },
  { additionalProperties: false },
);

export const ReplyIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) }, { additionalProperties: false });

export const ReplyPatch = Type.Object(
  {
    category: Type.Optional(
      Type.Union([Category, Type.Null()], {
        description: `The user's label: ${CATEGORY_WORDS}. Null drops the user's label (the model's applies again).`,
      }),
    ),
    read: Type.Optional(Type.Boolean({ description: 'true marks the reply read (the first time is kept), false unread.' })),
  },
  { additionalProperties: false, minProperties: 1, description: 'At least one of category and read.' },
);

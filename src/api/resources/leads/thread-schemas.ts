import { Type, type TSchema } from '@sinclair/typebox';
import { ANSWER_REFUSALS } from '../../../conversations/answerability';
import { MAX_HTML_CHARS, MAX_TEXT_CHARS, MAX_THREAD_MESSAGES } from '../../../conversations/thread/thread-bounds';
import { EMAIL_EVENT_TYPES } from '../../../db/models/email-event';
import { REPLY_CATEGORIES, SENTIMENTS } from '../../../db/models/reply';
import { Timestamp } from '../../http/common-schemas';
import { StringEnum } from '../string-enum';

const Nullable = <T extends TSchema>(schema: T, description?: string) => Type.Union([schema, Type.Null()], description === undefined ? {} : { description });
const Text = Nullable(Type.String());
const Category = Nullable(StringEnum(REPLY_CATEGORIES));

export const ThreadQuery = Type.Object(
  {
    before: Type.Optional(
      Type.String({ minLength: 1, maxLength: 200, description: 'The `nextBefore` of an earlier answer: the messages older than the oldest it showed.' }),
    ),
    limit: Type.Optional(
      Type.Integer({ minimum: 1, maximum: MAX_THREAD_MESSAGES, default: MAX_THREAD_MESSAGES, description: `Messages at most (the newest ones), 1 to ${MAX_THREAD_MESSAGES}.` }),
    ),
  },
  { additionalProperties: false },
);

const Mailbox = Nullable(
  Type.Object({ id: Type.String(), fromEmail: Type.String() }, { additionalProperties: false }),
  'The mailbox it left from; null when it was sent through the default sender (`from` says the address).',
);

/** What every message has. */
const common = {
  id: Type.String(),
  at: Type.String({ format: 'date-time', description: 'Where it sits in the thread: when it was sent (ours; created, when not sent yet) or received (theirs).' }),
  campaignId: Text,
  campaignName: Text,
  from: Type.String({ description: 'The sender address.' }),
  subject: Text,
  text: Nullable(Type.String(), `The plain text, at most ${MAX_TEXT_CHARS} characters.`),
  html: Nullable(
    Type.String(),
    'The HTML part, sanitised: formatting, links (http, https, mailto; opening in a new tab, rel noopener noreferrer nofollow) and https images ' +
      'only; no script, style, frame, form, svg or event attribute, no tracking pixel of ours. Null when there is no HTML part.',
  ),
  truncated: Type.Boolean({ description: `The text was cut to ${MAX_TEXT_CHARS} characters or the HTML read only up to ${MAX_HTML_CHARS}.` }),
  messageId: Nullable(Type.String(), 'The Message-ID, without angle brackets.'),
};

const EventType = StringEnum(EMAIL_EVENT_TYPES.filter((t) => t !== 'sent'));

const CampaignEmail = Type.Object(
  {
    ...common,
    direction: Type.Literal('out'),
    type: Type.Literal('campaign_email'),
    campaignId: Type.String(),
    campaignName: Type.String(),
    step: Type.Integer({ minimum: 1, description: "The sequence's step, from 1." }),
    variant: Nullable(Type.String(), 'The variant of the step (A to E); null on emails from before variants.'),
    mailbox: Mailbox,
    to: Type.String(),
    subject: Type.String(),
    status: StringEnum(['sending', 'deferred', 'sent', 'bounced', 'failed'] as const, {
      description: 'sent; bounced (refused for good); sending or deferred (not gone yet); failed (never sent).',
    }),
    sentAt: Nullable(Timestamp, 'When it left; null when it has not.'),
    createdAt: Timestamp,
    events: Type.Array(
      Type.Object(
        {
          type: EventType,
          occurredAt: Timestamp,
          url: Nullable(Type.String(), 'The link followed, on a clicked event; null otherwise.'),
        },
        { additionalProperties: false },
      ),
      { description: 'What happened to it after it left, oldest first (its sending is `sentAt`).' },
    ),
  },
  { additionalProperties: false, description: 'A step of a campaign sent to the lead.' },
);

const Inbound = Type.Object(
  {
    ...common,
    direction: Type.Literal('in'),
    type: StringEnum(['reply', 'auto_reply', 'bounce'] as const, { description: 'A reply, an automatic answer (out of office), or a bounce.' }),
    fromName: Text,
    to: Text,
    inReplyTo: Nullable(Type.String(), 'The Message-ID it answers.'),
    inReplyToEmailId: Nullable(Type.String(), 'The campaign email it answers; null when it matched none.'),
    category: Nullable(StringEnum(REPLY_CATEGORIES), "The label the statistics count: the user's correction, else the model's."),
    sentiment: Nullable(StringEnum(SENTIMENTS)),
    modelCategory: Category,
    userCategory: Nullable(StringEnum(REPLY_CATEGORIES), "The user's correction; null when none."),
    read: Type.Boolean(),
    receivedAt: Timestamp,
  },
  { additionalProperties: false, description: 'A message that came in from the lead (or about it: a bounce).' },
);

const Answer = Type.Object(
  {
    ...common,
    direction: Type.Literal('out'),
    type: Type.Literal('answer'),
    mailbox: Mailbox,
    to: Type.String(),
    cc: Type.Array(Type.String()),
    subject: Type.String(),
    inReplyTo: Nullable(Type.String(), 'The Message-ID it answers.'),
    status: StringEnum(['sending', 'sent', 'failed'] as const),
    sentAt: Nullable(Timestamp),
    createdAt: Timestamp,
    error: Nullable(Type.String(), 'Why it failed; null when it did not.'),
  },
  { additionalProperties: false, description: 'An answer written in the thread.' },
);

export const LeadThreadSchema = Type.Object(
  {
    lead: Type.Object(
      {
        id: Type.String(),
        email: Type.String(),
        name: Text,
        company: Text,
        title: Text,
        answer: Type.Object(
          {
            allowed: Type.Boolean({ description: 'Whether POST /v1/leads/:id/reply may answer the lead now.' }),
            reason: Nullable(StringEnum(ANSWER_REFUSALS), 'Why not: unsubscribed (or complained), bounced, blocklisted, no_conversation (never emailed); null when allowed.'),
          },
          { additionalProperties: false },
        ),
      },
      { additionalProperties: false },
    ),
    messages: Type.Array(Type.Union([CampaignEmail, Inbound, Answer]), {
      description: `Oldest first (same instant: our email, our answer, then what came in; then by id). The newest ${MAX_THREAD_MESSAGES} at most.`,
    }),
    hasMore: Type.Boolean({ description: 'Older messages exist: ask again with `before` set to `nextBefore`.' }),
    nextBefore: Nullable(Type.String(), 'The cursor for the older messages; null when there are none.'),
  },
  { additionalProperties: false },
);

import { Type } from '@sinclair/typebox';

export const AccountParams = Type.Object(
  { accountId: Type.String({ minLength: 1, maxLength: 64, description: 'The account whose calendar sends the webhook (acc_…).' }) },
  { additionalProperties: false },
);

export const MeetingWebhookResponse = Type.Object(
  {
    meetingId: Type.Union([Type.String(), Type.Null()], { description: 'The recorded meeting (mtg_…); null when nothing was recorded.' }),
    matched: Type.Boolean({ description: 'Whether an attendee is a lead the account has emailed.' }),
    outcome: Type.Union(
      [Type.Literal('recorded'), Type.Literal('duplicate'), Type.Literal('rescheduled'), Type.Literal('unknown_attendee'), Type.Literal('ignored')],
      {
        description:
          'recorded: a new meeting; duplicate: this booking was recorded before; rescheduled: the meeting it replaces got the new time; ' +
          'unknown_attendee: no attendee is a lead the account emailed, nothing recorded; ignored: a trigger other than a new booking.',
      },
    ),
  },
  { additionalProperties: false },
);

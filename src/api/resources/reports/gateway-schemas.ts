import { Type } from '@sinclair/typebox';
import { BrandId } from './brand-id';

const Count = (description: string) => Type.Integer({ minimum: 0, description });

// --- GET /v1/email-gateway/stats ---

export const GatewayStatsQuery = Type.Object({ brandId: Type.Optional(BrandId) }, { additionalProperties: false });

export const GatewayStatsResponse = Type.Object(
  {
    emailsContacted: Count('Distinct leads at least one email was sent to.'),
    emailsSent: Count('Emails sent.'),
    emailsDelivered: Count('Emails accepted by the receiving server and not bounced afterwards.'),
    emailsOpened: Count('Emails opened at least once (a click counts as an open).'),
    emailsClicked: Count('Emails with at least one link clicked.'),
    emailsReplied: Count('Emails answered by a person (auto-replies and bounces do not count).'),
    emailsBounced: Count('Emails refused by the receiving server, at once or by a later bounce message.'),
    repliesInterested: Count('Replies qualified interested.'),
    repliesMeetingBooked: Count('Replies qualified meeting_booked.'),
    repliesClosed: Count('Replies qualified closed.'),
    repliesNeutral: Count('Replies qualified neutral.'),
    repliesNotInterested: Count('Replies qualified not_interested.'),
    repliesOutOfOffice: Count('Replies qualified out_of_office, automatic ones included.'),
    repliesUnsubscribe: Count('Replies qualified unsubscribe.'),
  },
  { additionalProperties: false },
);

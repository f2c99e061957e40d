import { getLeadThread } from '../../../conversations/thread/lead-thread';
import { MAX_THREAD_MESSAGES } from '../../../conversations/thread/thread-bounds';
import { defineRoute } from '../../http/route';
import { LeadIdParams } from './schemas';
import { LeadThreadSchema, ThreadQuery } from './thread-schemas';

/** The conversation with one lead: every message both ways, in order, with each email's events. */
const thread = defineRoute({
  method: 'get',
  path: '/v1/leads/:id/thread',
  auth: 'b',
  operationId: 'getLeadThread',
  summary: 'Every message sent to and received from a lead, oldest first',
  description:
    'The campaign emails sent to the lead (campaign, step, variant, mailbox, status and what happened after: delivered, opened, clicked, ' +
    'bounced, replied, unsubscribed, meeting_booked), what came in from it (replies, automatic answers, bounces, with their labels) and the ' +
    `answers written in the thread, in one list ordered by time. At most the newest ${MAX_THREAD_MESSAGES} messages (\`limit\` takes fewer); ` +
    '`nextBefore` pages back. Texts are cut to a bound (`truncated`), HTML is sanitised. `lead.answer` says whether the lead may be answered.',
  tags: ['leads'],
  params: LeadIdParams,
  query: ThreadQuery,
  errors: [400, 404],
  responses: { 200: { description: "The lead's thread", schema: LeadThreadSchema } },
  handler: async ({ params, query }, { deps, auth }) => ({
    body: await getLeadThread(deps.sequelize, auth.accountId, params.id, { before: query.before, limit: query.limit }),
  }),
});

export const leadThreadRoutes = [thread];

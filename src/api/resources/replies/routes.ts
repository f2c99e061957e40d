import { getReply } from '../../../replies/inbox/get-reply';
import { listReplies } from '../../../replies/inbox/list-replies';
import { receivedRange } from '../../../replies/inbox/received-range';
import { updateReply } from '../../../replies/inbox/update-reply';
import { badRequest, notFound } from '../../http/errors';
import { defineRoute } from '../../http/route';
import { inboxReplyDetailView, inboxReplyView } from './present';
import { InboxReply, InboxReplyDetail, ReplyIdParams, ReplyListQuery, ReplyListResponse, ReplyPatch } from './schemas';

const REPLY_NOT_FOUND = 'Reply not found';

const listRoute = defineRoute({
  method: 'get',
  path: '/v1/replies',
  auth: 'b',
  operationId: 'listReplies',
  summary: 'The inbox: every reply of the account across campaigns, newest first',
  description:
    'Replies written by a person and automatic answers (out of office) to any campaign, and messages matched to no campaign when the ' +
    'account is clear. Bounces are delivery reports, not conversations: listed only with kind=bounce. Filters: campaignId, category (the ' +
    'effective one: the user\'s label, else the model\'s), unread, mailboxId (the mailbox of the answered email), kind, receivedFrom and ' +
    'receivedTo (or from and to: a day, UTC, or a date-time; both ends included). Page from 1, perPage up to 100 (default 20). `unread` counts the unread ' +
    'replies matching the other filters. An unknown category or kind, a value of unread that is not true or false, or a wrong date is a 400.',
  tags: ['replies'],
  query: ReplyListQuery,
  responses: { 200: { description: 'One page of replies, the total matching the filters and the unread count', schema: ReplyListResponse } },
  errors: [400],
  handler: async ({ query }, { deps, auth }) => {
    const page = query.page ?? 1;
    const perPage = query.perPage ?? 20;
    if (query.from !== undefined && query.receivedFrom !== undefined) throw badRequest('query: give receivedFrom or from, not both');
    if (query.to !== undefined && query.receivedTo !== undefined) throw badRequest('query: give receivedTo or to, not both');
    const range = receivedRange(query.receivedFrom ?? query.from, query.receivedTo ?? query.to);
    if (range.receivedFrom !== undefined && range.receivedBefore !== undefined && range.receivedFrom >= range.receivedBefore) {
      throw badRequest('query.receivedFrom must not be after query.receivedTo');
    }
    const result = await listReplies(deps.sequelize, auth.accountId, {
      campaignId: query.campaignId,
      category: query.category,
      unread: query.unread,
      mailboxId: query.mailboxId,
      kind: query.kind,
      ...range,
      unreadFirst: query.unreadFirst,
      page,
      perPage,
    });
    return { body: { replies: result.replies.map(inboxReplyView), page, perPage, total: result.total, unread: result.unread } };
  },
});

const getRoute = defineRoute({
  method: 'get',
  path: '/v1/replies/:id',
  auth: 'b',
  operationId: 'getReply',
  summary: 'One reply with its whole text',
  tags: ['replies'],
  params: ReplyIdParams,
  responses: { 200: { description: 'The reply', schema: InboxReplyDetail } },
  errors: [404],
  handler: async ({ params }, { deps, auth }) => {
    const reply = await getReply(deps.sequelize, auth.accountId, params.id);
    if (reply === null) throw notFound(REPLY_NOT_FOUND);
    return { body: inboxReplyDetailView(reply) };
  },
});

const patchRoute = defineRoute({
  method: 'patch',
  path: '/v1/replies/:id',
  auth: 'b',
  operationId: 'updateReply',
  summary: 'Correct a reply\'s category, or mark it read or unread',
  description:
    'category: the user\'s label, kept beside the model\'s (null drops it: the model\'s applies again). The effective category is what the ' +
    'statistics count, so a correction moves GET /campaigns/{id}/stats, GET /v1/email-gateway/stats and the lead\'s state in the campaign, ' +
    'in one transaction: to unsubscribe suppresses the address, records the unsubscribe and ends the lead\'s sequence (unsubscribed); away ' +
    'from it takes back what that reply did (the lead returns to replied); an automatic answer given another category than out_of_office ' +
    'becomes a reply (replied fact, reply.received event, the lead\'s sequence stops); a reply given out_of_office becomes an automatic ' +
    'answer (its replied fact goes; the sequence does not restart: enrol the lead again to resume); to meeting_booked records a meeting ' +
    '(one per lead and campaign, none when a calendar booking is counted already), away from it takes that meeting back. The same ' +
    'effective category again changes no figure. A bounce has no category (409). read: true marks it read (the first time is kept), false unread.',
  tags: ['replies'],
  params: ReplyIdParams,
  body: ReplyPatch,
  responses: { 200: { description: 'The reply as it is now', schema: InboxReply } },
  errors: [400, 404, 409],
  handler: async ({ params, body }, { deps, auth }) => {
    const reply = await updateReply({ sequelize: deps.sequelize, leadFacts: deps.leadFacts }, auth.accountId, params.id, body, auth.keyId);
    if (reply === null) throw notFound(REPLY_NOT_FOUND);
    return { body: inboxReplyView(reply) };
  },
});

export const replyRoutes = [listRoute, getRoute, patchRoute];

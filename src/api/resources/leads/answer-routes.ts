import { answerLead, getLeadAnswer } from '../../../conversations/answer/answer-lead';
import type { LeadAnswer as Answer } from '../../../conversations/answer/answer-view';
import { AnswerRefusedError } from '../../../conversations/answer/refused';
import { notFound } from '../../http/errors';
import { defineRoute } from '../../http/route';
import { AnswerBody, AnswerParams, AnswerRefused, LeadAnswer } from './answer-schemas';
import { LeadIdParams } from './schemas';

/** The answer in Surface B's casing, times as ISO strings. */
function presentAnswer(a: Answer) {
  return { ...a, cc: [...a.cc], references: [...a.references], createdAt: a.createdAt.toISOString(), sentAt: a.sentAt === null ? null : a.sentAt.toISOString() };
}

const answerUrl = (a: Answer): string => `/v1/leads/${encodeURIComponent(a.leadId)}/answers/${encodeURIComponent(a.id)}`;

const reply = defineRoute({
  method: 'post',
  path: '/v1/leads/:id/reply',
  auth: 'b',
  operationId: 'answerLead',
  summary: 'Answer the lead in its thread, from the mailbox that wrote to it',
  description:
    'Sends `body` to the lead from the mailbox of the last campaign email or answer it got (the sticky sender; when that mailbox was ' +
    'deactivated, or the lead was written by the default sender, the same From address over the default server), with In-Reply-To the ' +
    "conversation's last message and References its Message-IDs, so it lands in the lead's thread. It is recorded, counted against the " +
    "mailbox's day (never refused by its cap) and charged as an email sent, and it ends the lead's sequences still under way in every " +
    'campaign (finished, reason "answered by the user"). A workflow of its own sends it, retrying temporary SMTP trouble for up to a day: ' +
    '201 when the server took it (or refused it for good: status failed) within 5 seconds, 202 with status sending otherwise; ' +
    'GET /v1/leads/{id}/answers/{answerId} (the Location) shows how it ends. 409 with `reason` for a lead who unsubscribed, bounced, is ' +
    'blocklisted, or was never written to (no_conversation). 503 when the workflow service is unavailable: nothing was stored or sent.',
  tags: ['leads'],
  params: LeadIdParams,
  body: AnswerBody,
  idempotent: true,
  errors: [404, 503],
  responses: {
    201: { description: 'Sent (or refused for good: see status and error)', schema: LeadAnswer },
    202: { description: 'Stored and being sent: its SMTP server has not taken it yet', schema: LeadAnswer },
    409: { description: 'The lead may not be answered (reason), or a request with the same Idempotency-Key is still in progress', schema: AnswerRefused },
  },
  handler: async ({ params, body }, { deps, auth }) => {
    try {
      const { answer, settled } = await answerLead(
        { sequelize: deps.sequelize, config: deps.config, log: deps.log, temporal: deps.temporal.get(), taskQueue: deps.config.temporalTaskQueue },
        auth.accountId,
        params.id,
        body,
      );
      return { status: settled ? 201 : 202, body: presentAnswer(answer), headers: { Location: answerUrl(answer) } };
    } catch (err) {
      if (err instanceof AnswerRefusedError) return { status: 409, body: { error: err.message, reason: err.reason } };
      throw err;
    }
  },
});

const get = defineRoute({
  method: 'get',
  path: '/v1/leads/:id/answers/:answerId',
  auth: 'b',
  operationId: 'getLeadAnswer',
  summary: 'One answer written to the lead, as it stands (sending, sent or failed)',
  tags: ['leads'],
  params: AnswerParams,
  errors: [404],
  responses: { 200: { description: 'The answer', schema: LeadAnswer } },
  handler: async ({ params }, { deps, auth }) => {
    const answer = await getLeadAnswer(deps.sequelize, auth.accountId, params.id, params.answerId);
    if (answer === null) throw notFound('Answer not found');
    return { body: presentAnswer(answer) };
  },
});

export const leadAnswerRoutes = [reply, get];

import { badRequest } from '../../http/errors';
import { defineRoute } from '../../http/route';
import { qualifyReply } from '../../../qualification';
import { MAX_BODY_TEXT_BYTES, QualifyBody, QualifyResponse } from './schemas';

const qualify = defineRoute({
  method: 'post',
  path: '/v1/qualify',
  auth: 'b',
  operationId: 'qualifyReply',
  summary: 'Qualify a reply to an outreach email',
  description:
    "Classifies the reply into a category with its sentiment, a confidence and a suggested next action. With the account's OpenAI or Anthropic key set, its LLM qualifies the reply (the cost is recorded as ai_generation); otherwise, or when the LLM fails, the built-in classifier does.",
  tags: ['qualification'],
  body: QualifyBody,
  responses: { 200: { description: 'The qualification of the reply', schema: QualifyResponse } },
  handler: async ({ body }, { deps, auth, log }) => {
    // The schema bounds characters; the limit is in bytes, which JSON Schema cannot count.
    if (Buffer.byteLength(body.bodyText, 'utf8') > MAX_BODY_TEXT_BYTES) throw badRequest('body.bodyText must be at most 100 KB');
    const q = await qualifyReply({ sequelize: deps.sequelize, config: deps.config, log }, auth.accountId, {
      fromEmail: body.fromEmail ?? '',
      toEmail: body.toEmail ?? '',
      subject: body.subject ?? '',
      bodyText: body.bodyText,
    });
    return {
      body: {
        category: q.category,
        sentiment: q.sentiment,
        confidence: q.confidence,
        nextAction: q.nextAction,
        qualifiedBy: q.qualifiedBy,
        ...(q.model ? { model: q.model } : {}),
      },
    };
  },
});

export const qualifyRoutes = [qualify];

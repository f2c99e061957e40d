import { isDatabaseUnavailable } from '../../../inbound/database-errors';
import { inboundSecret, secretMatches } from '../../../inbound/inbound-secret';
import { INBOUND_MAX_BYTES } from '../../../inbound/relay-settings';
import { ingestInbound, UnusableMessage } from '../../../replies/ingest';
import { replyQualifier } from '../../../replies/qualify-reply';
import { badRequest, serviceUnavailable, unauthorized } from '../../http/errors';
import { readRawBody } from '../../http/raw-body';
import { defineRoute } from '../../http/route';
import { InboundDropped, InboundStored } from './schemas';

/**
 * The HTTP door for replies: a mail relay or an inbound-mail provider posts each message it
 * receives, raw, with the shared secret. The body is read only after the secret checked out, so
 * an unauthenticated caller cannot make the API buffer 10 MB.
 */
const postMime = defineRoute({
  method: 'post',
  path: '/inbound/mime',
  auth: 'none',
  operationId: 'postInboundMime',
  summary: 'Take one inbound email (a reply, an automatic answer or a bounce) as raw MIME',
  description:
    'Authenticated by the `X-Inbound-Secret` header (INBOUND_SECRET, or the generated secret `outreach secrets show` prints). ' +
    'The message is matched to the sent email it answers by In-Reply-To, then References (newest first), or for a bounce by the ' +
    'original message it returns. Posting the same message again (same Message-ID) changes nothing and answers the same reply id. ' +
    'A message that matches no sent email is still stored when its account is clear (a recipient is one of the account\'s ' +
    'mailboxes, or the sender is one of its leads); otherwise it is answered 202 and dropped.',
  tags: ['inbound'],
  rawBody: {
    contentTypes: ['message/rfc822', 'text/plain', 'application/octet-stream'],
    maxBytes: INBOUND_MAX_BYTES,
    mode: 'stream',
    description: 'The complete message as received (headers and body), at most 10 MB.',
  },
  responses: {
    200: { description: 'The message was stored (or had been already)', schema: InboundStored },
    202: { description: 'Matched no sent email and no account: accepted but not stored', schema: InboundDropped },
  },
  errors: [400, 401, 503],
  handler: async (_input, { deps, koa, log }) => {
    let secret: string;
    try {
      secret = await inboundSecret(deps.sequelize, deps.config);
    } catch (err) {
      if (isDatabaseUnavailable(err)) throw serviceUnavailable('The database is unavailable; try again later');
      throw err;
    }
    if (!secretMatches(koa.get('x-inbound-secret'), secret)) throw unauthorized('Missing or wrong X-Inbound-Secret');
    const raw = await readRawBody(koa, INBOUND_MAX_BYTES);
    if (raw.length === 0) throw badRequest('The request body is empty: expected a raw email message');
    try {
      const outcome = await ingestInbound({ sequelize: deps.sequelize, log, qualify: replyQualifier(deps), leadFacts: deps.leadFacts }, raw);
      if (!outcome.stored) return { status: 202, body: { matched: false } };
      const { replyId, kind, matched, campaignId, emailId, duplicate } = outcome;
      return { body: { replyId, kind, matched, campaignId, emailId, duplicate } };
    } catch (err) {
      if (err instanceof UnusableMessage) throw badRequest(err.message);
      if (isDatabaseUnavailable(err)) throw serviceUnavailable('The database is unavailable; try again later');
      throw err;
    }
  },
});

export const inboundRoutes = [postMime];

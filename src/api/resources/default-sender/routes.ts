import { getDefaultSender, updateDefaultSender } from '../../../accounts/default-sender';
import { badRequest } from '../../http/errors';
import { defineRoute } from '../../http/route';
import { DefaultSenderPatch, DefaultSenderResponse } from './schemas';

/**
 * The account's default sender: who an email says it is from when no mailbox sends it. Emails
 * sent through a mailbox carry that mailbox's fromName and signature instead (PATCH /v1/mailboxes/:id).
 */
const WHAT_FOR =
  'The default sender is the From name and the signature of the emails the account sends without a mailbox (through the service\'s default ' +
  'transport). Emails sent through a mailbox use that mailbox\'s fromName and signature instead. With no name set, those emails name the ' +
  'campaign\'s company ("The Acme team"), never a bare address.';

const getSender = defineRoute({
  method: 'get',
  path: '/v1/default-sender',
  auth: 'b',
  operationId: 'getDefaultSender',
  summary: 'The From name and signature of emails sent without a mailbox',
  description: WHAT_FOR,
  tags: ['default-sender'],
  responses: { 200: { description: 'The default sender; null members are not set', schema: DefaultSenderResponse } },
  handler: async (_input, { deps, auth }) => ({ body: await getDefaultSender(deps.sequelize, auth.accountId) }),
});

const patchSender = defineRoute({
  method: 'patch',
  path: '/v1/default-sender',
  auth: 'b',
  operationId: 'updateDefaultSender',
  summary: 'Set or clear the From name and signature of emails sent without a mailbox',
  description:
    `${WHAT_FOR} Give name, signature or both; a member left out keeps its value and null clears it. A name must be one line without ` +
    '<, >, " or @, a signature at most 15 lines: a value the rules refuse is a 400 naming the member, and changes nothing.',
  tags: ['default-sender'],
  body: DefaultSenderPatch,
  errors: [400],
  responses: { 200: { description: 'The default sender after the change', schema: DefaultSenderResponse } },
  handler: async ({ body }, { deps, auth }) => {
    // Not in the schema (minProperties), whose message would not say which members there are.
    if (body.name === undefined && body.signature === undefined) throw badRequest('body must set name, signature or both');
    return { body: await updateDefaultSender(deps.sequelize, auth.accountId, body) };
  },
});

export const defaultSenderRoutes = [getSender, patchSender];

import { NotFoundError } from '../../../errors/domain-errors';
import { badRequest } from '../../http/errors';
import { defineRoute } from '../../http/route';
import { createMailbox, deactivateMailbox, listMailboxes, updateMailbox } from '../../../sending/mailbox-repository';
import { CreateMailboxBody, MailboxList, MailboxParams, MailboxSchema, UpdateMailboxBody } from './schemas';

/**
 * The account's own sending mailboxes. Emails rotate across the active ones (least recently used
 * first) within each one's daily cap and minimum gap; an account without any sends through the
 * service's default transport.
 */
const create = defineRoute({
  method: 'post',
  path: '/v1/mailboxes',
  auth: 'b',
  operationId: 'createMailbox',
  summary: 'Add a sending mailbox (SMTP server, caps, optional DKIM key)',
  tags: ['mailboxes'],
  body: CreateMailboxBody,
  errors: [409],
  responses: { 201: { description: 'The mailbox, without its password or DKIM key', schema: MailboxSchema } },
  handler: async ({ body }, { deps, auth }) => {
    const mailbox = await createMailbox(deps.sequelize, auth.accountId, body, { allowLoopback: deps.config.allowLoopbackEgress });
    return { status: 201, body: mailbox };
  },
});

const list = defineRoute({
  method: 'get',
  path: '/v1/mailboxes',
  auth: 'b',
  operationId: 'listMailboxes',
  summary: 'List the account\'s active mailboxes',
  tags: ['mailboxes'],
  responses: { 200: { description: 'Active mailboxes, oldest first', schema: MailboxList } },
  handler: async (_input, { deps, auth }) => ({ body: { mailboxes: await listMailboxes(deps.sequelize, auth.accountId) } }),
});

const update = defineRoute({
  method: 'patch',
  path: '/v1/mailboxes/:id',
  auth: 'b',
  operationId: 'updateMailbox',
  summary: "Change a mailbox's From name, signature, daily cap or minimum gap",
  description:
    'Give at least one of fromName, signature, dailyCap and minGapSeconds; a member left out keeps its value, and null clears the name or ' +
    'the signature. A name must be one line without <, >, " or @; a value the rules refuse is a 400 naming the member, and changes ' +
    'nothing. A deactivated mailbox is not found: add it again with POST. The server, its credentials and the DKIM key are set by POST.',
  tags: ['mailboxes'],
  params: MailboxParams,
  body: UpdateMailboxBody,
  errors: [400, 404],
  responses: { 200: { description: 'The mailbox after the change', schema: MailboxSchema } },
  handler: async ({ params, body }, { deps, auth }) => {
    // Not in the schema (minProperties), whose message would not say which members there are.
    if (Object.keys(body).length === 0) throw badRequest('body must set at least one of fromName, signature, dailyCap and minGapSeconds');
    const mailbox = await updateMailbox(deps.sequelize, auth.accountId, params.id, body);
    if (mailbox === null) throw new NotFoundError('mailbox');
    return { body: mailbox };
  },
});

const remove = defineRoute({
  method: 'delete',
  path: '/v1/mailboxes/:id',
  auth: 'b',
  operationId: 'deactivateMailbox',
  summary: 'Stop sending through a mailbox (idempotent)',
  tags: ['mailboxes'],
  params: MailboxParams,
  errors: [404],
  responses: { 200: { description: 'The deactivated mailbox', schema: MailboxSchema } },
  handler: async ({ params }, { deps, auth }) => {
    const mailbox = await deactivateMailbox(deps.sequelize, auth.accountId, params.id);
    if (mailbox === null) throw new NotFoundError('mailbox');
    return { body: mailbox };
  },
});

export const mailboxRoutes = [create, list, update, remove];

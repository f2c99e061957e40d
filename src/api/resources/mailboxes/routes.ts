import { NotFoundError } from '../../../errors/domain-errors';
import { defineRoute } from '../../http/route';
import { createMailbox, deactivateMailbox, listMailboxes } from '../../../sending/mailbox-repository';
import { CreateMailboxBody, MailboxList, MailboxParams, MailboxSchema } from './schemas';

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

export const mailboxRoutes = [create, list, remove];

import { addMembers, MAX_MEMBERS_PER_CALL } from '../../../leads/lists/add-members';
import { LeadListNotFound } from '../../../leads/lists/list-errors';
import { createList, deleteList, findList, listLists, listMembers, removeLeadFromList, renameList } from '../../../leads/lists/list-repository';
import { notFound } from '../../http/errors';
import { defineRoute } from '../../http/route';
import { checkMemberCounts, listName } from './present';
import { B, ListIdParams, ListMemberParams, ListMembersPageB, ListNameBody } from './schemas';

/**
 * Lead lists on Surface B (X-API-Key, camelCase): named groups of the account's leads that a
 * campaign can take its candidates from. A list or lead of another account is a 404, as a missing one.
 */
const create = defineRoute({
  method: 'post',
  path: '/v1/lead-lists',
  auth: 'b',
  operationId: 'v1CreateLeadList',
  summary: 'Create an empty lead list',
  tags: ['lead-lists'],
  body: ListNameBody,
  errors: [409],
  responses: { 201: { description: 'The list', schema: B.LeadList } },
  handler: async ({ body }, { deps, auth }) => ({ status: 201, body: await createList(deps.sequelize, auth.accountId, listName(body.name)) }),
});

const list = defineRoute({
  method: 'get',
  path: '/v1/lead-lists',
  auth: 'b',
  operationId: 'v1ListLeadLists',
  summary: "The account's lead lists, oldest first, each with its count of leads",
  tags: ['lead-lists'],
  query: B.PageQuery,
  responses: { 200: { description: 'A page of lists', schema: B.LeadListPage } },
  handler: async ({ query }, { deps, auth }) => {
    const page = query.page ?? 1;
    const perPage = query.perPage ?? 20;
    const { lists, total } = await listLists(deps.sequelize, auth.accountId, page, perPage);
    return { body: { leadLists: lists, pagination: { page, perPage, total } } };
  },
});

const get = defineRoute({
  method: 'get',
  path: '/v1/lead-lists/:id',
  auth: 'b',
  operationId: 'v1GetLeadList',
  summary: 'One lead list with its count of leads',
  tags: ['lead-lists'],
  params: ListIdParams,
  errors: [404],
  responses: { 200: { description: 'The list', schema: B.LeadList } },
  handler: async ({ params }, { deps, auth }) => {
    const found = await findList(deps.sequelize, auth.accountId, params.id);
    if (found === null) throw new LeadListNotFound();
    return { body: found };
  },
});

const rename = defineRoute({
  method: 'patch',
  path: '/v1/lead-lists/:id',
  auth: 'b',
  operationId: 'v1RenameLeadList',
  summary: 'Rename a lead list',
  tags: ['lead-lists'],
  params: ListIdParams,
  body: ListNameBody,
  errors: [404, 409],
  responses: { 200: { description: 'The list after the change', schema: B.LeadList } },
  handler: async ({ params, body }, { deps, auth }) => {
    const renamed = await renameList(deps.sequelize, auth.accountId, params.id, listName(body.name));
    if (renamed === null) throw new LeadListNotFound();
    return { body: renamed };
  },
});

const remove = defineRoute({
  method: 'delete',
  path: '/v1/lead-lists/:id',
  auth: 'b',
  operationId: 'v1DeleteLeadList',
  summary: 'Delete a lead list; its leads stay in the account',
  tags: ['lead-lists'],
  params: ListIdParams,
  errors: [404],
  responses: { 204: { description: 'Deleted' } },
  handler: async ({ params }, { deps, auth }) => {
    if (!(await deleteList(deps.sequelize, auth.accountId, params.id))) throw new LeadListNotFound();
    return { status: 204, body: null };
  },
});

const addLeads = defineRoute({
  method: 'post',
  path: '/v1/lead-lists/:id/leads',
  auth: 'b',
  operationId: 'v1AddLeadListLeads',
  summary: 'Add leads to a list by id or address',
  description:
    `At most ${MAX_MEMBERS_PER_CALL} ids and addresses in all per call. The answer counts the leads added and those the list already held, ` +
    'and lists the ids and addresses that name no lead of the account (as given). A lead named twice counts once.',
  tags: ['lead-lists'],
  params: ListIdParams,
  body: B.AddMembersBody,
  errors: [404],
  responses: { 200: { description: 'What was added', schema: B.AddMembersResult } },
  handler: async ({ params, body }, { deps, auth }) => {
    checkMemberCounts('leadIds', body.leadIds, body.emails);
    return { body: await addMembers(deps.sequelize, auth.accountId, params.id, { leadIds: body.leadIds, emails: body.emails }) };
  },
});

const removeLead = defineRoute({
  method: 'delete',
  path: '/v1/lead-lists/:id/leads/:leadId',
  auth: 'b',
  operationId: 'v1RemoveLeadListLead',
  summary: 'Take a lead out of a list (the lead stays in the account)',
  tags: ['lead-lists'],
  params: ListMemberParams,
  errors: [404],
  responses: { 204: { description: 'Removed' } },
  handler: async ({ params }, { deps, auth }) => {
    if ((await findList(deps.sequelize, auth.accountId, params.id)) === null) throw new LeadListNotFound();
    if (!(await removeLeadFromList(deps.sequelize, auth.accountId, params.id, params.leadId))) throw notFound('The lead is not in this list');
    return { status: 204, body: null };
  },
});

const leads = defineRoute({
  method: 'get',
  path: '/v1/lead-lists/:id/leads',
  auth: 'b',
  operationId: 'v1ListLeadListLeads',
  summary: "A page of a list's leads, in the order they were added",
  tags: ['lead-lists'],
  params: ListIdParams,
  query: B.PageQuery,
  errors: [404],
  responses: { 200: { description: 'A page of leads', schema: ListMembersPageB } },
  handler: async ({ params, query }, { deps, auth }) => {
    if ((await findList(deps.sequelize, auth.accountId, params.id)) === null) throw new LeadListNotFound();
    const page = query.page ?? 1;
    const perPage = query.perPage ?? 20;
    const result = await listMembers(deps.sequelize, auth.accountId, params.id, page, perPage);
    return { body: { leads: result.leads, pagination: { page, perPage, total: result.total } } };
  },
});

export const leadListRoutesB = [create, list, get, rename, remove, addLeads, leads, removeLead];

import { addMembers, MAX_MEMBERS_PER_CALL } from '../../../leads/lists/add-members';
import { LeadListNotFound } from '../../../leads/lists/list-errors';
import { createList, deleteList, findList, listLists, listMembers, removeLeadFromList, renameList } from '../../../leads/lists/list-repository';
import { notFound } from '../../http/errors';
import { defineRoute } from '../../http/route';
import { addResultA, checkMemberCounts, listA, listName, memberA } from './present';
import { A, ListIdParams, ListMemberParams, ListMembersPageA, ListNameBody } from './schemas';

/**
 * Lead lists on Surface A (Bearer key, snake_case): named groups of the account's leads that a
 * campaign can take its candidates from. A list or lead of another account is a 404, as a missing one.
 */
const create = defineRoute({
  method: 'post',
  path: '/lead-lists',
  auth: 'a',
  operationId: 'createLeadList',
  summary: 'Create an empty lead list',
  tags: ['lead-lists'],
  body: ListNameBody,
  errors: [409],
  responses: { 201: { description: 'The list', schema: A.LeadList } },
  handler: async ({ body }, { deps, auth }) => ({ status: 201, body: listA(await createList(deps.sequelize, auth.accountId, listName(body.name))) }),
});

const list = defineRoute({
  method: 'get',
  path: '/lead-lists',
  auth: 'a',
  operationId: 'listLeadLists',
  summary: "The account's lead lists, oldest first, each with its count of leads",
  tags: ['lead-lists'],
  query: A.PageQuery,
  responses: { 200: { description: 'A page of lists', schema: A.LeadListPage } },
  handler: async ({ query }, { deps, auth }) => {
    const page = query.page ?? 1;
    const perPage = query.per_page ?? 20;
    const { lists, total } = await listLists(deps.sequelize, auth.accountId, page, perPage);
    return { body: { lead_lists: lists.map(listA), pagination: { page, per_page: perPage, total } } };
  },
});

const get = defineRoute({
  method: 'get',
  path: '/lead-lists/:id',
  auth: 'a',
  operationId: 'getLeadList',
  summary: 'One lead list with its count of leads',
  tags: ['lead-lists'],
  params: ListIdParams,
  errors: [404],
  responses: { 200: { description: 'The list', schema: A.LeadList } },
  handler: async ({ params }, { deps, auth }) => {
    const found = await findList(deps.sequelize, auth.accountId, params.id);
    if (found === null) throw new LeadListNotFound();
    return { body: listA(found) };
  },
});

const rename = defineRoute({
  method: 'patch',
  path: '/lead-lists/:id',
  auth: 'a',
  operationId: 'renameLeadList',
  summary: 'Rename a lead list',
  tags: ['lead-lists'],
  params: ListIdParams,
  body: ListNameBody,
  errors: [404, 409],
  responses: { 200: { description: 'The list after the change', schema: A.LeadList } },
  handler: async ({ params, body }, { deps, auth }) => {
    const renamed = await renameList(deps.sequelize, auth.accountId, params.id, listName(body.name));
    if (renamed === null) throw new LeadListNotFound();
    return { body: listA(renamed) };
  },
});

const remove = defineRoute({
  method: 'delete',
  path: '/lead-lists/:id',
  auth: 'a',
  operationId: 'deleteLeadList',
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
  path: '/lead-lists/:id/leads',
  auth: 'a',
  operationId: 'addLeadListLeads',
  summary: 'Add leads to a list by id or address',
  description:
    `At most ${MAX_MEMBERS_PER_CALL} ids and addresses in all per call. The answer counts the leads added and those the list already held, ` +
    'and lists the ids and addresses that name no lead of the account (as given). A lead named twice counts once.',
  tags: ['lead-lists'],
  params: ListIdParams,
  body: A.AddMembersBody,
  errors: [404],
  responses: { 200: { description: 'What was added', schema: A.AddMembersResult } },
  handler: async ({ params, body }, { deps, auth }) => {
    checkMemberCounts('lead_ids', body.lead_ids, body.emails);
    return { body: addResultA(await addMembers(deps.sequelize, auth.accountId, params.id, { leadIds: body.lead_ids, emails: body.emails })) };
  },
});

const removeLead = defineRoute({
  method: 'delete',
  path: '/lead-lists/:id/leads/:leadId',
  auth: 'a',
  operationId: 'removeLeadListLead',
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
  path: '/lead-lists/:id/leads',
  auth: 'a',
  operationId: 'listLeadListLeads',
  summary: "A page of a list's leads, in the order they were added",
  tags: ['lead-lists'],
  params: ListIdParams,
  query: A.PageQuery,
  errors: [404],
  responses: { 200: { description: 'A page of leads', schema: ListMembersPageA } },
  handler: async ({ params, query }, { deps, auth }) => {
    if ((await findList(deps.sequelize, auth.accountId, params.id)) === null) throw new LeadListNotFound();
    const page = query.page ?? 1;
    const perPage = query.per_page ?? 20;
    const result = await listMembers(deps.sequelize, auth.accountId, params.id, page, perPage);
    return { body: { leads: result.leads.map(memberA), pagination: { page, per_page: perPage, total: result.total } } };
  },
});

export const leadListRoutesA = [create, list, get, rename, remove, addLeads, leads, removeLead];

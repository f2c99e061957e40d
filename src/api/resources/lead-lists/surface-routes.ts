import type { Static, TSchema } from '@sinclair/typebox';
import { addMembers, MAX_MEMBERS_PER_CALL, type AddMembersResult } from '../../../leads/lists/add-members';
import { LeadListNotFound } from '../../../leads/lists/list-errors';
import { createList, deleteList, findList, listLists, listMembers, removeLeadFromList, renameList, type LeadList, type ListMember } from '../../../leads/lists/list-repository';
import { notFound } from '../../http/errors';
import { defineRoute } from '../../http/route';
import { cased } from '../campaigns/casing';
import { inDomainCasing, type Surface } from '../surface';
import { checkMemberCounts, listName } from './present';
import { type A, type B, ListIdParams, ListMemberParams, ListNameBody } from './schemas';

/** What one surface's lead-list routes take and render in its casing; the routes themselves are below. */
export interface LeadListSurface {
  readonly surface: Surface;
  readonly schemas: typeof A | typeof B;
  readonly membersPage: TSchema;
  readonly list: (list: LeadList) => unknown;
  readonly member: (member: ListMember) => unknown;
  readonly addResult: (result: AddMembersResult) => unknown;
}

type PageQuery = Static<typeof B.PageQuery>;

/**
 * Lead lists on one surface (routes-a.ts, routes-b.ts): named groups of the account's leads that
 * a campaign can take its candidates from. A list or lead of another account is a 404, as a
 * missing one.
 */
export function leadListRoutes({ surface, schemas: s, membersPage, list: present, member, addResult }: LeadListSurface) {
  const { casing } = surface;
  const path = surface.path;
  const pagination = (page: number, perPage: number, total: number) => ({ page, [cased(casing, 'per_page')]: perPage, total });

  const create = defineRoute({
    method: 'post',
    path: path('/lead-lists'),
    auth: surface.auth,
    operationId: surface.operationId('createLeadList'),
    idempotent: true,
    summary: 'Create an empty lead list',
    tags: ['lead-lists'],
    body: ListNameBody,
    errors: [409],
    responses: { 201: { description: 'The list', schema: s.LeadList } },
    handler: async ({ body }, { deps, auth }) => ({ status: 201, body: present(await createList(deps.sequelize, auth.accountId, listName(body.name))) }),
  });

  const list = defineRoute({
    method: 'get',
    path: path('/lead-lists'),
    auth: surface.auth,
    operationId: surface.operationId('listLeadLists'),
    summary: "The account's lead lists, oldest first, each with its count of leads",
    tags: ['lead-lists'],
    query: s.PageQuery,
    responses: { 200: { description: 'A page of lists', schema: s.LeadListPage } },
    handler: async ({ query }, { deps, auth }) => {
      const q = inDomainCasing<PageQuery>(casing, query);
      const page = q.page ?? 1;
      const perPage = q.perPage ?? 20;
      const { lists, total } = await listLists(deps.sequelize, auth.accountId, page, perPage);
      return { body: { [cased(casing, 'lead_lists')]: lists.map(present), pagination: pagination(page, perPage, total) } };
    },
  });

  const get = defineRoute({
    method: 'get',
    path: path('/lead-lists/:id'),
    auth: surface.auth,
    operationId: surface.operationId('getLeadList'),
    summary: 'One lead list with its count of leads',
    tags: ['lead-lists'],
    params: ListIdParams,
    errors: [404],
    responses: { 200: { description: 'The list', schema: s.LeadList } },
    handler: async ({ params }, { deps, auth }) => {
      const found = await findList(deps.sequelize, auth.accountId, params.id);
      if (found === null) throw new LeadListNotFound();
      return { body: present(found) };
    },
  });

  const rename = defineRoute({
    method: 'patch',
    path: path('/lead-lists/:id'),
    auth: surface.auth,
    operationId: surface.operationId('renameLeadList'),
    summary: 'Rename a lead list',
    tags: ['lead-lists'],
    params: ListIdParams,
    body: ListNameBody,
    errors: [404, 409],
    responses: { 200: { description: 'The list after the change', schema: s.LeadList } },
    handler: async ({ params, body }, { deps, auth }) => {
      const renamed = await renameList(deps.sequelize, auth.accountId, params.id, listName(body.name));
      if (renamed === null) throw new LeadListNotFound();
      return { body: present(renamed) };
    },
  });

  const remove = defineRoute({
    method: 'delete',
    path: path('/lead-lists/:id'),
    auth: surface.auth,
    operationId: surface.operationId('deleteLeadList'),
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
    path: path('/lead-lists/:id/leads'),
    auth: surface.auth,
    operationId: surface.operationId('addLeadListLeads'),
    summary: 'Add leads to a list by id or address',
    description:
      `At most ${MAX_MEMBERS_PER_CALL} ids and addresses in all per call. The answer counts the leads added and those the list already held, ` +
      'and lists the ids and addresses that name no lead of the account (as given). A lead named twice counts once.',
    tags: ['lead-lists'],
    params: ListIdParams,
    body: s.AddMembersBody,
    errors: [404],
    responses: { 200: { description: 'What was added', schema: s.AddMembersResult } },
    handler: async ({ params, body }, { deps, auth }) => {
      const { leadIds, emails } = inDomainCasing<Static<typeof B.AddMembersBody>>(casing, body);
      checkMemberCounts(cased(casing, 'lead_ids'), leadIds, emails);
      return { body: addResult(await addMembers(deps.sequelize, auth.accountId, params.id, { leadIds, emails })) };
    },
  });

  const removeLead = defineRoute({
    method: 'delete',
    path: path('/lead-lists/:id/leads/:leadId'),
    auth: surface.auth,
    operationId: surface.operationId('removeLeadListLead'),
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
    path: path('/lead-lists/:id/leads'),
    auth: surface.auth,
    operationId: surface.operationId('listLeadListLeads'),
    summary: "A page of a list's leads, in the order they were added",
    tags: ['lead-lists'],
    params: ListIdParams,
    query: s.PageQuery,
    errors: [404],
    responses: { 200: { description: 'A page of leads', schema: membersPage } },
    handler: async ({ params, query }, { deps, auth }) => {
      if ((await findList(deps.sequelize, auth.accountId, params.id)) === null) throw new LeadListNotFound();
      const q = inDomainCasing<PageQuery>(casing, query);
      const page = q.page ?? 1;
      const perPage = q.perPage ?? 20;
      const result = await listMembers(deps.sequelize, auth.accountId, params.id, page, perPage);
      return { body: { leads: result.leads.map(member), pagination: pagination(page, perPage, result.total) } };
    },
  });

  return [create, list, get, rename, remove, addLeads, leads, removeLead];
}

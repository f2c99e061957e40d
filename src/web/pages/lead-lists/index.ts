import { Type } from '@sinclair/typebox';
import type { AnyRoute } from '../../../api/http/route';
import { MAX_LIST_NAME_LENGTH } from '../../../api/resources/lead-lists/schemas';
import { LeadListNameTaken } from '../../../leads/lists/list-errors';
import { createList, deleteList, listLists, renameList } from '../../../leads/lists/list-repository';
import { defineAction, definePage, errorPage, type PageContext, type PageResult } from '../../page-route';
import { renderTemplate } from '../../render';
import { noticeText, shownTime } from '../account/format';

/**
 * The account's lead lists (`/dashboard/lead-lists`): each with its number of leads, and forms to
 * create, rename and delete one (its leads stay in the account). The same functions as
 * /v1/lead-lists (src/leads/lists/list-repository.ts), the same name rule.
 */

const PATH = '/dashboard/lead-lists';
const PER_PAGE = 50;

const NOTICES: Readonly<Record<string, string>> = {
  created: 'The list was created. Import leads into it with POST /v1/leads/import?list_id=… or add them through /v1/lead-lists/:id/leads.',
  renamed: 'The list was renamed.',
  deleted: 'The list was deleted. Its leads stay in your account, and in any other list that holds them.',
};

const PageQuery = Type.Object(
  { page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000 })), notice: Type.Optional(Type.String({ maxLength: 40 })) },
  { additionalProperties: false },
);
/** Longer than any valid name, so the page (not Ajv) says what is wrong with it. */
const NameForm = Type.Object({ name: Type.String({ maxLength: MAX_LIST_NAME_LENGTH * 4 }) }, { additionalProperties: false });

/** A name's problem in words, or null when the API would take it. */
function nameProblem(name: string): string | null {
  if (name === '') return 'Enter a name for the list.';
  if (name.length > MAX_LIST_NAME_LENGTH) return `The name is ${name.length} characters long: at most ${MAX_LIST_NAME_LENGTH}.`;
  return null;
}

interface PageState {
  readonly page: number;
  readonly notice?: string;
  /** A refused create or rename: which form, the message and what was typed. */
  readonly error?: { readonly listId: string | null; readonly message: string; readonly value: string };
}

async function listsPage(ctx: PageContext, st: PageState): Promise<string> {
  const { lists, total } = await listLists(ctx.deps.sequelize, ctx.session.accountId, st.page, PER_PAGE);
  const pages = Math.max(1, Math.ceil(total / PER_PAGE));
  const href = (p: number): string => (p > 1 ? `${PATH}?page=${p}` : PATH);
  return renderTemplate('lead-lists', {
    title: 'Lead lists',
    session: ctx.session,
    nav: 'lead-lists',
    notice: st.notice,
    lists: lists.map((l) => ({ ...l, created: shownTime(new Date(l.createdAt)) })),
    total,
    page: st.page,
    pages,
    prev: st.page > 1 ? href(st.page - 1) : null,
    next: st.page < pages ? href(st.page + 1) : null,
    maxName: MAX_LIST_NAME_LENGTH,
    createError: st.error !== undefined && st.error.listId === null ? st.error.message : null,
    createInput: st.error !== undefined && st.error.listId === null ? st.error.value : '',
    renameError: st.error !== undefined && st.error.listId !== null ? st.error : null,
  });
}

/** Runs a create or rename; a bad or taken name is the page again, with the message beside its form. */
async function withName(ctx: PageContext, listId: string | null, raw: string, save: (name: string) => Promise<PageResult>): Promise<PageResult> {
  const name = raw.trim();
  const refuse = async (status: number, message: string): Promise<PageResult> => ({ status, html: await listsPage(ctx, { page: 1, error: { listId, message, value: raw } }) });
  const problem = nameProblem(name);
  if (problem !== null) return refuse(400, problem);
  try {
    return await save(name);
  } catch (err) {
    if (err instanceof LeadListNameTaken) return refuse(409, `${err.message}: choose another name (case is ignored).`);
    throw err;
  }
}

const page = definePage({
  path: PATH,
  summary: 'Lead lists',
  query: PageQuery,
  handler: async ({ query }, ctx) => ({ html: await listsPage(ctx, { page: (query.page as number | undefined) ?? 1, notice: noticeText(NOTICES, query.notice) }) }),
});

const create = defineAction({
  path: PATH,
  summary: 'Create a lead list',
  form: NameForm,
  handler: async ({ form }, ctx) =>
    withName(ctx, null, form.name ?? '', async (name) => {
      await createList(ctx.deps.sequelize, ctx.session.accountId, name);
      return { redirect: `${PATH}?notice=created` };
    }),
});

const notFound = (ctx: PageContext): PageResult => errorPage(404, 'Lead list not found.', ctx.session);

const rename = defineAction({
  path: `${PATH}/:id/rename`,
  summary: 'Rename a lead list',
  form: NameForm,
  handler: async ({ params, form }, ctx) =>
    withName(ctx, params.id ?? '', form.name ?? '', async (name) => {
      const renamed = await renameList(ctx.deps.sequelize, ctx.session.accountId, params.id ?? '', name);
      return renamed === null ? notFound(ctx) : { redirect: `${PATH}?notice=renamed` };
    }),
});

const remove = defineAction({
  path: `${PATH}/:id/delete`,
  summary: 'Delete a lead list',
  handler: async ({ params }, ctx) =>
    (await deleteList(ctx.deps.sequelize, ctx.session.accountId, params.id ?? '')) ? { redirect: `${PATH}?notice=deleted` } : notFound(ctx),
});

export const leadListPageRoutes: readonly AnyRoute[] = [page, create, rename, remove];

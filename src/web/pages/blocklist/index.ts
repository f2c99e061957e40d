import { Type } from '@sinclair/typebox';
import type { AnyRoute } from '../../../api/http/route';
import { parseBlocklistValue } from '../../../blocklist/blocklist-entry';
import { MAX_REASON } from '../../../blocklist/blocklist-import';
import { addEntries, listBlocklist, removeEntry, type BlocklistItem, type BlocklistItemType } from '../../../blocklist/blocklist-repository';
import { defineAction, definePage, errorPage, type PageContext, type PageResult } from '../../page-route';
import { renderTemplate } from '../../render';
import { noticeText, shownTime } from '../account/format';

/**
 * The blocklist (`/dashboard/blocklist`): the account's blocked addresses and domains a page at a
 * time, a form to add one (checked by the same parser as POST /v1/blocklist: an address, or a
 * domain that covers its subdomains), Remove per entry, and the suppression list (unsubscribes,
 * bounces, complaints) with its cause, read-only as in the API.
 */

const PATH = '/dashboard/blocklist';
const PER_PAGE = 50;

/** What the page shows: the entries (default), one kind, the suppressions, or everything. */
const VIEWS = {
  entries: { label: 'Blocked addresses and domains', types: ['address', 'domain'] },
  address: { label: 'Blocked addresses', types: ['address'] },
  domain: { label: 'Blocked domains', types: ['domain'] },
  suppression: { label: 'Suppressions (unsubscribes, bounces, complaints)', types: ['suppression'] },
  all: { label: 'Everything', types: ['address', 'domain', 'suppression'] },
} as const satisfies Record<string, { label: string; types: readonly BlocklistItemType[] }>;
type View = keyof typeof VIEWS;

const CAUSES: Readonly<Record<string, string>> = {
  unsubscribe: 'unsubscribed',
  bounce: 'bounced',
  complaint: 'complained (marked as spam)',
  reply_unsubscribe: 'asked in a reply to be taken off',
  manual: 'suppressed by hand',
};
const SOURCES: Readonly<Record<string, string>> = { user: 'added by you', import: 'imported from a CSV', do_not_contact: 'lead marked do not contact' };

const NOTICES: Readonly<Record<string, string>> = {
  added: 'Blocked: no campaign of yours emails it from now on, even an email already planned.',
  'already-listed': 'That was already on the blocklist; its first reason stays.',
  removed: 'The entry was removed from the blocklist. Suppressions (unsubscribes, bounces) still apply.',
};

const PageQuery = Type.Object(
  {
    view: Type.Optional(Type.Union(Object.keys(VIEWS).map((v) => Type.Literal(v)))),
    q: Type.Optional(Type.String({ maxLength: 254 })),
    page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000 })),
    notice: Type.Optional(Type.String({ maxLength: 40 })),
  },
  { additionalProperties: false },
);
/** Longer than any valid value or reason, so the page (not Ajv) says what is wrong. */
const AddForm = Type.Object({ value: Type.String({ maxLength: 4096 }), reason: Type.Optional(Type.String({ maxLength: MAX_REASON * 4 })) }, { additionalProperties: false });

interface Filter {
  readonly view: View;
  readonly q: string;
  readonly page: number;
}

function pageHref(f: Filter, page: number): string {
  const params = new URLSearchParams();
  if (f.view !== 'entries') params.set('view', f.view);
  if (f.q !== '') params.set('q', f.q);
  if (page > 1) params.set('page', String(page));
  const s = params.toString();
  return `${PATH}${s === '' ? '' : `?${s}`}`;
}

function itemView(i: BlocklistItem) {
  return {
    id: i.id,
    type: i.type,
    typeText: i.type === 'suppression' ? 'Suppressed address' : i.type === 'domain' ? 'Domain (and its subdomains)' : 'Address',
    value: i.value,
    why: i.type === 'suppression' ? (CAUSES[i.cause ?? ''] ?? i.cause ?? 'suppressed') : (i.reason ?? ''),
    source: i.source === null ? null : (SOURCES[i.source] ?? i.source),
    created: shownTime(new Date(i.createdAt)),
  };
}

interface PageState {
  readonly filter: Filter;
  readonly notice?: string;
  readonly addError?: { readonly message: string; readonly value: string; readonly reason: string };
}

async function blocklistPage(ctx: PageContext, st: PageState): Promise<string> {
  const f = st.filter;
  const { items, total } = await listBlocklist(ctx.deps.sequelize, ctx.session.accountId, { types: new Set(VIEWS[f.view].types), q: f.q }, f.page, PER_PAGE);
  const pages = Math.max(1, Math.ceil(total / PER_PAGE));
  return renderTemplate('blocklist', {
    title: 'Blocklist',
    session: ctx.session,
    nav: 'blocklist',
    notice: st.notice,
    items: items.map(itemView),
    total,
    views: Object.entries(VIEWS).map(([value, v]) => ({ value, label: v.label })),
    filter: f,
    page: f.page,
    pages,
    prev: f.page > 1 ? pageHref(f, f.page - 1) : null,
    next: f.page < pages ? pageHref(f, f.page + 1) : null,
    returnQuery: pageHref(f, f.page).slice(PATH.length),
    maxReason: MAX_REASON,
    addError: st.addError?.message ?? null,
    addValue: st.addError?.value ?? '',
    addReason: st.addError?.reason ?? '',
  });
}

const FIRST: Filter = { view: 'entries', q: '', page: 1 };

const page = definePage({
  path: PATH,
  summary: 'Blocklist',
  query: PageQuery,
  handler: async ({ query }, ctx) => ({
    html: await blocklistPage(ctx, {
      filter: { view: (query.view as View | undefined) ?? 'entries', q: ((query.q as string | undefined) ?? '').trim(), page: (query.page as number | undefined) ?? 1 },
      notice: noticeText(NOTICES, query.notice),
    }),
  }),
});

const add = defineAction({
  path: PATH,
  summary: 'Block an address or a domain',
  form: AddForm,
  handler: async ({ form }, ctx): Promise<PageResult> => {
    const value = form.value ?? '';
    const reason = (form.reason ?? '').trim();
    const refuse = async (message: string): Promise<PageResult> => ({ status: 400, html: await blocklistPage(ctx, { filter: FIRST, addError: { message, value, reason } }) });
    const parsed = parseBlocklistValue(value);
    if (!parsed.ok) return refuse(`Not added: ${parsed.error}.`);
    if (reason.length > MAX_REASON) return refuse(`Not added: the reason is ${reason.length} characters long, at most ${MAX_REASON}.`);
    const [entry] = await addEntries(ctx.deps.sequelize, ctx.session.accountId, [{ ...parsed.entry, reason: reason === '' ? null : reason }], 'user');
    return { redirect: `${PATH}?notice=${entry?.status === 'already_listed' ? 'already-listed' : 'added'}` };
  },
});

/** Where Remove comes back to: the list as it was filtered (only its own parameters). */
const RemoveForm = Type.Object({ back: Type.Optional(Type.String({ maxLength: 400, pattern: '^(\\?[A-Za-z0-9_\\-=&%.+]*)?$' })) }, { additionalProperties: false });

const remove = defineAction({
  path: `${PATH}/:id/remove`,
  summary: 'Remove a blocklist entry',
  form: RemoveForm,
  handler: async ({ params, form }, ctx): Promise<PageResult> => {
    if (!(await removeEntry(ctx.deps.sequelize, ctx.session.accountId, params.id ?? ''))) return errorPage(404, 'Blocklist entry not found.', ctx.session);
    const back = new URLSearchParams((form.back ?? '').replace(/^\?/, ''));
    back.set('notice', 'removed');
    return { redirect: `${PATH}?${back.toString()}` };
  },
});

export const blocklistPageRoutes: readonly AnyRoute[] = [page, add, remove];

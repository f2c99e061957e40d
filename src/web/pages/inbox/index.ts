import { Type } from '@sinclair/typebox';
import type { AnyRoute } from '../../../api/http/route';
import { isCalendarDate } from '../../../campaigns/model/schedule';
import { REPLY_CATEGORIES, type ReplyCategory } from '../../../db/models/reply';
import { InvalidInputError, NotFoundError } from '../../../errors/domain-errors';
import type { InboxReply } from '../../../replies/inbox/inbox-item';
import { listReplies } from '../../../replies/inbox/list-replies';
import { receivedRange } from '../../../replies/inbox/received-range';
import { updateReply } from '../../../replies/inbox/update-reply';
import { defineAction, definePage, type PageContext, type PageResult } from '../../page-route';
import { renderTemplate } from '../../render';
import { dateTime } from '../../view/format';
import { noticeText } from '../account/format';
import { inboxChoices } from './inbox-choices';
import { CATEGORY_CHOICES, labelView } from './label-view';
import { backTo, threadHref } from './links';

/**
 * The inbox (`/dashboard/inbox`): every reply and automatic answer of the account across its
 * campaigns, unread first and newest first within each, filtered by campaign, category, read
 * state, mailbox and received dates; each links to the lead's thread. The same functions as
 * GET and PATCH /v1/replies (src/replies/inbox), so the page can do nothing the API cannot.
 */

const PER_PAGE = 50;

export const LABEL_NOTICES: Readonly<Record<string, string>> = {
  labelled: 'The label is saved: the campaign\'s figures and the lead\'s state follow it.',
  unlabelled: 'Your label is removed: the model\'s label applies again.',
  unread: 'Marked as unread.',
  read: 'Marked as read.',
};

const DateParam = Type.String({ maxLength: 10, pattern: '^(\\d{4}-\\d{2}-\\d{2})?$' });
const PageQuery = Type.Object(
  {
    campaign: Type.Optional(Type.String({ maxLength: 100 })),
    category: Type.Optional(Type.Union([Type.Literal(''), ...REPLY_CATEGORIES.map((c) => Type.Literal(c))])),
    status: Type.Optional(Type.Union([Type.Literal(''), Type.Literal('unread'), Type.Literal('read')])),
    mailbox: Type.Optional(Type.String({ maxLength: 100 })),
    from: Type.Optional(DateParam),
    to: Type.Optional(DateParam),
    page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000 })),
    notice: Type.Optional(Type.String({ maxLength: 40 })),
  },
  { additionalProperties: false },
);

interface Filters {
  readonly campaign: string;
  readonly category: ReplyCategory | '';
  readonly status: '' | 'unread' | 'read';
  readonly mailbox: string;
  readonly from: string;
  readonly to: string;
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

function filtersOf(query: Record<string, unknown>): Filters {
  const f: Filters = {
    campaign: str(query.campaign),
    category: str(query.category) as ReplyCategory | '',
    status: str(query.status) as Filters['status'],
    mailbox: str(query.mailbox),
    from: str(query.from),
    to: str(query.to),
  };
  for (const [name, value] of [['from', f.from], ['to', f.to]] as const) {
    if (value !== '' && !isCalendarDate(value)) throw new InvalidInputError(`"${value}" is not a date (${name}): use YYYY-MM-DD`);
  }
  if (f.from !== '' && f.to !== '' && f.to < f.from) throw new InvalidInputError('The "to" date is before the "from" date');
  return f;
}

function pageHref(f: Filters, page: number): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(f)) if (v !== '') params.set(k, v);
  if (page > 1) params.set('page', String(page));
  const s = params.toString();
  return `/dashboard/inbox${s === '' ? '' : `?${s}`}`;
}

function rowView(r: InboxReply) {
  return {
    id: r.id,
    from: r.name === null ? r.email : `${r.name} <${r.email}>`,
    company: r.company,
    campaign: r.campaignName,
    campaignId: r.campaignId,
    mailbox: r.mailbox?.fromEmail ?? null,
    kind: r.kind === 'auto_reply' ? 'Automatic answer' : null,
    subject: r.subject,
    preview: r.preview,
    label: labelView(r),
    unread: !r.read,
    at: dateTime(r.receivedAt),
    href: r.leadId === null ? null : threadHref(r.leadId, r.id),
  };
}

async function inboxPage(ctx: PageContext, f: Filters, page: number, notice?: string): Promise<string> {
  const { sequelize } = ctx.deps;
  const accountId = ctx.session.accountId;
  const [list, choices] = await Promise.all([
    listReplies(sequelize, accountId, {
      campaignId: f.campaign === '' ? undefined : f.campaign,
      category: f.category === '' ? undefined : f.category,
      unread: f.status === '' ? undefined : f.status === 'unread',
      mailboxId: f.mailbox === '' ? undefined : f.mailbox,
      ...receivedRange(f.from === '' ? undefined : f.from, f.to === '' ? undefined : f.to),
      page,
      perPage: PER_PAGE,
      unreadFirst: true,
    }),
    inboxChoices(sequelize, accountId),
  ]);
  const pages = Math.max(1, Math.ceil(list.total / PER_PAGE));
  const filtered = Object.values(f).some((v) => v !== '');
  return renderTemplate('inbox', {
    title: list.unread > 0 ? `Inbox (${list.unread} unread)` : 'Inbox',
    session: ctx.session,
    nav: 'inbox',
    notice,
    filters: f,
    filtered,
    campaigns: choices.campaigns.map((c) => ({ ...c, selected: c.id === f.campaign })),
    mailboxes: choices.mailboxes.map((m) => ({ ...m, selected: m.id === f.mailbox })),
    categories: CATEGORY_CHOICES.map((c) => ({ ...c, selected: c.value === f.category })),
    replies: list.replies.map(rowView),
    total: list.total,
    unread: list.unread,
    page,
    pages,
    here: pageHref(f, page),
    prev: page > 1 ? pageHref(f, page - 1) : null,
    next: page < pages ? pageHref(f, page + 1) : null,
  });
}

const page = definePage({
  path: '/dashboard/inbox',
  summary: 'Every reply across campaigns',
  query: PageQuery,
  handler: async ({ query }, ctx) => ({
    html: await inboxPage(ctx, filtersOf(query), (query.page as number | undefined) ?? 1, noticeText(LABEL_NOTICES, query.notice)),
  }),
});

const BackField = Type.Optional(Type.String({ maxLength: 2000 }));
const LabelForm = Type.Object({ category: Type.Union([Type.Literal(''), ...REPLY_CATEGORIES.map((c) => Type.Literal(c))]), back: BackField }, { additionalProperties: false });
const ReadForm = Type.Object({ read: Type.Union([Type.Literal('true'), Type.Literal('false')]), back: BackField }, { additionalProperties: false });

/** A reply's label corrected (or the user's label dropped: the model's applies again), as PATCH /v1/replies/:id does. */
const label = defineAction({
  path: '/dashboard/replies/:id/label',
  summary: "Correct a reply's category",
  form: LabelForm,
  handler: async ({ params, form }, ctx): Promise<PageResult> => {
    const category = form.category === '' ? null : (form.category as ReplyCategory);
    const done = await updateReply({ sequelize: ctx.deps.sequelize, leadFacts: ctx.deps.leadFacts }, ctx.session.accountId, params.id ?? '', { category }, ctx.session.keyId);
    if (done === null) throw new NotFoundError('reply');
    return { redirect: backTo(form.back, category === null ? 'unlabelled' : 'labelled') };
  },
});

const read = defineAction({
  path: '/dashboard/replies/:id/read',
  summary: 'Mark a reply read or unread',
  form: ReadForm,
  handler: async ({ params, form }, ctx): Promise<PageResult> => {
    const isRead = form.read === 'true';
    const done = await updateReply({ sequelize: ctx.deps.sequelize }, ctx.session.accountId, params.id ?? '', { read: isRead }, ctx.session.keyId);
    if (done === null) throw new NotFoundError('reply');
    return { redirect: backTo(form.back, isRead ? 'read' : 'unread') };
  },
});

export const inboxRoutes: readonly AnyRoute[] = [page, label, read];

import { Type } from '@sinclair/typebox';
import type { AnyRoute } from '../../../api/http/route';
import { enrolByHand } from '../../../campaigns/control/enrol-by-hand';
import { removeByHand } from '../../../campaigns/control/remove-by-hand';
import { listEnrolments } from '../../../campaigns/enrolment/enrolment-repository';
import { ENROLMENT_STATES, type EnrolmentState } from '../../../campaigns/enrolment/states';
import { ConflictError } from '../../../errors/domain-errors';
import { defineAction, definePage, errorPage, type PageContext, type PageResult } from '../../page-route';
import { renderTemplate } from '../../render';
import { noticeText } from '../account/format';
import { campaignHeading } from './campaign-leads-data';
import { enrolLines, MAX_ENROL_LINES } from './enrol-lines';
import { enrolmentRowView, enrolOutcomeView, stateFilter, type EnrolOutcomeView } from './enrolment-view';

/**
 * A campaign's leads (`/dashboard/campaigns/:id/leads`): its enrolments a page at a time with
 * their state, step, next send and reason, filtered by state; a box to enrol leads by address;
 * a Remove button per lead whose sequence is under way. The same functions as
 * GET/POST/DELETE /campaigns/:id/leads (src/campaigns/enrolment), so the page can do nothing the
 * API cannot (enrolByHand and removeByHand are the API's own). A campaign holds up to 50,000 leads, hence a page of its own rather than a table on
 * the campaign page.
 */

const PER_PAGE = 50;
/** One address a line, 1,000 of the longest (254 characters, url-encoded) fit. */
const ENROL_FORM_BYTES = 1024 * 1024;
const ENDED: readonly string[] = ['completed', 'failed'];

const NOTICES: Readonly<Record<string, string>> = {
  removed: 'The lead was removed from the campaign: no further email of this campaign is sent to them.',
};

const StateParam = Type.Union([Type.Literal(''), ...ENROLMENT_STATES.map((s) => Type.Literal(s))]);

const PageQuery = Type.Object(
  {
    state: Type.Optional(StateParam),
    page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000 })),
    notice: Type.Optional(Type.String({ maxLength: 40 })),
  },
  { additionalProperties: false },
);

const EnrolForm = Type.Object({ emails: Type.String({ maxLength: ENROL_FORM_BYTES }) }, { additionalProperties: false });
const RemoveForm = Type.Object({ state: Type.Optional(StateParam), page: Type.Optional(Type.String({ pattern: '^[0-9]{1,6}$' })) }, { additionalProperties: false });

const leadsPath = (id: string): string => `/dashboard/campaigns/${encodeURIComponent(id)}/leads`;

function pageHref(id: string, state: string, page: number, notice?: string): string {
  const params = new URLSearchParams();
  if (state !== '') params.set('state', state);
  if (page > 1) params.set('page', String(page));
  if (notice !== undefined) params.set('notice', notice);
  const s = params.toString();
  return `${leadsPath(id)}${s === '' ? '' : `?${s}`}`;
}

interface PageState {
  readonly state: EnrolmentState | '';
  readonly page: number;
  readonly notice?: string;
  readonly outcome?: EnrolOutcomeView;
  /** A refused enrolment: the message and the box's text, shown again. */
  readonly enrolError?: { readonly message: string; readonly value: string };
}

async function leadsPage(ctx: PageContext, campaignId: string, st: PageState): Promise<string> {
  const { sequelize } = ctx.deps;
  const campaign = await campaignHeading(sequelize, ctx.session.accountId, campaignId);
  const list = await listEnrolments(sequelize, campaign.id, { state: st.state === '' ? undefined : st.state, limit: PER_PAGE, offset: (st.page - 1) * PER_PAGE });
  const pages = Math.max(1, Math.ceil(list.total / PER_PAGE));
  return renderTemplate('campaign-leads', {
    title: `Leads · ${campaign.name}`,
    session: ctx.session,
    nav: 'campaigns',
    notice: st.notice,
    campaign,
    ended: ENDED.includes(campaign.status),
    base: `/dashboard/campaigns/${encodeURIComponent(campaign.id)}`,
    leads: list.leads.map(enrolmentRowView),
    total: list.total,
    filter: stateFilter(list.states, st.state).map((f) => ({ ...f, href: pageHref(campaign.id, f.value, 1) })),
    state: st.state,
    page: st.page,
    pages,
    prev: st.page > 1 ? pageHref(campaign.id, st.state, st.page - 1) : null,
    next: st.page < pages ? pageHref(campaign.id, st.state, st.page + 1) : null,
    outcome: st.outcome ?? null,
    enrolError: st.enrolError?.message ?? null,
    enrolInput: st.enrolError?.value ?? '',
    maxLines: MAX_ENROL_LINES,
  });
}

const page = definePage({
  path: '/dashboard/campaigns/:id/leads',
  summary: "A campaign's leads",
  query: PageQuery,
  handler: async ({ params, query }, ctx) => ({
    html: await leadsPage(ctx, params.id ?? '', {
      state: (query.state as EnrolmentState | '' | undefined) ?? '',
      page: (query.page as number | undefined) ?? 1,
      notice: noticeText(NOTICES, query.notice),
    }),
  }),
});

const enrolAction = defineAction({
  path: '/dashboard/campaigns/:id/leads/enrol',
  summary: 'Enrol leads into a campaign by address',
  form: EnrolForm,
  handler: async ({ params, form }, ctx): Promise<PageResult> => {
    const id = params.id ?? '';
    const text = form.emails ?? '';
    const refuse = async (status: number, message: string): Promise<PageResult> => ({
      status,
      html: await leadsPage(ctx, id, { state: '', page: 1, enrolError: { message, value: text } }),
    });
    // The heading's read says "not found" for another account's campaign before anything else.
    const campaign = await campaignHeading(ctx.deps.sequelize, ctx.session.accountId, id);
    if (ENDED.includes(campaign.status)) return refuse(409, `This campaign is ${campaign.status}: no lead can be enrolled into it any more.`);
    const lines = enrolLines(text);
    if (!lines.ok) return refuse(400, lines.error);
    try {
      const result = await enrolByHand(ctx.deps.sequelize, ctx.session.accountId, id, { emails: lines.emails });
      return { html: await leadsPage(ctx, id, { state: '', page: 1, outcome: enrolOutcomeView(lines.emails.length, result) }) };
    } catch (err) {
      // The campaign ended between the check above and the enrolment's locked read.
      if (err instanceof ConflictError) return refuse(409, `This campaign has ended: no lead can be enrolled into it any more.`);
      throw err;
    }
  },
});

/** The enrol form's 16 KB default holds ~500 addresses; this one takes the API's 1,000. */
const enrol: AnyRoute = { ...enrolAction, rawBody: { ...enrolAction.rawBody!, maxBytes: ENROL_FORM_BYTES } };

const remove = defineAction({
  path: '/dashboard/campaigns/:id/leads/:leadId/remove',
  summary: 'Remove a lead from a campaign',
  form: RemoveForm,
  handler: async ({ params, form }, ctx): Promise<PageResult> => {
    const id = params.id ?? '';
    const removed = await removeByHand({ sequelize: ctx.deps.sequelize, temporal: ctx.deps.temporal, log: ctx.log }, ctx.session.accountId, id, params.leadId ?? '');
    if (!removed) return errorPage(404, 'That lead is not in this campaign.', ctx.session);
    return { redirect: pageHref(id, (form.state as string | undefined) ?? '', Number(form.page ?? 1), 'removed') };
  },
});

export const campaignLeadsRoutes: readonly AnyRoute[] = [page, enrol, remove];

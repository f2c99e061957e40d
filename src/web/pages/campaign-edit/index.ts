import { Type } from '@sinclair/typebox';
import type { AppDeps } from '../../../api/deps';
import { toHttpError } from '../../../api/http/error-middleware';
import { badRequest, HttpError } from '../../../api/http/errors';
import type { AnyRoute } from '../../../api/http/route';
import { compileValidator } from '../../../api/http/validation';
import { editDeps } from '../../../api/resources/campaigns/campaign-deps';
import { patchFromA } from '../../../api/resources/campaigns/patch-fields';
import { PatchCampaignBodyA } from '../../../api/resources/campaigns/patch-schemas';
import { withTemporal } from '../../../api/resources/campaigns/temporal-unavailable';
import { ownedCampaign } from '../../../campaigns/campaign-repository';
import { actorOf } from '../../../campaigns/edit/actor';
import { changesPage } from '../../../campaigns/edit/change-repository';
import { editCampaign } from '../../../campaigns/edit/edit-campaign';
import { storedCampaign } from '../../../campaigns/edit/stored-campaign';
import { presetSequence, SEQUENCE_LIMITS, type CampaignSequence } from '../../../campaigns/model/sequence';
import { findTemplate } from '../../../campaigns/model/templates';
import { moveAllowed, refusedMoveReason } from '../../../campaigns/model/transitions';
import type { Campaign } from '../../../db/models';
import { ConflictError } from '../../../errors/domain-errors';
import { defineAction, definePage, type PageContext, type PageResult } from '../../page-route';
import { renderTemplate } from '../../render';
import { changeRow } from './change-view';
import { bodyOfForm, changedMembers, type PatchBody } from './form-body';
import { formOfCampaign, type FormValues } from './form-values';
import { editFormView } from './edit-view';
import { mailboxChoices, refuseDeactivated, type MailboxChoice } from './mailbox-choices';

/**
 * The campaign's edit form and its history of changes. The form's fields become a Surface A PATCH
 * body (form-body.ts), checked by the API's own schema and applied by the same editCampaign the
 * API's PATCH calls (an Update of the running workflow, or a direct write for a draft): the page
 * can change nothing the API could not, and its changes are recorded as the dashboard's.
 */

const PATH = '/dashboard/campaigns/:id';
const CHANGES_PER_PAGE = 20;

/** Any field name; the values are bounded by the longest the PATCH takes (a step's body). */
const EditForm = Type.Object({}, { additionalProperties: Type.String({ maxLength: SEQUENCE_LIMITS.body }), maxProperties: 500 });

/** Refusals shown on the form, with what was typed kept: a bad value, a campaign that cannot change, Temporal away. */
const SHOWN_ON_FORM = new Set([400, 409, 422, 503]);

const validatePatch = compileValidator('body', PatchCampaignBodyA);

/** The API's schema check, its message naming the member as the form's other messages do (no "body." in front). */
function checkPatch(body: PatchBody): void {
  try {
    validatePatch(body);
  } catch (err) {
    if (err instanceof HttpError) throw badRequest(err.message.replace(/^body\./, ''));
    throw err;
  }
}

interface Editable {
  readonly row: Campaign;
  readonly values: FormValues;
  /** The sequence the form shows: the stored one, or the preset a campaign stored before sequences sends. */
  readonly sequence: CampaignSequence | null;
  /** The mailboxes the form offers: the account's active ones and the deactivated ones the campaign names. */
  readonly mailboxes: readonly MailboxChoice[];
}

/** The account's campaign as the form shows it; a completed or failed one is a 409 page. */
async function editable(deps: AppDeps, accountId: string, id: string): Promise<Editable> {
  const row = await ownedCampaign(accountId, id);
  if (!moveAllowed('edit', row.status)) throw new ConflictError(refusedMoveReason('edit', id, row.status));
  const current = await storedCampaign(deps.sequelize, row);
  const template = findTemplate(row.mcp);
  const sequence = current.sequence ?? (template === undefined ? null : presetSequence(template));
  return { row, values: formOfCampaign(current, sequence), sequence, mailboxes: await mailboxChoices(accountId, current.mailboxIds) };
}

function formPage(ctx: PageContext, { row, mailboxes }: Pick<Editable, 'row' | 'mailboxes'>, values: FormValues, error: string | null, status = 200): PageResult {
  const html = renderTemplate('campaign-edit', {
    title: `Edit ${row.name}`,
    session: ctx.session,
    nav: 'campaigns',
    notice: null,
    id: row.id,
    campaignName: row.name,
    status: row.status,
    error,
    form: editFormView(values, mailboxes),
  });
  return { status, html };
}

const back = (id: string, notice: string): PageResult => ({ redirect: `/dashboard/campaigns/${encodeURIComponent(id)}?notice=${notice}` });

const editPage = definePage({
  path: `${PATH}/edit`,
  summary: 'Edit a campaign',
  handler: async ({ params }, ctx) => {
    const shown = await editable(ctx.deps, ctx.session.accountId, params.id ?? '');
    return formPage(ctx, shown, shown.values, null);
  },
});

/**
 * The edit form carries the whole sequence: up to 10 steps of 5 variants, each body up to 20,000
 * characters, which percent-encoding may triple. 4 MiB holds the largest.
 */
const EDIT_FORM_MAX_BYTES = 4 * 1024 * 1024;

const saveEdit = defineAction({
  path: `${PATH}/edit`,
  summary: 'Change a campaign',
  form: EditForm,
  maxBytes: EDIT_FORM_MAX_BYTES,
  handler: async ({ params, form }, ctx) => {
    const { deps, session } = ctx;
    const id = params.id ?? '';
    const shown = await editable(deps, session.accountId, id);
    const { values, sequence } = shown;
    try {
      const body = changedMembers(bodyOfForm(form, sequence), bodyOfForm(values, sequence));
      if (Object.keys(body).length === 0) return back(id, 'unchanged');
      refuseDeactivated(body.mailbox_ids, shown.mailboxes);
      checkPatch(body);
      const result = await withTemporal('change the campaign', () =>
        editCampaign(editDeps(deps), session.accountId, id, actorOf(session, 'dashboard'), (current) => patchFromA(body, current, deps.config)),
      );
      return back(id, result.fields.length === 0 ? 'unchanged' : 'edited');
    } catch (err) {
      const http = toHttpError(err);
      if (http === undefined || !SHOWN_ON_FORM.has(http.status)) throw err;
      return formPage(ctx, shown, form, http.message, http.status);
    }
  },
});

const ChangesQuery = Type.Object({ page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })) }, { additionalProperties: false });

const changesList = definePage({
  path: `${PATH}/changes`,
  summary: 'The history of a campaign\'s changes',
  query: ChangesQuery,
  handler: async ({ params, query }, ctx) => {
    const c = await ownedCampaign(ctx.session.accountId, params.id ?? '');
    const page = (query.page as number | undefined) ?? 1;
    const { rows, total } = await changesPage(ctx.deps.sequelize, c.id, { limit: CHANGES_PER_PAGE, offset: (page - 1) * CHANGES_PER_PAGE });
    const pages = Math.max(1, Math.ceil(total / CHANGES_PER_PAGE));
    const href = (n: number) => `/dashboard/campaigns/${encodeURIComponent(c.id)}/changes${n === 1 ? '' : `?page=${n}`}`;
    return {
      html: renderTemplate('campaign-changes', {
        title: `Changes of ${c.name}`,
        session: ctx.session,
        nav: 'campaigns',
        notice: null,
        id: c.id,
        campaignName: c.name,
        zone: c.timezone,
        rows: rows.map((r) => changeRow(r, c.timezone)),
        total,
        page,
        pages,
        prev: page > 1 ? href(page - 1) : null,
        next: page < pages ? href(page + 1) : null,
      }),
    };
  },
});

export const campaignEditRoutes: readonly AnyRoute[] = [editPage, saveEdit, changesList];

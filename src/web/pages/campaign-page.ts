import { Type } from '@sinclair/typebox';
import type { AnyRoute } from '../../api/http/route';
import { controlDeps, previewDeps, startDeps } from '../../api/resources/campaigns/campaign-deps';
import { campaignExport } from '../../api/resources/campaigns/export-file';
import { withTemporal } from '../../api/resources/campaigns/temporal-unavailable';
import { ownedCampaign } from '../../campaigns/campaign-repository';
import { pauseCampaign, resumeCampaign } from '../../campaigns/control/campaign-control';
import { duplicateCampaign } from '../../campaigns/control/duplicate-campaign';
import { startDraft } from '../../campaigns/control/start-draft';
import { actorOf } from '../../campaigns/edit/actor';
import { previewCampaign } from '../../campaigns/sequences/preview-requests';
import { NotFoundError } from '../../errors/domain-errors';
import { findStoredLead } from '../../leads/lead-repository';
import { defineAction, definePage, type PageResult } from '../page-route';
import { DELIVERY_NOTICES } from './account';
import { noticeText } from './account/format';
import { renderTemplate } from '../render';
import { campaignPageData } from './campaign/campaign-page-data';
import { campaignView, type StepPreviewView } from './campaign/campaign-view';
import { PREVIEW_HEADERS, previewReport, sendReportNow } from '../../api/resources/campaign-reports/report-actions';

/**
 * The page of one campaign (`dashboard_url`), its controls, its export and its report-now
 * button. Every change goes through the service the API uses (pause, stop and resume through
 * campaign-control, which asks the workflow; duplicate and start as POST .../duplicate with
 * start false and POST .../start do), so the page can do nothing the API cannot. The edit form
 * and the history of changes are in campaign-edit/.
 */

/** What an action's redirect may say; anything else in the query is ignored. */
const NOTICES: Readonly<Record<string, string>> = {
  paused: 'The campaign is paused: no further email of it is sent until you resume it.',
  stopped: 'The campaign is stopped (paused): no further email of it is sent until you resume it.',
  resumed: 'The campaign is resumed.',
  report: 'A report for the period so far is on its way to the reporting address.',
  edited: 'Your changes are saved: the campaign follows them from its next sending slot. They are listed under Changes.',
  unchanged: 'Nothing was changed: the form held the campaign\'s values as they are.',
  copied: 'A draft copy was created: edit it if you like, then start it. Nothing is sent until you do.',
  started: 'The campaign is starting: its workflow runs and it sends on its schedule.',
  ...DELIVERY_NOTICES,
};

const PageQuery = Type.Object(
  {
    notice: Type.Optional(Type.String({ maxLength: 40 })),
    preview_lead: Type.Optional(Type.String({ maxLength: 320 })),
    preview_step: Type.Optional(Type.Integer({ minimum: 1, maximum: 10 })),
  },
  { additionalProperties: false },
);

async function stepPreview(deps: Parameters<typeof previewDeps>[0], accountId: string, campaignId: string, who: string, step: number): Promise<StepPreviewView> {
  const wanted = who.trim();
  const lead = wanted.includes('@')
    ? await findStoredLead(deps.sequelize, accountId, { kind: 'email', email: wanted.toLowerCase() })
    : { id: wanted };
  if (lead === null || wanted === '') return { who: wanted, step, problem: `No lead of yours has the address ${wanted}.`, preview: null };
  try {
    const answer = await previewCampaign(previewDeps(deps), accountId, campaignId, lead.id, { spamCheck: false });
    const preview = answer.steps.find((s) => s.step === step) ?? null;
    return { who: answer.lead.email, step, problem: preview === null ? `The sequence has no step ${step}.` : null, preview };
  } catch (err) {
    if (err instanceof NotFoundError) return { who: wanted, step, problem: `No lead of yours is ${wanted}.`, preview: null };
    throw err;
  }
}

const page = definePage({
  path: '/dashboard/campaigns/:id',
  summary: 'A campaign',
  query: PageQuery,
  handler: async ({ params, query }, { deps, session }) => {
    const id = params.id ?? '';
    const data = await campaignPageData(deps.sequelize, deps.config, session.accountId, id);
    const who = query.preview_lead as string | undefined;
    const step = (query.preview_step as number | undefined) ?? 1;
    const preview = who === undefined ? null : await stepPreview(deps, session.accountId, id, who, step);
    const notice = noticeText(NOTICES, query.notice) ?? null;
    const view = await campaignView(data, preview);
    return { html: renderTemplate('campaign', { title: data.campaign.name, session, nav: 'campaigns', notice, ...view }) };
  },
});

const back = (id: string, notice: string): PageResult => ({ redirect: `/dashboard/campaigns/${encodeURIComponent(id)}?notice=${notice}` });

const pause = defineAction({
  path: '/dashboard/campaigns/:id/pause',
  summary: 'Pause a campaign',
  handler: async ({ params }, { deps, session }) => {
    await withTemporal('pause the campaign', () => pauseCampaign(controlDeps(deps), session.accountId, params.id ?? '', actorOf(session, 'dashboard')));
    return back(params.id ?? '', 'paused');
  },
});

const stop = defineAction({
  path: '/dashboard/campaigns/:id/stop',
  summary: 'Stop a campaign',
  handler: async ({ params }, { deps, session }) => {
    await withTemporal('stop the campaign', () => pauseCampaign(controlDeps(deps), session.accountId, params.id ?? '', actorOf(session, 'dashboard'), 'stop'));
    return back(params.id ?? '', 'stopped');
  },
});

const resume = defineAction({
  path: '/dashboard/campaigns/:id/resume',
  summary: 'Resume a campaign',
  handler: async ({ params }, { deps, session }) => {
    await withTemporal('resume the campaign', () => resumeCampaign(controlDeps(deps), session.accountId, params.id ?? '', actorOf(session, 'dashboard')));
    return back(params.id ?? '', 'resumed');
  },
});

const duplicate = defineAction({
  path: '/dashboard/campaigns/:id/duplicate',
  summary: 'Copy a campaign into a draft',
  handler: async ({ params }, { deps, session }) => {
    // A draft never touches Temporal: the copy starts only when someone presses Start on it.
    const copy = await duplicateCampaign(startDeps(deps), session.accountId, params.id ?? '', { start: false, via: 'a' });
    return back(copy.id, 'copied');
  },
});

const start = defineAction({
  path: '/dashboard/campaigns/:id/start',
  summary: 'Start a draft',
  handler: async ({ params }, { deps, session }) => {
    await withTemporal('start the campaign', () => startDraft(startDeps(deps), session.accountId, params.id ?? ''));
    return back(params.id ?? '', 'started');
  },
});

const reportNow = defineAction({
  path: '/dashboard/campaigns/:id/reports',
  summary: 'Send a report now',
  handler: async ({ params }, { deps, session }) => {
    await sendReportNow(deps, session.accountId, params.id ?? '', undefined);
    return back(params.id ?? '', 'report');
  },
});

const reportPreviewPage = definePage({
  path: '/dashboard/campaigns/:id/report-preview',
  summary: 'The report of the period so far, not sent',
  handler: async ({ params }, { deps, session }) => ({ raw: await previewReport(deps, session.accountId, params.id ?? ''), headers: { ...PREVIEW_HEADERS } }),
});

const ExportQuery = Type.Object({ format: Type.Optional(Type.Union([Type.Literal('csv'), Type.Literal('json')])) }, { additionalProperties: false });

const exportFile = definePage({
  path: '/dashboard/campaigns/:id/export',
  summary: 'Export a campaign',
  query: ExportQuery,
  handler: async ({ params, query }, { deps, log, session }) => {
    const c = await ownedCampaign(session.accountId, params.id ?? '');
    const file = await campaignExport(deps.sequelize, c, (query.format as 'csv' | 'json' | undefined) ?? 'csv', log);
    return { raw: file.body, headers: file.headers };
  },
});

export const campaignPageRoutes: readonly AnyRoute[] = [exportFile, reportPreviewPage, page, pause, stop, resume, start, duplicate, reportNow];

import { ownedCampaign } from '../../../campaigns/campaign-repository';
import { pauseCampaign, resumeCampaign } from '../../../campaigns/control/campaign-control';
import { actorOf } from '../../../campaigns/edit/actor';
import { startCampaign } from '../../../campaigns/control/start-campaign';
import { readCampaign, readCampaignPage } from '../../../campaigns/reporting/campaign-read-model';
import { campaignStats } from '../../../campaigns/reporting/campaign-stats';
import { campaignStepReport } from '../../../campaigns/reporting/campaign-step-report';
import { previewCampaign } from '../../../campaigns/sequences/preview-requests';
import { previewB } from '../sequences/present';
import { CampaignPreviewBody, PreviewResponse } from '../sequences/schemas';
import { stepStatsB } from './present-step-stats';
import { StepStatsResponse } from './step-stats-schemas';
import { defineRoute } from '../../http/route';
import { controlDeps, previewDeps, startDeps } from './campaign-deps';
import { checkLeadLists, checkMailboxes } from './create-fields';
import { campaignFieldsFromB } from './create-fields-b';
import { campaignB, resumedB, statsB, stoppedB } from './present-b';
import { CampaignId } from './schemas';
import { CampaignB, CampaignListQueryB, CampaignListResponseB, CampaignStatsB, CreateCampaignBodyB, ResumedB, StoppedB } from './schemas-b';
import { withTemporal } from './temporal-unavailable';

/**
 * Surface B's campaign routes (X-API-Key, camelCase): the same rows, workflow, control and
 * reporting as Surface A's (routes-a.ts; stop is A's pause), rendered by present-b.ts. Another
 * account's campaign is a 404 worded exactly like a missing one.
 */

const create = defineRoute({
  method: 'post',
  path: '/v1/campaigns',
  auth: 'b',
  operationId: 'v1CreateCampaign',
  idempotent: true,
  summary: 'Create a campaign and start its workflow',
  description:
    'Stores the campaign (status starting) and starts its durable workflow, as POST /campaigns does: it scrapes brandUrl, plans its first ' +
    'leads, moves to running and sends the sales_outreach sequence every day between 09:00 and 17:00 UTC. brandUrl is checked like ' +
    'Surface A\'s target_url (a bare domain means https). 503, with nothing stored, when the workflow service is unavailable.',
  tags: ['campaigns'],
  body: CreateCampaignBodyB,
  responses: { 201: { description: 'The campaign, starting', schema: CampaignB } },
  errors: [503],
  handler: async ({ body }, { auth, deps }) => {
    const { fields, sequence, control } = campaignFieldsFromB(body, auth.accountId);
    await checkLeadLists(deps.sequelize, auth.accountId, control, 'leadListIds');
    await checkMailboxes(deps.sequelize, auth.accountId, fields, 'mailboxIds');
    const campaign = await withTemporal('start the campaign', () => startCampaign(startDeps(deps), fields, sequence, control));
    // Read back as GET renders it: the same read model, figures included.
    const created = await readCampaign(deps.sequelize, auth.accountId, campaign.id);
    return { status: 201, body: campaignB(created, deps.config), headers: { Location: `/v1/campaigns/${campaign.id}` } };
  },
});

const list = defineRoute({
  method: 'get',
  path: '/v1/campaigns',
  auth: 'b',
  operationId: 'v1ListCampaigns',
  summary: 'List the account\'s campaigns, newest first (made on either surface)',
  tags: ['campaigns'],
  query: CampaignListQueryB,
  responses: { 200: { description: 'A page of campaigns', schema: CampaignListResponseB } },
  handler: async ({ query }, { auth, deps }) => {
    const page = query.page ?? 1;
    const perPage = query.perPage ?? 20;
    // The same order as Surface A's list, and each item as GET renders it (the same read model).
    const { campaigns, total } = await readCampaignPage(deps.sequelize, auth.accountId, { status: query.status, limit: perPage, offset: (page - 1) * perPage });
    return { body: { campaigns: campaigns.map((c) => campaignB(c, deps.config)), pagination: { total, page, perPage } } };
  },
});

const get = defineRoute({
  method: 'get',
  path: '/v1/campaigns/:id',
  auth: 'b',
  operationId: 'v1GetCampaign',
  summary: 'A campaign: its settings, status and headline figures',
  tags: ['campaigns'],
  params: CampaignId,
  responses: { 200: { description: 'The campaign', schema: CampaignB } },
  errors: [404],
  handler: async ({ params }, { auth, deps }) => ({ body: campaignB(await readCampaign(deps.sequelize, auth.accountId, params.id), deps.config) }),
});

const stats = defineRoute({
  method: 'get',
  path: '/v1/campaigns/:id/stats',
  auth: 'b',
  operationId: 'v1GetCampaignStats',
  summary: 'A campaign\'s statistics: counts, rates and costs',
  description:
    'The figures of GET /campaigns/{id}/stats in camelCase. emailsSent counts sends; delivered, bounced, opened, clicked, replied and ' +
    'unsubscribed count emails (an email opened twice counts once); delivered excludes emails that bounced later. Rates divide by ' +
    'emailsSent (deliveryRate) or delivered (the others).',
  tags: ['campaigns'],
  params: CampaignId,
  responses: { 200: { description: 'The statistics', schema: CampaignStatsB } },
  errors: [404],
  handler: async ({ params }, { auth, deps }) => ({ body: statsB(await campaignStats(deps.sequelize, await ownedCampaign(auth.accountId, params.id))) }),
});

const stepStats = defineRoute({
  method: 'get',
  path: '/v1/campaigns/:id/stats/steps',
  auth: 'b',
  operationId: 'v1GetCampaignStepStats',
  summary: 'A campaign\'s figures per step and per variant',
  description: 'The figures of GET /campaigns/{id}/stats/steps in camelCase: every step of the sequence in use and every variant, with rates.',
  tags: ['campaigns'],
  params: CampaignId,
  responses: { 200: { description: 'The steps, first email first', schema: StepStatsResponse('camel') } },
  errors: [404],
  handler: async ({ params }, { auth, deps }) => {
    const c = await ownedCampaign(auth.accountId, params.id);
    const report = await campaignStepReport(deps.sequelize, auth.accountId, c.id);
    return { body: stepStatsB(c.id, report.steps, report.winners) };
  },
});

const preview = defineRoute({
  method: 'post',
  path: '/v1/campaigns/:id/preview',
  auth: 'b',
  operationId: 'v1PreviewCampaign',
  summary: 'Render the campaign\'s sequence for one lead, as it would be sent, without sending anything',
  description:
    'Every step of the sequence in use for `leadId`, written and composed as the campaign would send it (the variant the lead gets, or a decided ' +
    'winner; the sender and signature; tracked links and the open beacon as the campaign tracks them; the thread each step replies in), and why a ' +
    'step would be passed over for this lead. Where the host has SpamAssassin, each step\'s local score and the rules that fired. Nothing is sent or stored; ' +
    'an ai step with the account\'s LLM key is written by the model and charged as an `email-preview` cost of the campaign.',
  tags: ['campaigns'],
  params: CampaignId,
  body: CampaignPreviewBody,
  responses: { 200: { description: 'Each step as the lead would get it', schema: PreviewResponse } },
  errors: [404],
  handler: async ({ params, body }, { auth, deps }) => ({
    body: previewB(await previewCampaign(previewDeps(deps), auth.accountId, params.id, body.leadId, { spamCheck: body.spamCheck ?? true })),
  }),
});

const stop = defineRoute({
  method: 'post',
  path: '/v1/campaigns/:id/stop',
  auth: 'b',
  operationId: 'v1StopCampaign',
  summary: 'Stop a campaign (Surface A\'s pause)',
  description:
    'Allowed from starting, running and budget_paused; 409 otherwise. The campaign becomes paused (reason manual) on both surfaces, and ' +
    'when the answer arrives no further email of it is sent. POST /v1/campaigns/{id}/resume continues it.',
  tags: ['campaigns'],
  params: CampaignId,
  responses: { 200: { description: 'The campaign, stopped (status paused)', schema: StoppedB } },
  errors: [404, 409, 503],
  handler: async ({ params }, { auth, deps }) => ({
    body: stoppedB(await withTemporal('stop the campaign', () => pauseCampaign(controlDeps(deps), auth.accountId, params.id, actorOf(auth, 'api_b'), 'stop'))),
  }),
});

const resume = defineRoute({
  method: 'post',
  path: '/v1/campaigns/:id/resume',
  auth: 'b',
  operationId: 'v1ResumeCampaign',
  summary: 'Resume a stopped campaign',
  description:
    'Allowed from paused (stopped or paused on either surface), and from budget_paused once every budget limit has room again; 409 ' +
    'otherwise (also while the plan\'s monthly email quota is used up). A campaign stopped before it started goes back to starting.',
  tags: ['campaigns'],
  params: CampaignId,
  responses: { 200: { description: 'The campaign, resumed', schema: ResumedB } },
  errors: [404, 409, 503],
  handler: async ({ params }, { auth, deps }) => ({
    body: resumedB(await withTemporal('resume the campaign', () => resumeCampaign(controlDeps(deps), auth.accountId, params.id, actorOf(auth, 'api_b')))),
  }),
});

export const campaignRoutesB = [create, list, get, stats, stepStats, preview, stop, resume];

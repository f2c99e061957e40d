import type { Campaign } from '../../../db/models';
import { duplicateCampaign } from '../../../campaigns/control/duplicate-campaign';
import { startDraft } from '../../../campaigns/control/start-draft';
import { readCampaign } from '../../../campaigns/reporting/campaign-read-model';
import type { AppDeps } from '../../deps';
import { defineRoute } from '../../http/route';
import { startDeps } from './campaign-deps';
import { DuplicateCampaignBody } from './copy-schemas';
import { campaignB } from './present-b';
import { createdA } from './present-a';
import { CampaignId } from './schemas';
import { CreatedCampaignA } from './schemas-a';
import { CampaignB } from './schemas-b';
import { withTemporal } from './temporal-unavailable';

/**
 * Copies and drafts on both surfaces (docs/decisions.md, "Drafts and copies"): duplicate a
 * campaign, started or as a draft, and start a draft. Each answers with the campaign in its
 * surface's create shape: Surface A's created campaign, Surface B's campaign as GET renders it.
 */

const DUPLICATE_DESCRIPTION =
  'Copies the campaign\'s settings (template, target, audience text and filters, budget, schedule, reporting, tracking, calendar link, ' +
  'lead lists and lead control) and its sequence (the steps in use, as the copy\'s first version) into a new campaign. Any status may be ' +
  'copied, completed and failed included. Not copied: status, timestamps, figures, leads, decided variant tests. A start date already past ' +
  'is dropped: the copy starts now. `start: false` stores a draft: no workflow and no email until POST .../start. 404 for a campaign ' +
  'that is not the account\'s.';

const START_DESCRIPTION =
  'Starts a draft: its workflow starts from the stored settings and sequence (edits included) and the status becomes starting. A start ' +
  'date passed meanwhile is dropped. 409 for a campaign that is not a draft; 503, with the draft left as it was, when the workflow service ' +
  'is unavailable.';

/** The copy, with its workflow when it starts (a draft never touches Temporal). */
function duplicate(deps: AppDeps, accountId: string, id: string, body: { name?: string; start?: boolean }, via: 'a' | 'b'): Promise<Campaign> {
  const start = body.start ?? true;
  const opts = { start, via, ...(body.name === undefined ? {} : { name: body.name }) };
  return withTemporal('start the copy', () => duplicateCampaign(startDeps(deps), accountId, id, opts));
}

const duplicateA = defineRoute({
  method: 'post',
  path: '/campaigns/:id/duplicate',
  auth: 'a',
  operationId: 'duplicateCampaign',
  // A copy retried after a timeout with the same Idempotency-Key answers the first copy again.
  idempotent: true,
  summary: 'Copy a campaign into a new one, started or as a draft',
  description: DUPLICATE_DESCRIPTION,
  tags: ['campaigns'],
  params: CampaignId,
  body: DuplicateCampaignBody,
  responses: { 201: { description: 'The copy: starting, or draft with start false', schema: CreatedCampaignA } },
  errors: [404, 503],
  handler: async ({ params, body }, { auth, deps }) => {
    const copy = await duplicate(deps, auth.accountId, params.id, body, 'a');
    return { status: 201, body: createdA(copy, deps.config), headers: { Location: `/campaigns/${copy.id}` } };
  },
});

const startA = defineRoute({
  method: 'post',
  path: '/campaigns/:id/start',
  auth: 'a',
  operationId: 'startCampaign',
  summary: 'Start a draft',
  description: START_DESCRIPTION,
  tags: ['campaigns'],
  params: CampaignId,
  responses: { 200: { description: 'The campaign, starting', schema: CreatedCampaignA } },
  errors: [404, 409, 503],
  handler: async ({ params }, { auth, deps }) => ({
    body: createdA(await withTemporal('start the campaign', () => startDraft(startDeps(deps), auth.accountId, params.id)), deps.config),
  }),
});

const duplicateB = defineRoute({
  method: 'post',
  path: '/v1/campaigns/:id/duplicate',
  auth: 'b',
  operationId: 'v1DuplicateCampaign',
  // A copy retried after a timeout with the same Idempotency-Key answers the first copy again.
  idempotent: true,
  summary: 'Copy a campaign into a new one, started or as a draft',
  description: DUPLICATE_DESCRIPTION,
  tags: ['campaigns'],
  params: CampaignId,
  body: DuplicateCampaignBody,
  responses: { 201: { description: 'The copy: starting, or draft with start false', schema: CampaignB } },
  errors: [404, 503],
  handler: async ({ params, body }, { auth, deps }) => {
    const copy = await duplicate(deps, auth.accountId, params.id, body, 'b');
    // Read back as GET renders it, as the create does.
    const created = await readCampaign(deps.sequelize, auth.accountId, copy.id);
    return { status: 201, body: campaignB(created, deps.config), headers: { Location: `/v1/campaigns/${copy.id}` } };
  },
});

const startB = defineRoute({
  method: 'post',
  path: '/v1/campaigns/:id/start',
  auth: 'b',
  operationId: 'v1StartCampaign',
  summary: 'Start a draft',
  description: START_DESCRIPTION,
  tags: ['campaigns'],
  params: CampaignId,
  responses: { 200: { description: 'The campaign, starting', schema: CampaignB } },
  errors: [404, 409, 503],
  handler: async ({ params }, { auth, deps }) => {
    const started = await withTemporal('start the campaign', () => startDraft(startDeps(deps), auth.accountId, params.id));
    return { body: campaignB(await readCampaign(deps.sequelize, auth.accountId, started.id), deps.config) };
  },
});

export const campaignCopyRoutesA = [duplicateA, startA];
export const campaignCopyRoutesB = [duplicateB, startB];

import { ownedCampaign } from '../../../campaigns/campaign-repository';
import { actorOf } from '../../../campaigns/edit/actor';
import { changesPage, type StoredChange } from '../../../campaigns/edit/change-repository';
import { editCampaign } from '../../../campaigns/edit/edit-campaign';
import { readCampaign } from '../../../campaigns/reporting/campaign-read-model';
import { defineRoute } from '../../http/route';
import { editDeps } from './campaign-deps';
import { cased } from './casing';
import { patchFromA, patchFromB } from './patch-fields';
import { ChangesQueryA, ChangesQueryB, ChangesResponseA, ChangesResponseB, PatchCampaignBodyA, PatchCampaignBodyB } from './patch-schemas';
import { campaignA } from './present-a';
import { campaignB } from './present-b';
import { CampaignId } from './schemas';
import { CampaignA } from './schemas-a';
import { CampaignB } from './schemas-b';
import { withTemporal } from './temporal-unavailable';

/**
 * Editing a campaign while it runs, and its history of changes, on both surfaces. The edit is an
 * Update of the campaign's workflow (src/campaigns/edit/edit-campaign.ts): refused before it enters
 * the history when it is invalid (400, naming the field) or the campaign is completed or failed
 * (409); once answered, the next GET shows it.
 */

const EDIT_DESCRIPTION =
  'Changes the name, audience and sources, budget limits, schedule, reporting, lead control, tracking, the mailboxes it sends from and the sequence of a campaign, ' +
  'while it runs. Only the members given change. The sequence given replaces the steps still to go: emails already sent keep their ' +
  'content, and a step already sent to someone cannot be removed. A daily, weekly or monthly limit lowered below what the window has ' +
  'spent pauses a running campaign at once (budget_paused, budget_exceeded); raised above it, a budget_paused campaign runs again. ' +
  'A schedule change takes effect from the next sending slot. Every change is kept in GET .../changes (who, when, what). ' +
  '400 names the first field in the way, and nothing changes; 409 for a completed or failed campaign; 503 when the workflow service ' +
  'is unavailable. A draft is edited the same way (it has no workflow yet).';

const patchA = defineRoute({
  method: 'patch',
  path: '/campaigns/:id',
  auth: 'a',
  operationId: 'updateCampaign',
  summary: 'Change a campaign, also while it runs',
  description: EDIT_DESCRIPTION,
  tags: ['campaigns'],
  params: CampaignId,
  body: PatchCampaignBodyA,
  responses: { 200: { description: 'The campaign as changed (as GET shows it)', schema: CampaignA } },
  errors: [404, 409, 503],
  handler: async ({ params, body }, { auth, deps }) => {
    await withTemporal('change the campaign', () => editCampaign(editDeps(deps), auth.accountId, params.id, actorOf(auth, 'api_a'), (current) => patchFromA(body, current, deps.config)));
    return { body: campaignA(await readCampaign(deps.sequelize, auth.accountId, params.id), deps.config) };
  },
});

const patchB = defineRoute({
  method: 'patch',
  path: '/v1/campaigns/:id',
  auth: 'b',
  operationId: 'v1UpdateCampaign',
  summary: 'Change a campaign, also while it runs',
  description: EDIT_DESCRIPTION,
  tags: ['campaigns'],
  params: CampaignId,
  body: PatchCampaignBodyB,
  responses: { 200: { description: 'The campaign as changed (as GET shows it)', schema: CampaignB } },
  errors: [404, 409, 503],
  handler: async ({ params, body }, { auth, deps }) => {
    await withTemporal('change the campaign', () => editCampaign(editDeps(deps), auth.accountId, params.id, actorOf(auth, 'api_b'), (current) => patchFromB(body, current)));
    return { body: campaignB(await readCampaign(deps.sequelize, auth.accountId, params.id), deps.config) };
  },
});

const CHANGES_DESCRIPTION =
  'Every change of the campaign, newest first: edits (PATCH, from either surface or the dashboard) with each field\'s value before and after, ' +
  'and the pauses, stops and resumes a user asked for. `by` is the API key the change was made with.';

/** A field's path in camelCase: budget.max_daily_usd is budget.maxDailyUsd on Surface B. */
const camelPath = (field: string): string => field.split('.').map((part) => cased('camel', part)).join('.');

function changeA(c: StoredChange) {
  return { id: c.id, at: c.at.toISOString(), kind: c.kind, by: { via: c.by.via, key_id: c.by.keyId, key_prefix: c.by.keyPrefix }, changes: c.fields.map((f) => ({ field: f.field, from: f.from, to: f.to })) };
}

function changeB(c: StoredChange) {
  return { id: c.id, at: c.at.toISOString(), kind: c.kind, by: { via: c.by.via, keyId: c.by.keyId, keyPrefix: c.by.keyPrefix }, changes: c.fields.map((f) => ({ field: camelPath(f.field), from: f.from, to: f.to })) };
}

const changesA = defineRoute({
  method: 'get',
  path: '/campaigns/:id/changes',
  auth: 'a',
  operationId: 'listCampaignChanges',
  summary: 'The history of a campaign\'s changes',
  description: CHANGES_DESCRIPTION,
  tags: ['campaigns'],
  params: CampaignId,
  query: ChangesQueryA,
  responses: { 200: { description: 'A page of changes, newest first', schema: ChangesResponseA } },
  errors: [404],
  handler: async ({ params, query }, { auth, deps }) => {
    const c = await ownedCampaign(auth.accountId, params.id);
    const page = query.page ?? 1;
    const perPage = query.per_page ?? 20;
    const { rows, total } = await changesPage(deps.sequelize, c.id, { limit: perPage, offset: (page - 1) * perPage });
    return { body: { campaign_id: c.id, changes: rows.map(changeA), pagination: { total, page, per_page: perPage } } };
  },
});

const changesB = defineRoute({
  method: 'get',
  path: '/v1/campaigns/:id/changes',
  auth: 'b',
  operationId: 'v1ListCampaignChanges',
  summary: 'The history of a campaign\'s changes',
  description: CHANGES_DESCRIPTION,
  tags: ['campaigns'],
  params: CampaignId,
  query: ChangesQueryB,
  responses: { 200: { description: 'A page of changes, newest first', schema: ChangesResponseB } },
  errors: [404],
  handler: async ({ params, query }, { auth, deps }) => {
    const c = await ownedCampaign(auth.accountId, params.id);
    const page = query.page ?? 1;
    const perPage = query.perPage ?? 20;
    const { rows, total } = await changesPage(deps.sequelize, c.id, { limit: perPage, offset: (page - 1) * perPage });
    return { body: { campaignId: c.id, changes: rows.map(changeB), pagination: { total, page, perPage } } };
  },
});

export const campaignEditRoutes = [patchA, patchB, changesA, changesB];

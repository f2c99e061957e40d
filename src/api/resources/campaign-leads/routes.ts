import { ownedCampaign } from '../../../campaigns/campaign-repository';
import { listEnrolments } from '../../../campaigns/enrolment/enrolment-repository';
import { badRequest, notFound } from '../../http/errors';
import { defineRoute } from '../../http/route';
import { CampaignId } from '../campaigns/schemas';
import { enrolByHand, MAX_ENROL_PER_CALL } from '../../../campaigns/control/enrol-by-hand';
import { enrolCountProblem, enrolResultA, enrolResultB, leadsPageA, leadsPageB } from './present';
import { removeByHand } from '../../../campaigns/control/remove-by-hand';
import { A, B, CampaignLeadParams } from './schemas';

/**
 * A campaign's leads on both surfaces (A: Bearer, snake_case; B: X-API-Key, camelCase): enrol by
 * hand, take one out, and page them with their states. Another account's campaign, or a lead the
 * campaign does not have, is a 404 worded like a missing one.
 */

const ENROL_DESCRIPTION =
  `Enrols the leads named by id or address (case ignored; at most ${MAX_ENROL_PER_CALL} in all per call) through the same checks as the daily planning: ` +
  'each is queued (its first email goes on the next sending day) or skipped with its reason (in another active campaign of the account, unless the campaign allows duplicate leads; ' +
  'blocklisted; suppressed; an invalid address; a risky one when the campaign skips them; marked by the user). A lead the campaign removed or skipped before is checked again. ' +
  'The answer counts the leads added and skipped (per reason) and those the campaign already had, and lists what names no lead of the account. 409 for a completed or failed campaign.';

const REMOVE_DESCRIPTION =
  'Takes the lead out of the campaign: its sequence stops before its next email (the statement that reserves an email checks the lead\'s state again), and the lead shows as ' +
  'removed, reason "removed by the user". A lead the campaign never had is a 404. The workflow is told at once when it can be reached; the removal holds either way.';

const LIST_DESCRIPTION =
  'The campaign\'s leads, oldest enrolment first, each with its state (queued, in_sequence with its step and next send date, replied, meeting_booked, bounced, unsubscribed, ' +
  'finished, removed, skipped), the reason for skipped and removed ones, and the counts by state. `state` filters.';

const enrolA = defineRoute({
  method: 'post',
  path: '/campaigns/:id/leads',
  auth: 'a',
  operationId: 'enrolCampaignLeads',
  summary: 'Add leads to a campaign by id or address',
  description: ENROL_DESCRIPTION,
  tags: ['campaigns'],
  params: CampaignId,
  body: A.EnrolBody,
  responses: { 200: { description: 'What was added and skipped', schema: A.EnrolResult } },
  errors: [404, 409],
  handler: async ({ params, body }, { auth, deps }) => {
    const problem = enrolCountProblem('lead_ids', body.lead_ids, body.emails, MAX_ENROL_PER_CALL);
    if (problem !== null) throw badRequest(problem);
    return { body: enrolResultA(await enrolByHand(deps.sequelize, auth.accountId, params.id, { leadIds: body.lead_ids, emails: body.emails })) };
  },
});

const enrolB = defineRoute({
  method: 'post',
  path: '/v1/campaigns/:id/leads',
  auth: 'b',
  operationId: 'v1EnrolCampaignLeads',
  summary: 'Add leads to a campaign by id or address',
  description: ENROL_DESCRIPTION,
  tags: ['campaigns'],
  params: CampaignId,
  body: B.EnrolBody,
  responses: { 200: { description: 'What was added and skipped', schema: B.EnrolResult } },
  errors: [404, 409],
  handler: async ({ params, body }, { auth, deps }) => {
    const problem = enrolCountProblem('leadIds', body.leadIds, body.emails, MAX_ENROL_PER_CALL);
    if (problem !== null) throw badRequest(problem);
    return { body: enrolResultB(await enrolByHand(deps.sequelize, auth.accountId, params.id, { leadIds: body.leadIds, emails: body.emails })) };
  },
});

const removeA = defineRoute({
  method: 'delete',
  path: '/campaigns/:id/leads/:leadId',
  auth: 'a',
  operationId: 'removeCampaignLead',
  summary: 'Take a lead out of a campaign',
  description: REMOVE_DESCRIPTION,
  tags: ['campaigns'],
  params: CampaignLeadParams,
  responses: { 204: { description: 'Removed' } },
  errors: [404],
  handler: async ({ params }, { auth, deps, log }) => {
    if (!(await removeByHand({ sequelize: deps.sequelize, temporal: deps.temporal, log }, auth.accountId, params.id, params.leadId))) throw notFound('The lead is not in this campaign');
    return { status: 204, body: null };
  },
});

const removeB = defineRoute({
  method: 'delete',
  path: '/v1/campaigns/:id/leads/:leadId',
  auth: 'b',
  operationId: 'v1RemoveCampaignLead',
  summary: 'Take a lead out of a campaign',
  description: REMOVE_DESCRIPTION,
  tags: ['campaigns'],
  params: CampaignLeadParams,
  responses: { 204: { description: 'Removed' } },
  errors: [404],
  handler: async ({ params }, { auth, deps, log }) => {
    if (!(await removeByHand({ sequelize: deps.sequelize, temporal: deps.temporal, log }, auth.accountId, params.id, params.leadId))) throw notFound('The lead is not in this campaign');
    return { status: 204, body: null };
  },
});

const listA = defineRoute({
  method: 'get',
  path: '/campaigns/:id/leads',
  auth: 'a',
  operationId: 'listCampaignLeads',
  summary: 'A campaign\'s leads with their states',
  description: LIST_DESCRIPTION,
  tags: ['campaigns'],
  params: CampaignId,
  query: A.LeadsQuery,
  responses: { 200: { description: 'A page of the campaign\'s leads', schema: A.LeadsPage } },
  errors: [404],
  handler: async ({ params, query }, { auth, deps }) => {
    const c = await ownedCampaign(auth.accountId, params.id);
    const page = query.page ?? 1;
    const perPage = query.per_page ?? 50;
    const result = await listEnrolments(deps.sequelize, c.id, { state: query.state, limit: perPage, offset: (page - 1) * perPage });
    return { body: leadsPageA(c.id, result, page, perPage) };
  },
});

const listB = defineRoute({
  method: 'get',
  path: '/v1/campaigns/:id/leads',
  auth: 'b',
  operationId: 'v1ListCampaignLeads',
  summary: 'A campaign\'s leads with their states',
  description: LIST_DESCRIPTION,
  tags: ['campaigns'],
  params: CampaignId,
  query: B.LeadsQuery,
  responses: { 200: { description: 'A page of the campaign\'s leads', schema: B.LeadsPage } },
  errors: [404],
  handler: async ({ params, query }, { auth, deps }) => {
    const c = await ownedCampaign(auth.accountId, params.id);
    const page = query.page ?? 1;
    const perPage = query.perPage ?? 50;
    const result = await listEnrolments(deps.sequelize, c.id, { state: query.state, limit: perPage, offset: (page - 1) * perPage });
    return { body: leadsPageB(c.id, result, page, perPage) };
  },
});

export const campaignLeadRoutesA = [enrolA, listA, removeA];
export const campaignLeadRoutesB = [enrolB, listB, removeB];

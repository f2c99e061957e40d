import type { Static } from '@sinclair/typebox';
import { ownedCampaign } from '../../../campaigns/campaign-repository';
import { listEnrolments, type EnrolmentPage } from '../../../campaigns/enrolment/enrolment-repository';
import { badRequest, notFound } from '../../http/errors';
import { defineRoute } from '../../http/route';
import { cased } from '../campaigns/casing';
import { CampaignId } from '../campaigns/schemas';
import { inDomainCasing, type Surface, SURFACE_A, SURFACE_B } from '../surface';
import { enrolByHand, MAX_ENROL_PER_CALL, type EnrolByHandResult } from '../../../campaigns/control/enrol-by-hand';
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

/** What one surface's campaign-lead routes take and render in its casing. */
interface CampaignLeadSurface {
  readonly surface: Surface;
  readonly schemas: typeof A | typeof B;
  readonly enrolResult: (result: EnrolByHandResult) => unknown;
  readonly leadsPage: (campaignId: string, page: EnrolmentPage, pageNumber: number, perPage: number) => unknown;
}

function campaignLeadRoutes({ surface, schemas: s, enrolResult, leadsPage }: CampaignLeadSurface) {
  const enrol = defineRoute({
    method: 'post',
    path: surface.path('/campaigns/:id/leads'),
    auth: surface.auth,
    operationId: surface.operationId('enrolCampaignLeads'),
    idempotent: true,
    summary: 'Add leads to a campaign by id or address',
    description: ENROL_DESCRIPTION,
    tags: ['campaigns'],
    params: CampaignId,
    body: s.EnrolBody,
    responses: { 200: { description: 'What was added and skipped', schema: s.EnrolResult } },
    errors: [404, 409],
    handler: async ({ params, body }, { auth, deps }) => {
      const { leadIds, emails } = inDomainCasing<Static<typeof B.EnrolBody>>(surface.casing, body);
      const problem = enrolCountProblem(cased(surface.casing, 'lead_ids'), leadIds, emails, MAX_ENROL_PER_CALL);
      if (problem !== null) throw badRequest(problem);
      return { body: enrolResult(await enrolByHand(deps.sequelize, auth.accountId, params.id, { leadIds, emails })) };
    },
  });

  const remove = defineRoute({
    method: 'delete',
    path: surface.path('/campaigns/:id/leads/:leadId'),
    auth: surface.auth,
    operationId: surface.operationId('removeCampaignLead'),
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

  const list = defineRoute({
    method: 'get',
    path: surface.path('/campaigns/:id/leads'),
    auth: surface.auth,
    operationId: surface.operationId('listCampaignLeads'),
    summary: 'A campaign\'s leads with their states',
    description: LIST_DESCRIPTION,
    tags: ['campaigns'],
    params: CampaignId,
    query: s.LeadsQuery,
    responses: { 200: { description: 'A page of the campaign\'s leads', schema: s.LeadsPage } },
    errors: [404],
    handler: async ({ params, query }, { auth, deps }) => {
      const q = inDomainCasing<Static<typeof B.LeadsQuery>>(surface.casing, query);
      const c = await ownedCampaign(auth.accountId, params.id);
      const page = q.page ?? 1;
      const perPage = q.perPage ?? 50;
      const result = await listEnrolments(deps.sequelize, c.id, { state: q.state, limit: perPage, offset: (page - 1) * perPage });
      return { body: leadsPage(c.id, result, page, perPage) };
    },
  });

  return [enrol, list, remove];
}

export const campaignLeadRoutesA = campaignLeadRoutes({ surface: SURFACE_A, schemas: A, enrolResult: enrolResultA, leadsPage: leadsPageA });
export const campaignLeadRoutesB = campaignLeadRoutes({ surface: SURFACE_B, schemas: B, enrolResult: enrolResultB, leadsPage: leadsPageB });

/**
 * Changing a campaign while it runs (PATCH on either surface): the request, already turned into a
 * CampaignPatch by its surface, is planned against the campaign as stored, checked where the
 * database knows more than the request (a sent step cannot be removed; lead lists must be the
 * account's), then handed to the campaign's workflow as an Update whose validator may still refuse
 * it (400) or whose status may forbid it (409). The workflow's activity writes the row, the new
 * sequence version and the history row in one transaction, and the workflow acts on the new
 * budget, schedule and steps at once. A draft has no workflow: its edit is written directly.
 */
import type { Client } from '@temporalio/client';
import { QueryTypes, type Sequelize } from 'sequelize';
import type { Campaign } from '../../db/models';
import { ConflictError, InvalidInputError } from '../../errors/domain-errors';
import { checkListsOwned } from '../../leads/lists/list-repository';
import { checkCampaignMailboxes } from '../sending/campaign-mailboxes';
import { campaignWorkflowId, editUpdate, type CampaignEdit, type ChangeActor } from '../../../workflows/campaign/contract';
import type { Logger } from '../../log/logger';
import { ownedCampaign } from '../campaign-repository';
import { refreshReportSchedule } from '../control/start-report-schedule';
import { askWorkflow, newChangeId } from '../control/campaign-control';
import { moveAllowed, refusedMoveReason } from '../model/transitions';
import { applyEdit } from './apply-edit';
import { planEdit, type CampaignAsStored, type CampaignPatch } from './campaign-patch';
import { storedCampaign } from './stored-campaign';

export interface EditDeps {
  readonly sequelize: Sequelize;
  readonly temporal: Client;
  /** The task queue a report schedule started by an edit runs on. */
  readonly taskQueue: string;
  readonly log?: Logger;
}

export interface EditResult {
  readonly campaign: Campaign;
  /** The history row's id, or null when the request changed nothing. */
  readonly changeId: string | null;
  /** The fields that changed (Surface A paths). */
  readonly fields: readonly string[];
}

/**
 * Edits the campaign; `patchOf` builds the surface's request over the campaign as stored (it may
 * throw the surface's 400s). A request that changes nothing is answered with the campaign as it
 * is, and no history row.
 */
export async function editCampaign(deps: EditDeps, accountId: string, campaignId: string, by: ChangeActor, patchOf: (current: CampaignAsStored) => CampaignPatch): Promise<EditResult> {
  const row = await ownedCampaign(accountId, campaignId);
  if (!moveAllowed('edit', row.status)) throw new ConflictError(refusedMoveReason('edit', campaignId, row.status));
  const current = await storedCampaign(deps.sequelize, row);
  const plan = planEdit(current, patchOf(current));
  if (plan.fields.length === 0) return { campaign: row, changeId: null, fields: [] };

  if (plan.settings.startDate !== undefined && row.startedAt !== null) throw new InvalidInputError('schedule.start_date: the campaign has started; its start date cannot change');
  const lists = plan.columns['lead_list_ids'] as string[] | undefined;
  if (lists !== undefined) {
    const unknown = await checkListsOwned(deps.sequelize, accountId, lists);
    if (unknown.length > 0) throw new InvalidInputError(`lead_list_ids: no lead list of the account has the id${unknown.length === 1 ? '' : 's'} ${unknown.map((id) => JSON.stringify(id)).join(', ')}`);
  }
  const mailboxes = plan.columns['mailbox_ids'] as string[] | null | undefined;
  // Surface B names its members in camelCase; A and the dashboard's form, in snake_case.
  if (mailboxes !== undefined && mailboxes !== null) await checkCampaignMailboxes(deps.sequelize, accountId, mailboxes, by.via === 'api_b' ? 'mailboxIds' : 'mailbox_ids');
  const sentSteps = plan.sequence === undefined ? 0 : await stepsSent(deps.sequelize, campaignId);
  if (plan.sequence !== undefined && plan.sequence.steps.length < sentSteps) {
    throw new InvalidInputError(`sequence: step ${sentSteps} was already sent to someone; a change may rewrite steps and add new ones, not remove a step that was sent (send at least ${sentSteps} steps)`);
  }

  const edit: CampaignEdit = {
    change: { id: newChangeId(), kind: 'edit', by, fields: plan.fields },
    settings: plan.settings,
    columns: plan.columns,
    ...(plan.sequence === undefined ? {} : { sequence: plan.sequence }),
    sentSteps,
  };
  if (row.status === 'draft') {
    await applyEdit(deps.sequelize, { campaignId, accountId, edit, at: new Date().toISOString() });
  } else {
    await askWorkflow(deps, campaignId, () => deps.temporal.workflow.getHandle(campaignWorkflowId(campaignId)).executeUpdate(editUpdate, { args: [edit] }));
  }
  const campaign = await ownedCampaign(accountId, campaignId);
  const fields = plan.fields.map((f) => f.field);
  // The report schedule follows the reporting members and the zone (a draft has none yet).
  if (campaign.status !== 'draft' && fields.some((f) => f.startsWith('reporting.') || f === 'schedule.timezone' || f === 'schedule.fallback_timezone')) {
    await refreshReportSchedule(deps.temporal, deps.taskQueue, campaign, deps.log);
  }
  return { campaign, changeId: edit.change.id, fields };
}

/** How many steps went out to someone: the highest step of an email that left (or is leaving), plus one. */
async function stepsSent(sequelize: Sequelize, campaignId: string): Promise<number> {
  const [row] = await sequelize.query<{ n: number | null }>(
    `SELECT max(step) + 1 AS n FROM emails WHERE campaign_id = $1 AND status IN ('sending', 'sent', 'bounced')`,
    { bind: [campaignId], type: QueryTypes.SELECT },
  );
  return row?.n ?? 0;
}

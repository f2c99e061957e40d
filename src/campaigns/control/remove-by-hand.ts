/**
 * Taking one lead out of a campaign by hand (DELETE /campaigns/:id/leads/:leadId on either
 * surface). The enrolment row decides: once it says `removed`, the statement that reserves an
 * email checks it again and sends nothing more. The workflow is then told (leadRemovedSignal) so
 * its counters follow at once; that is best effort: a removal succeeds when the workflow is gone
 * (campaign ended, namespace reset) or Temporal cannot be reached.
 */
import type { Client } from '@temporalio/client';
import { WorkflowNotFoundError } from '@temporalio/common';
import type { Sequelize } from 'sequelize';
import { ownedCampaign } from '../campaign-repository';
import { TEMPORAL_CALL_MS } from './temporal-deadline';
import { removeFromCampaign } from '../enrolment/enrolment-repository';
import type { Logger } from '../../log/logger';
import { campaignWorkflowId, leadRemovedSignal } from '../../../workflows/campaign/contract';

export interface RemoveDeps {
  readonly sequelize: Sequelize;
  /** The process's Temporal client, created on first use. */
  readonly temporal: { get(): Client };
  readonly log: Logger;
}

/** Removes the lead; false when the campaign (the account's) never had it. NotFoundError('campaign') for another account's campaign. */
export async function removeByHand(deps: RemoveDeps, accountId: string, campaignId: string, leadId: string): Promise<boolean> {
  await ownedCampaign(accountId, campaignId);
  const outcome = await removeFromCampaign(deps.sequelize, accountId, campaignId, leadId);
  if (!outcome.removed) return false;
  await signalRemoved(deps, campaignId, leadId, outcome.wasActive);
  return true;
}

/** Never throws: the committed row is what stops the sequence. */
async function signalRemoved(deps: RemoveDeps, campaignId: string, leadId: string, wasActive: boolean): Promise<void> {
  try {
    const client = deps.temporal.get();
    await client.withDeadline(Date.now() + TEMPORAL_CALL_MS, () => client.workflow.getHandle(campaignWorkflowId(campaignId)).signal(leadRemovedSignal, { leadId, wasActive }));
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) deps.log.info({ campaignId, leadId }, 'lead removal not signalled: the campaign has no running workflow');
    else deps.log.warn({ err, campaignId, leadId }, 'lead removal not signalled; the reservation statement still refuses its next email');
  }
}

/**
 * Starting a draft (POST /campaigns/:id/start, /v1/...): the draft's row, as it stands after any
 * edits, becomes the workflow's input, exactly as a create's row does.
 */
import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import { Campaign } from '../../db/models';
import { ConflictError } from '../../errors/domain-errors';
import type { campaignWorkflow } from '../../../workflows/campaign/workflow';
import { campaignWorkflowId } from '../../../workflows/campaign/contract';
import { lockOwnedCampaign } from '../campaign-repository';
import { planOf, type CampaignSequence } from '../model/sequence';
import { moveAllowed, refusedMoveReason } from '../model/transitions';
import { startReports, type StartDeps } from './start-campaign';
import { TEMPORAL_CALL_MS } from './temporal-deadline';
import { workflowInputOf } from './workflow-input';

/**
 * Moves the account's draft to `starting` and starts its workflow inside one transaction holding
 * the row's lock, as startCampaign does for a create: if Temporal refuses, the rollback leaves the
 * draft as it was, and two starts at once cannot both start it (the second waits for the lock,
 * then finds it starting: 409). NotFoundError('campaign') for another account's campaign;
 * ConflictError (refusedMoveReason) for anything but a draft. A start date that passed while it
 * was a draft is dropped, as a copy's is: the campaign starts now.
 */
export async function startDraft(deps: Pick<StartDeps, 'sequelize' | 'temporal' | 'taskQueue' | 'log'>, accountId: string, campaignId: string, now = new Date()): Promise<Campaign> {
  const started = await deps.sequelize.transaction(async (transaction) => {
    const locked = await lockOwnedCampaign(deps.sequelize, transaction, accountId, campaignId);
    if (!moveAllowed('start', locked.status)) throw new ConflictError(refusedMoveReason('start', campaignId, locked.status));
    await deps.sequelize.query(
      `UPDATE campaigns SET status = 'starting', status_reason = NULL, updated_at = clock_timestamp(),
              schedule_start_date = CASE WHEN schedule_start_date < $2::date THEN NULL ELSE schedule_start_date END
        WHERE id = $1`,
      { bind: [campaignId, now.toISOString().slice(0, 10)], transaction },
    );
    const campaign = await Campaign.findByPk(campaignId, { transaction, rejectOnEmpty: true });
    const sequence = campaign.sequenceVersion === null ? null : await storedSequence(deps.sequelize, transaction, campaignId, campaign.sequenceVersion);
    await deps.temporal.withDeadline(Date.now() + TEMPORAL_CALL_MS, () =>
      deps.temporal.workflow.start<typeof campaignWorkflow>('campaignWorkflow', {
        taskQueue: deps.taskQueue,
        workflowId: campaignWorkflowId(campaignId),
        args: [workflowInputOf(campaign, sequence === null ? {} : { sequence: planOf(sequence, campaign.sequenceVersion as number) })],
      }),
    );
    return campaign;
  });
  if (started.reportingEmail) await startReports(deps, started);
  return started;
}

/** The version in use, read under the transaction that holds the row (an edit may have made a new one). */
async function storedSequence(sequelize: Sequelize, transaction: Transaction, campaignId: string, version: number): Promise<CampaignSequence | null> {
  const [row] = await sequelize.query<{ sequence: CampaignSequence }>(`SELECT sequence FROM campaign_sequences WHERE campaign_id = $1 AND version = $2`, {
    bind: [campaignId, version],
    type: QueryTypes.SELECT,
    transaction,
  });
  return row?.sequence ?? null;
}

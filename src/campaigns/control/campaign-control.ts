import { WorkflowUpdateFailedError, type Client } from '@temporalio/client';
import { randomUUID } from 'node:crypto';
import { QueryTypes, type Sequelize } from 'sequelize';
import type { Config } from '../../config/config';
import type { CampaignStatus } from '../../db/models/campaign';
import { ConflictError, InvalidInputError } from '../../errors/domain-errors';
import { campaignWorkflowId, pauseUpdate, resumeUpdate, stopUpdate, type ChangeActor, type ControlOutcome } from '../../../workflows/campaign/contract';
import { ownedCampaign } from '../campaign-repository';
import { moveAllowed, refusedMoveReason } from '../model/transitions';
import { quotaUse } from '../quota';
import { TEMPORAL_CALL_MS } from './temporal-deadline';

/**
 * Pause, stop and resume of a campaign, as Updates of its workflow: the workflow alone decides
 * and records the transition (its validator refuses a move the status does not allow, before it
 * enters the history), and the answer is what it decided. A campaign that is not the account's is
 * a NotFoundError('campaign'); a refused move is a ConflictError whose message says why.
 */

export interface ControlDeps {
  readonly sequelize: Sequelize;
  readonly temporal: Client;
  readonly config: Pick<Config, 'planEmailLimits'>;
}

export interface ControlResult {
  readonly id: string;
  readonly status: CampaignStatus;
  readonly at: Date;
}

/** How long a pause waits for emails already handed to SMTP (see waitForInFlightSends). */
const IN_FLIGHT_WAIT_MS = 5_000;
const IN_FLIGHT_POLL_MS = 10;

/**
 * Pause (Surface A) and stop (Surface B): allowed from starting, running and budget_paused.
 *
 * The Update returns once the workflow has recorded `paused` in the campaign's row, so the GET that
 * follows shows it. Sending reserves each email under a share lock on the same row with
 * `status = 'running'`, so once that write commits no new email of the campaign can start; the
 * answer then waits (briefly) for emails whose SMTP exchange had already begun. When the request
 * returns, no further email of the campaign is sent.
 */
export async function pauseCampaign(deps: ControlDeps, accountId: string, campaignId: string, by: ChangeActor, via: 'pause' | 'stop' = 'pause'): Promise<ControlResult> {
  const row = await ownedCampaign(accountId, campaignId);
  refuseWithoutWorkflow(via, row.id, row.status);
  const outcome = await askWorkflow(deps, campaignId, () =>
    deps.temporal.workflow.getHandle(campaignWorkflowId(campaignId)).executeUpdate(via === 'stop' ? stopUpdate : pauseUpdate, { args: [{ changeId: newChangeId(), by }] }),
  );
  await waitForInFlightSends(deps.sequelize, campaignId);
  return { id: campaignId, status: outcome.status, at: new Date(outcome.at) };
}

/**
 * Resume: from paused (back to starting if it had not started; to budget_paused if a budget limit
 * is still reached), and from budget_paused only when every limit has room again (the workflow
 * decides both). A campaign paused because the plan's quota ran out resumes only once the quota
 * has room again: the quota is the account's, so this is checked here, before the Update.
 */
export async function resumeCampaign(deps: ControlDeps, accountId: string, campaignId: string, by: ChangeActor): Promise<ControlResult> {
  const row = await ownedCampaign(accountId, campaignId);
  refuseWithoutWorkflow('resume', row.id, row.status);
  if (row.status === 'paused' && row.statusReason === 'quota_exceeded') {
    const quota = await quotaUse(deps.sequelize, deps.config, accountId);
    if (quota.remaining === 0) {
      throw new ConflictError(`the plan's ${quota.limit} emails for this month are used up: the campaign resumes by itself on the 1st (or upgrade the plan)`);
    }
  }
  const outcome = await askWorkflow(deps, campaignId, () =>
    deps.temporal.workflow.getHandle(campaignWorkflowId(campaignId)).executeUpdate(resumeUpdate, { args: [{ changeId: newChangeId(), by }] }),
  );
  return { id: campaignId, status: outcome.status, at: new Date(outcome.at) };
}

/** A change's id, chosen here so the activity that records it writes it once. */
export function newChangeId(): string {
  return `chg_${randomUUID().replaceAll('-', '')}`;
}

/**
 * A draft has no workflow yet, and a completed or failed campaign's workflow has ended: their
 * moves are answered from the row (the same reasons the validators give).
 */
function refuseWithoutWorkflow(move: 'pause' | 'stop' | 'resume', campaignId: string, status: CampaignStatus): void {
  if ((status === 'draft' || status === 'completed' || status === 'failed') && !moveAllowed(move, status)) throw new ConflictError(refusedMoveReason(move, campaignId, status));
}

/**
 * Runs an Update within the Temporal deadline and maps what the workflow refused: `MoveRefused`
 * is a ConflictError (409), `InvalidEdit` an InvalidInputError (400), each with the workflow's
 * reason. Temporal being unreachable passes through (the route's withTemporal makes it a 503).
 */
export async function askWorkflow<T extends ControlOutcome>(deps: Pick<ControlDeps, 'temporal'>, campaignId: string, update: () => Promise<T>): Promise<T> {
  try {
    return await deps.temporal.withDeadline(Date.now() + TEMPORAL_CALL_MS, update);
  } catch (err) {
    if (err instanceof WorkflowUpdateFailedError) {
      const cause = err.cause as (Error & { type?: string }) | undefined;
      if (cause?.type === 'InvalidEdit') throw new InvalidInputError(cause.message);
      if (cause?.type === 'MoveRefused') throw new ConflictError(cause.message);
      throw new ConflictError(`campaign ${campaignId}: ${cause?.message ?? err.message}`);
    }
    throw err;
  }
}

/**
 * Emails reserved before the pause committed may be mid-SMTP: wait until they are settled (sent,
 * deferred, bounced or failed), at most a few seconds. Rows left 'sending' by a worker that died
 * long ago are not waited for.
 */
async function waitForInFlightSends(sequelize: Sequelize, campaignId: string): Promise<void> {
  const deadline = Date.now() + IN_FLIGHT_WAIT_MS;
  for (;;) {
    const [row] = await sequelize.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM emails WHERE campaign_id = $1 AND status = 'sending' AND updated_at > now() - interval '2 minutes'`,
      { bind: [campaignId], type: QueryTypes.SELECT },
    );
    if ((row?.n ?? 0) === 0 || Date.now() >= deadline) return;
    await new Promise((r) => setTimeout(r, IN_FLIGHT_POLL_MS));
  }
}

import type { Client } from '@temporalio/client';
import { QueryTypes, type Sequelize } from 'sequelize';
import type { Config } from '../../config/config';
import { toUsd, type CampaignStatus } from '../../db/models/campaign';
import { ConflictError } from '../../errors/domain-errors';
import { campaignWorkflowId, pauseSignal, resumeSignal, stopSignal } from '../../../workflows/campaign/contract';
import { lockOwnedCampaign, setCampaignStatus } from '../campaign-repository';
import { reachedBudgets } from '../model/budget-windows';
import { moveAllowed, refusedMoveReason } from '../model/transitions';
import { quotaUse } from '../quota';
import { spendInWindows } from './spend-windows';
import { TEMPORAL_CALL_MS } from './temporal-deadline';

/**
 * Pause, stop and resume of a campaign. A campaign that is not the account's is a
 * NotFoundError('campaign'); a transition its status does not allow is a ConflictError whose
 * message says why.
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
 * The status is written and the workflow signalled inside one transaction holding the row's lock,
 * so the GET that follows already shows `paused`, and a failed signal leaves nothing changed (503).
 * Sending reserves each email under a share lock on the same row with `status = 'running'`, so
 * once this commits no new email of the campaign can start; the answer then waits (briefly) for
 * emails whose SMTP exchange had already begun. When the request returns, no further email of the
 * campaign is sent.
 */
export async function pauseCampaign(deps: ControlDeps, accountId: string, campaignId: string, via: 'pause' | 'stop' = 'pause'): Promise<ControlResult> {
  const result = await deps.sequelize.transaction(async (tx) => {
    const row = await lockOwnedCampaign(deps.sequelize, tx, accountId, campaignId);
    if (!moveAllowed(via, row.status)) throw new ConflictError(refusedMoveReason(via, campaignId, row.status));
    const at = await setCampaignStatus(deps.sequelize, tx, campaignId, 'paused', 'manual', 'paused_at');
    const handle = deps.temporal.workflow.getHandle(campaignWorkflowId(campaignId));
    await deps.temporal.withDeadline(Date.now() + TEMPORAL_CALL_MS, () => handle.signal(via === 'stop' ? stopSignal : pauseSignal, { at: at.toISOString() }));
    return { id: campaignId, status: 'paused' as const, at };
  });
  await waitForInFlightSends(deps.sequelize, campaignId);
  return result;
}

/**
 * Resume: from paused (back to starting if it had not started; to budget_paused if a budget limit
 * is still reached), and from budget_paused only when every limit has room again. A campaign
 * paused because the plan's quota ran out resumes only once the quota has room again.
 */
export async function resumeCampaign(deps: ControlDeps, accountId: string, campaignId: string): Promise<ControlResult> {
  return deps.sequelize.transaction(async (tx) => {
    const row = await lockOwnedCampaign(deps.sequelize, tx, accountId, campaignId);
    if (!moveAllowed('resume', row.status)) throw new ConflictError(refusedMoveReason('resume', campaignId, row.status));
    const limits = { dailyUsd: toUsd(row.budget_max_daily_usd), weeklyUsd: toUsd(row.budget_max_weekly_usd), monthlyUsd: toUsd(row.budget_max_monthly_usd) };
    const reached = reachedBudgets(await spendInWindows(deps.sequelize, campaignId, tx), limits);
    if (row.status === 'budget_paused' && reached.length > 0) {
      throw new ConflictError(`campaign ${campaignId} has reached its ${reached.join(' and ')} budget: it resumes by itself when that budget window resets (00:00 UTC, Monday or the 1st)`);
    }
    if (row.status_reason === 'quota_exceeded') {
      const quota = await quotaUse(deps.sequelize, deps.config, accountId, tx);
      if (quota.remaining === 0) {
        throw new ConflictError(`the plan's ${quota.limit} emails for this month are used up: the campaign resumes by itself on the 1st (or upgrade the plan)`);
      }
    }
    const status: CampaignStatus = row.started_at === null ? 'starting' : reached.length > 0 ? 'budget_paused' : 'running';
    const at = await setCampaignStatus(deps.sequelize, tx, campaignId, status, status === 'budget_paused' ? 'budget_exceeded' : null, 'resumed_at');
    const handle = deps.temporal.workflow.getHandle(campaignWorkflowId(campaignId));
    await deps.temporal.withDeadline(Date.now() + TEMPORAL_CALL_MS, () => handle.signal(resumeSignal, { at: at.toISOString() }));
    return { id: campaignId, status, at };
  });
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

import type { Sequelize } from 'sequelize';
import type { CampaignTransition } from '../../../workflows/campaign/contract';
import { insertChange } from '../edit/change-repository';
import { endWithCampaign } from '../enrolment/enrolment-repository';
import { readEventFills, writeCampaignEvents } from './campaign-events';

const TIMESTAMP_COLUMN: Partial<Record<CampaignTransition['status'], string>> = {
  running: 'started_at',
  paused: 'paused_at',
  budget_paused: 'paused_at',
  completed: 'completed_at',
  failed: 'failed_at',
};

/**
 * Mirrors a workflow transition into the campaigns row, so lists and GETs show it, and writes the
 * transition's events to the outbox in the SAME transaction. Idempotent: a retried activity writes
 * the same values, and its events have ids derived from the transition, so the outbox gets each
 * once. `started_at` keeps the first start; a resume (running after a pause) sets `resumed_at`
 * instead.
 *
 * The workflow is the one writer of the status: it records its transitions one at a time, in the
 * order it decides them (pause, stop and resume are Updates it applies). A transition whose
 * instant is older than the row's last pause or resume leaves the status alone (its events are
 * still written): that guards against an attempt of an earlier transition's activity that lands
 * late, and kept the order while an older API wrote pauses itself. A user's move carries its
 * change record, written in the same transaction (the campaign's history of changes). Completed and failed
 * always win: nothing comes after them, and the campaign's sequences still under way end with
 * them (endWithCampaign).
 */
export async function recordTransition(sequelize: Sequelize, t: CampaignTransition): Promise<void> {
  const events = t.events ?? [];
  const fills = await readEventFills(sequelize, t.campaignId, events);
  const column = TIMESTAMP_COLUMN[t.status];
  const sets = ['status = $2', 'status_reason = $3', 'updated_at = now()'];
  if (t.change?.kind === 'resume') {
    // A user's resume stamps resumed_at whatever it resumed to (starting, running or budget_paused).
    sets.push(`resumed_at = $4`);
  } else if (t.status === 'running') {
    sets.push(`started_at = COALESCE(started_at, $4)`);
    sets.push(`resumed_at = CASE WHEN started_at IS NOT NULL AND started_at <> $4 THEN $4 ELSE resumed_at END`);
  } else if (column !== undefined) {
    sets.push(`${column} = $4`);
  }
  const terminal = t.status === 'completed' || t.status === 'failed';
  await sequelize.transaction(async (tx) => {
    await sequelize.query(
      `UPDATE campaigns SET ${sets.join(', ')}
        WHERE id = $1 AND ($5 OR GREATEST(paused_at, resumed_at) IS NULL OR GREATEST(paused_at, resumed_at) <= $4::timestamptz)`,
      { bind: [t.campaignId, t.status, t.reason, t.at, terminal], transaction: tx },
    );
    await writeCampaignEvents(sequelize, tx, { campaignId: t.campaignId, accountId: t.accountId, at: t.at, source: `transition:${t.status}`, events }, fills);
    if (t.change !== undefined) await insertChange(sequelize, tx, t.campaignId, t.accountId, t.change, t.at);
    if (terminal) await endWithCampaign(sequelize, tx, t.campaignId);
  });
}

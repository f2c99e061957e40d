import type { Sequelize } from 'sequelize';
import type { CampaignTransition } from '../../../workflows/campaign/contract';
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
 * A pause or resume the API committed after this transition's instant wins: the API writes the
 * row first and signals the workflow, so a transition the workflow had already under way (the
 * move to running while the target was being scraped) can reach the row after the pause. Writing
 * it then would show running until the workflow applies the pause, and a resume in between would
 * be refused. Such a transition leaves the status alone (its events are still written: it did
 * happen); the workflow applies the signal next and writes the row again. Completed and failed
 * always win: nothing comes after them, and the campaign's sequences still under way end with
 * them (endWithCampaign).
 */
export async function recordTransition(sequelize: Sequelize, t: CampaignTransition): Promise<void> {
  const events = t.events ?? [];
  const fills = await readEventFills(sequelize, t.campaignId, events);
  const column = TIMESTAMP_COLUMN[t.status];
  const sets = ['status = $2', 'status_reason = $3', 'updated_at = now()'];
  if (t.status === 'running') {
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
    if (terminal) await endWithCampaign(sequelize, tx, t.campaignId);
  });
}

import type { Sequelize } from 'sequelize';
import type { CampaignTransition } from '../../workflows/campaign/contract';

const TIMESTAMP_COLUMN: Partial<Record<CampaignTransition['status'], string>> = {
  running: 'started_at',
  paused: 'paused_at',
  budget_paused: 'paused_at',
  completed: 'completed_at',
  failed: 'failed_at',
};

/**
 * Mirrors a workflow transition into the campaigns row, so lists and GETs show it. Idempotent: a
 * retried activity writes the same values. `started_at` keeps the first start; a resume (running
 * after a pause) sets `resumed_at` instead.
 */
export function recordCampaignTransition(sequelize: Sequelize) {
  return async (t: CampaignTransition): Promise<void> => {
    const column = TIMESTAMP_COLUMN[t.status];
    const sets = ['status = $2', 'status_reason = $3', 'updated_at = now()'];
    if (t.status === 'running') {
      sets.push(`started_at = COALESCE(started_at, $4)`);
      sets.push(`resumed_at = CASE WHEN started_at IS NOT NULL AND started_at <> $4 THEN $4 ELSE resumed_at END`);
    } else if (column !== undefined) {
      sets.push(`${column} = $4`);
    }
    await sequelize.query(`UPDATE campaigns SET ${sets.join(', ')} WHERE id = $1`, { bind: [t.campaignId, t.status, t.reason, t.at] });
  };
}

import type { QueryInterface } from 'sequelize';

/**
 * `draft`: a campaign stored but not started (a copy made with `start: false`). It has no workflow
 * until POST .../start; the status check takes the new value. Down refuses while drafts exist
 * rather than deleting them: the caller starts or deletes them first.
 */
export async function up(q: QueryInterface): Promise<void> {
  await q.sequelize.query(`
    ALTER TABLE campaigns
      DROP CONSTRAINT campaigns_status_check,
      ADD CONSTRAINT campaigns_status_check
        CHECK (status IN ('draft', 'starting', 'running', 'paused', 'budget_paused', 'completed', 'failed'))`);
}

export async function down(q: QueryInterface): Promise<void> {
  await q.sequelize.query(`
    ALTER TABLE campaigns
      DROP CONSTRAINT campaigns_status_check,
      ADD CONSTRAINT campaigns_status_check
        CHECK (status IN ('starting', 'running', 'paused', 'budget_paused', 'completed', 'failed'))`);
}

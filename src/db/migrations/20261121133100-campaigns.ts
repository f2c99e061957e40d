import { DataTypes, fn, type QueryInterface } from 'sequelize';

const money = () => ({ type: DataTypes.DECIMAL(12, 4), allowNull: true });

export async function up(q: QueryInterface): Promise<void> {
  await q.createTable('campaigns', {
    id: { type: DataTypes.TEXT, primaryKey: true },
    account_id: {
      type: DataTypes.TEXT,
      allowNull: false,
      references: { model: 'accounts', key: 'id' },
      onDelete: 'CASCADE',
    },
    // Which surface created it; both surfaces show every campaign.
    created_via: { type: DataTypes.TEXT, allowNull: false },
    name: { type: DataTypes.TEXT, allowNull: false },
    mcp: { type: DataTypes.TEXT, allowNull: false },
    target_url: { type: DataTypes.TEXT, allowNull: false },
    brand_id: { type: DataTypes.TEXT, allowNull: true },
    target_audience: { type: DataTypes.TEXT, allowNull: true },
    target_outcome: { type: DataTypes.TEXT, allowNull: true },
    value_for_target: { type: DataTypes.TEXT, allowNull: true },
    budget_max_daily_usd: money(),
    budget_max_weekly_usd: money(),
    budget_max_monthly_usd: money(),
    schedule_frequency: { type: DataTypes.TEXT, allowNull: false, defaultValue: 'daily' },
    schedule_trial_days: { type: DataTypes.INTEGER, allowNull: true },
    schedule_start_date: { type: DataTypes.DATEONLY, allowNull: true },
    timezone: { type: DataTypes.TEXT, allowNull: false, defaultValue: 'UTC' },
    reporting_frequency: { type: DataTypes.TEXT, allowNull: true },
    reporting_email: { type: DataTypes.TEXT, allowNull: true },
    reporting_webhook_url: { type: DataTypes.TEXT, allowNull: true },
    calendar_link: { type: DataTypes.TEXT, allowNull: true },
    status: { type: DataTypes.TEXT, allowNull: false, defaultValue: 'starting' },
    status_reason: { type: DataTypes.TEXT, allowNull: true },
    started_at: { type: DataTypes.DATE, allowNull: true },
    paused_at: { type: DataTypes.DATE, allowNull: true },
    resumed_at: { type: DataTypes.DATE, allowNull: true },
    completed_at: { type: DataTypes.DATE, allowNull: true },
    failed_at: { type: DataTypes.DATE, allowNull: true },
    created_at: { type: DataTypes.DATE, allowNull: false, defaultValue: fn('now') },
    updated_at: { type: DataTypes.DATE, allowNull: false, defaultValue: fn('now') },
  });
  await q.sequelize.query(`
    ALTER TABLE campaigns
      ADD CONSTRAINT campaigns_status_check
        CHECK (status IN ('starting', 'running', 'paused', 'budget_paused', 'completed', 'failed')),
      ADD CONSTRAINT campaigns_created_via_check CHECK (created_via IN ('a', 'b')),
      ADD CONSTRAINT campaigns_budget_check CHECK (
        (budget_max_daily_usd IS NULL OR budget_max_daily_usd >= 0) AND
        (budget_max_weekly_usd IS NULL OR budget_max_weekly_usd >= 0) AND
        (budget_max_monthly_usd IS NULL OR budget_max_monthly_usd >= 0)),
      ADD CONSTRAINT campaigns_trial_days_check CHECK (schedule_trial_days IS NULL OR schedule_trial_days > 0)`);
  // Lists are per account, newest first, optionally by status or template.
  await q.addIndex('campaigns', ['account_id', 'created_at']);
  await q.addIndex('campaigns', ['account_id', 'status']);
  await q.addIndex('campaigns', ['mcp']);
}

export async function down(q: QueryInterface): Promise<void> {
  await q.dropTable('campaigns');
}

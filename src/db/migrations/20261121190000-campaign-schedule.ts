import type { QueryInterface } from 'sequelize';

/**
 * What the campaign workflow needs from its row beyond issue-2's columns: the sending window in the
 * campaign's time zone (minutes after local midnight; default business hours 09:00-17:00), the
 * frequency's allowed values, and the scraped target the writers speak for.
 */
const UP = `
ALTER TABLE campaigns
  ADD COLUMN send_window_start_minute INTEGER NOT NULL DEFAULT 540,
  ADD COLUMN send_window_end_minute INTEGER NOT NULL DEFAULT 1020,
  ADD COLUMN company_id TEXT REFERENCES companies(id) ON DELETE SET NULL,
  ADD CONSTRAINT campaigns_send_window_check
    CHECK (send_window_start_minute >= 0 AND send_window_start_minute < send_window_end_minute AND send_window_end_minute <= 1440),
  ADD CONSTRAINT campaigns_frequency_check CHECK (schedule_frequency IN ('daily', 'weekdays', 'weekly'));
-- Benchmarks compare campaigns of one template across accounts.
CREATE INDEX campaigns_mcp_created ON campaigns (mcp, created_at);
DROP INDEX IF EXISTS campaigns_mcp;
-- Replies of a campaign by sentiment, newest first.
CREATE INDEX replies_campaign_sentiment ON replies (campaign_id, sentiment, received_at);
`;

const DOWN = `
DROP INDEX IF EXISTS replies_campaign_sentiment;
DROP INDEX IF EXISTS campaigns_mcp_created;
CREATE INDEX IF NOT EXISTS campaigns_mcp ON campaigns (mcp);
ALTER TABLE campaigns
  DROP CONSTRAINT IF EXISTS campaigns_frequency_check,
  DROP CONSTRAINT IF EXISTS campaigns_send_window_check,
  DROP COLUMN IF EXISTS company_id,
  DROP COLUMN IF EXISTS send_window_end_minute,
  DROP COLUMN IF EXISTS send_window_start_minute;
`;

export async function up(q: QueryInterface): Promise<void> {
  await q.sequelize.query(UP);
}

export async function down(q: QueryInterface): Promise<void> {
  await q.sequelize.query(DOWN);
}

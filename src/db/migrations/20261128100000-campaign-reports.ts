import type { QueryInterface } from 'sequelize';

/**
 * Emailed reports (docs/decisions.md, "Reports by email") and the path for mail that is not a
 * campaign step:
 *
 * - `service_emails`: one row per message the service sends on its own behalf (a campaign report
 *   now, answers to replies later), reserved before SMTP under a unique `dedupe_key` with the
 *   Message-ID every attempt reuses, then marked `sent` or `failed`. A retried activity finds the
 *   row instead of sending twice. Bodies are not kept: what was sent is named by kind, recipient,
 *   subject and Message-ID.
 * - `campaign_reports`: one row per report of a campaign. Scheduled and final reports are unique
 *   on (campaign, kind, period end), so a replayed or retried schedule reserves the same row; an
 *   on-demand report is inserted by the API and named by its id. Listed newest first per campaign
 *   (`campaign_reports_campaign_created`), which also answers the on-demand rate limit (the
 *   campaign's latest on-demand report).
 */
export async function up(q: QueryInterface): Promise<void> {
  await q.sequelize.query(`
CREATE TABLE service_emails (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  kind TEXT NOT NULL,
  dedupe_key TEXT NOT NULL UNIQUE,
  from_email TEXT NOT NULL,
  from_name TEXT,
  to_email TEXT NOT NULL,
  subject TEXT NOT NULL,
  message_id TEXT NOT NULL UNIQUE,
  status TEXT NOT NULL CHECK (status IN ('sending', 'sent', 'failed')),
  attempts INTEGER NOT NULL DEFAULT 0,
  smtp_response TEXT,
  error TEXT,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  updated_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  sent_at TIMESTAMPTZ
);
CREATE INDEX service_emails_account_created ON service_emails (account_id, created_at);

CREATE TABLE campaign_reports (
  id TEXT PRIMARY KEY,
  campaign_id TEXT NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
  account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  kind TEXT NOT NULL CHECK (kind IN ('scheduled', 'final', 'on_demand')),
  period_start TIMESTAMPTZ NOT NULL,
  period_end TIMESTAMPTZ NOT NULL CHECK (period_end >= period_start),
  recipient TEXT,
  status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed', 'skipped')),
  error TEXT,
  service_email_id TEXT REFERENCES service_emails(id) ON DELETE SET NULL,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  sent_at TIMESTAMPTZ
);
CREATE UNIQUE INDEX campaign_reports_period ON campaign_reports (campaign_id, kind, period_end) WHERE kind IN ('scheduled', 'final');
CREATE INDEX campaign_reports_campaign_created ON campaign_reports (campaign_id, created_at DESC, id DESC);
`);
}

export async function down(q: QueryInterface): Promise<void> {
  await q.sequelize.query('DROP TABLE IF EXISTS campaign_reports, service_emails');
}

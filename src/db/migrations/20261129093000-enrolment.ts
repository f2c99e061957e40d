import type { QueryInterface } from 'sequelize';

/**
 * Enrolment: each lead's progress in a campaign, one row per (campaign, lead), written by the
 * planning and sending activities and by the API's enrol/remove (src/campaigns/enrolment). The
 * workflow keeps counters and cursors only, so a campaign of 50,000 leads keeps a small history.
 *
 * - `state`: queued (first email still to go), in_sequence, replied, meeting_booked, bounced,
 *   unsubscribed, finished, removed, skipped; `reason` says why for skipped, removed and a
 *   sequence ended early, `detail` carries what the reason names (the other campaign, ...).
 * - `step`: the last step sent or passed over (-1 before the first); `next_send_day` the campaign-
 *   local date on or after which the next step is due; `subject` and `thread` serve the steps of
 *   campaigns without a stored sequence (they thread from the workflow's record, now this row).
 * - `company_domain`: the lead's company (registrable domain), for stop_company_on_reply and the
 *   per-domain cap of first emails; `first_sent_day` the day its first email went out.
 * - The partial indexes serve the two hot reads: a campaign's due rows, and "is this person in an
 *   active sequence of the account" at enrolment.
 *
 * Campaigns gain their sources and the lead-control settings.
 */
export async function up(q: QueryInterface): Promise<void> {
  await q.sequelize.query(`
CREATE TABLE campaign_enrolments (
  campaign_id TEXT NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
  lead_id TEXT NOT NULL REFERENCES leads(id) ON DELETE CASCADE,
  account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  state TEXT NOT NULL CHECK (state IN ('queued', 'in_sequence', 'replied', 'meeting_booked', 'bounced', 'unsubscribed', 'finished', 'removed', 'skipped')),
  step INTEGER NOT NULL DEFAULT -1,
  next_send_day DATE,
  subject TEXT,
  thread TEXT[] NOT NULL DEFAULT '{}',
  reason TEXT,
  detail JSONB,
  source TEXT NOT NULL CHECK (source IN ('audience', 'list', 'manual', 'workflow')),
  company_domain TEXT,
  first_sent_day DATE,
  enrolled_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  updated_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  PRIMARY KEY (campaign_id, lead_id)
);
CREATE INDEX campaign_enrolments_due ON campaign_enrolments (campaign_id, next_send_day, enrolled_at) WHERE state IN ('queued', 'in_sequence');
CREATE INDEX campaign_enrolments_active_lead ON campaign_enrolments (account_id, lead_id) WHERE state IN ('queued', 'in_sequence');
CREATE INDEX campaign_enrolments_state ON campaign_enrolments (campaign_id, state, enrolled_at, lead_id);
CREATE INDEX campaign_enrolments_company ON campaign_enrolments (campaign_id, company_domain) WHERE state IN ('queued', 'in_sequence');
CREATE INDEX campaign_enrolments_lead ON campaign_enrolments (lead_id);
ALTER TABLE campaigns
  ADD COLUMN lead_list_ids TEXT[] NOT NULL DEFAULT '{}',
  ADD COLUMN allow_duplicate_leads BOOLEAN NOT NULL DEFAULT false,
  ADD COLUMN stop_company_on_reply BOOLEAN NOT NULL DEFAULT true,
  ADD COLUMN max_first_emails_per_domain_per_day INTEGER,
  ADD COLUMN skip_risky_leads BOOLEAN NOT NULL DEFAULT false;
`);
}

export async function down(q: QueryInterface): Promise<void> {
  await q.sequelize.query(`
DROP TABLE IF EXISTS campaign_enrolments;
ALTER TABLE campaigns DROP COLUMN IF EXISTS lead_list_ids, DROP COLUMN IF EXISTS allow_duplicate_leads, DROP COLUMN IF EXISTS stop_company_on_reply,
  DROP COLUMN IF EXISTS max_first_emails_per_domain_per_day, DROP COLUMN IF EXISTS skip_risky_leads;
`);
}

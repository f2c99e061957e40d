import type { QueryInterface } from 'sequelize';
import { presetSequence } from '../../campaigns/model/sequence';
import { TEMPLATES } from '../../campaigns/model/templates';

/**
 * What an email says and who says it (src/campaigns/sequences):
 *
 * - `campaign_sequences`: a campaign's sequence (steps, variants, auto-winner settings) as JSON,
 *   stored at create under version 1; a later edit adds a version, never rewrites one.
 *   `campaigns.sequence_version` names the version in use. Campaigns stored before this migration
 *   get their template's preset as version 1: the steps they were already sending.
 * - `campaigns.track_opens`, `track_clicks`, `plain_text_only`: the campaign's tracking choice
 *   (both tracked, HTML and text, by default: what every campaign did before).
 * - `emails.variant` (A-E, null before variants), `starts_thread` (the email opens a thread rather
 *   than replying in the one before; null on older rows, read as step = 0), `body_text` and
 *   `body_html` (the content as written, before tracking: an email sent again after a crash is sent
 *   with exactly this content; null on older rows, which are written again).
 * - `step_skips`: a step passed over for one lead, with the reason (a merge variable the lead
 *   lacks, a thread to reply in that never started).
 * - `variant_winners`: a step's variant test decided, with the figures it was decided on.
 * - `leads.custom_fields`: the columns of an import that are not lead fields, by normalised name
 *   (text values; null when the lead has none).
 * - `mailboxes.signature`; `accounts.sender_name`, `sender_signature`: who writes, when no mailbox
 *   says so.
 */
export async function up(q: QueryInterface): Promise<void> {
  await q.sequelize.query(`
ALTER TABLE campaigns
  ADD COLUMN sequence_version INTEGER CHECK (sequence_version >= 1),
  ADD COLUMN track_opens BOOLEAN NOT NULL DEFAULT true,
  ADD COLUMN track_clicks BOOLEAN NOT NULL DEFAULT true,
  ADD COLUMN plain_text_only BOOLEAN NOT NULL DEFAULT false;

CREATE TABLE campaign_sequences (
  campaign_id TEXT NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
  version INTEGER NOT NULL CHECK (version >= 1),
  sequence JSONB NOT NULL,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  PRIMARY KEY (campaign_id, version)
);

ALTER TABLE emails
  ADD COLUMN variant TEXT CHECK (variant IN ('A', 'B', 'C', 'D', 'E')),
  ADD COLUMN starts_thread BOOLEAN,
  ADD COLUMN body_text TEXT,
  ADD COLUMN body_html TEXT;

CREATE TABLE step_skips (
  campaign_id TEXT NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
  lead_id TEXT NOT NULL REFERENCES leads(id) ON DELETE CASCADE,
  step INTEGER NOT NULL CHECK (step >= 0),
  variant TEXT CHECK (variant IN ('A', 'B', 'C', 'D', 'E')),
  reason TEXT NOT NULL,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  PRIMARY KEY (campaign_id, lead_id, step)
);

CREATE TABLE variant_winners (
  campaign_id TEXT NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
  sequence_version INTEGER NOT NULL CHECK (sequence_version >= 1),
  step INTEGER NOT NULL CHECK (step >= 0),
  variant TEXT NOT NULL CHECK (variant IN ('A', 'B', 'C', 'D', 'E')),
  metric TEXT NOT NULL CHECK (metric IN ('reply_rate', 'positive_reply_rate')),
  figures JSONB NOT NULL,
  decided_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  PRIMARY KEY (campaign_id, sequence_version, step)
);

ALTER TABLE leads ADD COLUMN custom_fields JSONB;
ALTER TABLE mailboxes ADD COLUMN signature TEXT;
ALTER TABLE accounts ADD COLUMN sender_name TEXT, ADD COLUMN sender_signature TEXT;
`);
  // Every campaign so far sent its template's steps: that is its version 1.
  const presets = TEMPLATES.map((t) => ({ mcp: t.name, sequence: presetSequence(t) }));
  await q.sequelize.query(
    `INSERT INTO campaign_sequences (campaign_id, version, sequence)
     SELECT c.id, 1, p.sequence FROM campaigns c JOIN jsonb_to_recordset($1::jsonb) AS p(mcp text, sequence jsonb) ON p.mcp = c.mcp`,
    { bind: [JSON.stringify(presets)] },
  );
  await q.sequelize.query(`UPDATE campaigns c SET sequence_version = 1 WHERE EXISTS (SELECT 1 FROM campaign_sequences s WHERE s.campaign_id = c.id)`);
}

export async function down(q: QueryInterface): Promise<void> {
  await q.sequelize.query(`
ALTER TABLE accounts DROP COLUMN IF EXISTS sender_signature, DROP COLUMN IF EXISTS sender_name;
ALTER TABLE mailboxes DROP COLUMN IF EXISTS signature;
ALTER TABLE leads DROP COLUMN IF EXISTS custom_fields;
DROP TABLE IF EXISTS variant_winners;
DROP TABLE IF EXISTS step_skips;
ALTER TABLE emails DROP COLUMN IF EXISTS body_html, DROP COLUMN IF EXISTS body_text, DROP COLUMN IF EXISTS starts_thread, DROP COLUMN IF EXISTS variant;
DROP TABLE IF EXISTS campaign_sequences;
ALTER TABLE campaigns
  DROP COLUMN IF EXISTS plain_text_only,
  DROP COLUMN IF EXISTS track_clicks,
  DROP COLUMN IF EXISTS track_opens,
  DROP COLUMN IF EXISTS sequence_version;
`);
}

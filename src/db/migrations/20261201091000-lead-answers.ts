import type { QueryInterface } from 'sequelize';

/**
 * Answers in the thread (docs/decisions.md, "Answers in the thread"): an answer the user writes to
 * a lead is a `service_emails` row of kind `reply_answer`, sent by its own workflow
 * (`service-email-<id>`). The row holds everything the message is made of, so an attempt after a
 * crash or an SMTP outage sends the same message with the same Message-ID:
 *
 * - `lead_id`, `campaign_id`: who it answers, and the campaign of the conversation (costs);
 * - `mailbox_id`: the mailbox the lead knows (sticky sender): its server sends it while it is active,
 *   the default transport with the same From otherwise (null: the lead was written by the default sender);
 * - `cc`, `in_reply_to`, `references_ids` (Message-IDs, `<id>` form, oldest first);
 * - `body_text`, `body_html`: the content as sent (signature included, no tracking).
 *
 * Reports keep their rows as they are (the new columns are empty or null for them). The thread of
 * a lead lists its answers by (lead_id, created_at).
 */
export async function up(q: QueryInterface): Promise<void> {
  await q.sequelize.query(`
ALTER TABLE service_emails
  ADD COLUMN lead_id TEXT NULL REFERENCES leads(id) ON DELETE CASCADE,
  ADD COLUMN campaign_id TEXT NULL REFERENCES campaigns(id) ON DELETE SET NULL,
  ADD COLUMN mailbox_id TEXT NULL REFERENCES mailboxes(id) ON DELETE SET NULL,
  ADD COLUMN cc JSONB NOT NULL DEFAULT '[]',
  ADD COLUMN in_reply_to TEXT NULL,
  ADD COLUMN references_ids JSONB NOT NULL DEFAULT '[]',
  ADD COLUMN body_text TEXT NULL,
  ADD COLUMN body_html TEXT NULL;
CREATE INDEX service_emails_lead_created ON service_emails (lead_id, created_at) WHERE lead_id IS NOT NULL;
`);
}

export async function down(q: QueryInterface): Promise<void> {
  await q.sequelize.query(`
DROP INDEX IF EXISTS service_emails_lead_created;
ALTER TABLE service_emails
  DROP COLUMN IF EXISTS lead_id,
  DROP COLUMN IF EXISTS campaign_id,
  DROP COLUMN IF EXISTS mailbox_id,
  DROP COLUMN IF EXISTS cc,
  DROP COLUMN IF EXISTS in_reply_to,
  DROP COLUMN IF EXISTS references_ids,
  DROP COLUMN IF EXISTS body_text,
  DROP COLUMN IF EXISTS body_html;
`);
}

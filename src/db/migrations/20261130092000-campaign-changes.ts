import type { QueryInterface } from 'sequelize';

/**
 * The history of a campaign's changes (issue 28 point 1): who changed what and when. One row per
 * edit (PATCH) and per pause, stop or resume a user asked for; written in the same transaction as
 * the change itself, by the activity the campaign's workflow runs (or by the API for a draft,
 * which has no workflow). The id is chosen by the API, so a retried activity writes its row once.
 *
 * - `actor`: {via: api_a | api_b | dashboard, keyId, keyPrefix}: the key a request (or the
 *   dashboard session) acted with.
 * - `fields`: [{field, from, to}] by Surface A's field path (Surface B shows it in camelCase).
 */
export async function up(q: QueryInterface): Promise<void> {
  await q.sequelize.query(`
CREATE TABLE campaign_changes (
  id TEXT PRIMARY KEY,
  campaign_id TEXT NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
  account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  kind TEXT NOT NULL CHECK (kind IN ('edit', 'pause', 'stop', 'resume')),
  actor JSONB NOT NULL,
  fields JSONB NOT NULL,
  at TIMESTAMPTZ NOT NULL
);
CREATE INDEX campaign_changes_by_campaign ON campaign_changes (campaign_id, at DESC, id DESC);
`);
}

export async function down(q: QueryInterface): Promise<void> {
  await q.sequelize.query(`DROP TABLE IF EXISTS campaign_changes`);
}

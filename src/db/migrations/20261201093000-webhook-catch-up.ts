import type { QueryInterface } from 'sequelize';

/**
 * Receivers that come back (src/webhooks/catch-up.ts): when a URL answers 2xx, the account's
 * deliveries to it that ended `failed` are sent again one at a time, oldest event first.
 *
 * - `event_at`: the event's own time (its outbox `created_at`), copied onto the delivery so the
 *   oldest failed delivery of a URL is the first entry of an index, not a join and a sort over
 *   every failed delivery of the URL at each step. Filled by the dispatcher's claim and by the test
 *   event; backfilled here. (The delivery's own `created_at` is when the dispatcher claimed the
 *   event: one value for a whole claimed batch, and later than an older event committed late.)
 * - `webhook_deliveries_failed_url`: what a success probes (is anything waiting for this URL? which
 *   is the oldest?). Partial: only failed, non-test deliveries, so a URL that keeps succeeding pays
 *   one probe of an empty range.
 * - `webhook_deliveries_resending`: the pending later cycles (resends, catch-ups) of a URL, so a
 *   success can see that a catch-up to that URL is already in flight. Rows are there only for the
 *   moments an attempt of a later cycle is pending.
 */
const UP = `
ALTER TABLE webhook_deliveries ADD COLUMN event_at TIMESTAMPTZ;
UPDATE webhook_deliveries d SET event_at = o.created_at FROM outbox o WHERE o.id = d.event_id;
CREATE INDEX webhook_deliveries_failed_url ON webhook_deliveries (account_id, url, event_at, event_id)
  WHERE status = 'failed' AND event <> 'webhook.test';
CREATE INDEX webhook_deliveries_resending ON webhook_deliveries (account_id, url) WHERE status = 'pending' AND cycle > 1;
`;

const DOWN = `
DROP INDEX IF EXISTS webhook_deliveries_resending;
DROP INDEX IF EXISTS webhook_deliveries_failed_url;
ALTER TABLE webhook_deliveries DROP COLUMN IF EXISTS event_at;
`;

export async function up(q: QueryInterface): Promise<void> {
  await q.sequelize.query(UP);
}

export async function down(q: QueryInterface): Promise<void> {
  await q.sequelize.query(DOWN);
}

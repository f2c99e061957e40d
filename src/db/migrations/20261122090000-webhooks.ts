import type { QueryInterface } from 'sequelize';

/**
 * Webhook delivery: each account's settings (global URL, signing secret and the previous secret
 * during a rotation), one delivery per (event, destination URL), and every attempt of a delivery.
 * A trigger wakes the dispatcher (LISTEN outbox) as soon as new events commit; NOTIFY is
 * transactional, so a rolled-back fact wakes nobody.
 */
const UP = `
CREATE TABLE webhook_settings (
  account_id TEXT PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
  url TEXT,
  secret TEXT NOT NULL,
  previous_secret TEXT,
  previous_secret_expires_at TIMESTAMPTZ,
  secret_rotated_at TIMESTAMPTZ,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  updated_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  CONSTRAINT webhook_settings_previous_check CHECK ((previous_secret IS NULL) = (previous_secret_expires_at IS NULL))
);

CREATE TABLE webhook_deliveries (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  event_id TEXT NOT NULL REFERENCES outbox(id) ON DELETE CASCADE,
  event TEXT NOT NULL,
  campaign_id TEXT REFERENCES campaigns(id) ON DELETE CASCADE,
  url TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('pending', 'retrying', 'delivered', 'failed')),
  -- 1, plus one per resend: each cycle is an attempt at once and the ladder after it.
  cycle INTEGER NOT NULL DEFAULT 1 CHECK (cycle >= 1),
  attempt_count INTEGER NOT NULL DEFAULT 0 CHECK (attempt_count >= 0),
  -- pending: the dispatcher holding the attempt until then; another takes over after it.
  lease_until TIMESTAMPTZ,
  -- retrying: the Temporal workflow that owns this cycle's retries, once it has been started.
  retry_workflow_id TEXT,
  next_attempt_at TIMESTAMPTZ,
  last_attempt_at TIMESTAMPTZ,
  last_status_code INTEGER,
  last_error TEXT,
  delivered_at TIMESTAMPTZ,
  failed_at TIMESTAMPTZ,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  updated_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  CONSTRAINT webhook_deliveries_event_url UNIQUE (event_id, url)
);
CREATE INDEX webhook_deliveries_account ON webhook_deliveries (account_id, created_at DESC, id DESC);
CREATE INDEX webhook_deliveries_campaign ON webhook_deliveries (campaign_id, created_at DESC) WHERE campaign_id IS NOT NULL;
CREATE INDEX webhook_deliveries_pending ON webhook_deliveries (lease_until) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_unowned ON webhook_deliveries (updated_at) WHERE status = 'retrying' AND retry_workflow_id IS NULL;

CREATE TABLE webhook_attempts (
  delivery_id TEXT NOT NULL REFERENCES webhook_deliveries(id) ON DELETE CASCADE,
  -- 1, 2, ... across the delivery's cycles; within a cycle the first is at once, the rest the ladder's retries.
  number INTEGER NOT NULL CHECK (number >= 1),
  cycle INTEGER NOT NULL,
  attempted_at TIMESTAMPTZ NOT NULL,
  duration_ms INTEGER NOT NULL CHECK (duration_ms >= 0),
  status_code INTEGER,
  error TEXT,
  succeeded BOOLEAN NOT NULL,
  PRIMARY KEY (delivery_id, number)
);

CREATE FUNCTION outbox_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('outbox', '');
  RETURN NULL;
END
$$;
CREATE TRIGGER outbox_notify AFTER INSERT ON outbox FOR EACH STATEMENT EXECUTE FUNCTION outbox_notify();
`;

const DOWN = `
DROP TRIGGER IF EXISTS outbox_notify ON outbox;
DROP FUNCTION IF EXISTS outbox_notify();
DROP TABLE IF EXISTS webhook_attempts, webhook_deliveries, webhook_settings;
`;

export async function up(q: QueryInterface): Promise<void> {
  await q.sequelize.query(UP);
}

export async function down(q: QueryInterface): Promise<void> {
  await q.sequelize.query(DOWN);
}

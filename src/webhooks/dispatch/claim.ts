import { QueryTypes, type Sequelize } from 'sequelize';
import { WEBHOOK_EVENT_KINDS } from '../event-kinds';

export interface ClaimedEvents {
  /** Outbox events taken, of every kind (statistics-only events are only marked dispatched). */
  readonly events: number;
  /** Deliveries created for them, leased to the caller, in outbox order. */
  readonly deliveryIds: readonly string[];
}

/**
 * Takes up to `limit` undispatched outbox events (oldest first; rows another dispatcher holds are
 * skipped, not waited for), marks them dispatched and creates their deliveries, all in one
 * statement, so an event is either still in the outbox or has its deliveries, never neither.
 *
 * An event of a webhook kind goes to the campaign's `reporting.webhook_url` and to the account's
 * global URL, once when they are the same (DISTINCT over normalised URLs). A delivery's id is
 * derived from (event, URL), so it is stable and the unique (event_id, url) pair makes a repeat a
 * no-op. New deliveries are `pending`, leased to the caller for `leaseMs`: if the caller dies
 * before recording the attempt, another dispatcher takes them over when the lease runs out. Each
 * carries its event's time (`event_at`), the order in which a receiver that comes back gets its
 * failed deliveries (catch-up.ts).
 */
export async function claimOutboxEvents(sequelize: Sequelize, limit: number, leaseMs: number): Promise<ClaimedEvents> {
  const rows = await sequelize.query<{ events: string; ids: string[] | null }>(
    `WITH claimed AS (
       SELECT id FROM outbox WHERE dispatched_at IS NULL ORDER BY created_at LIMIT $1 FOR UPDATE SKIP LOCKED
     ), marked AS (
       UPDATE outbox o SET dispatched_at = now() FROM claimed WHERE o.id = claimed.id
       RETURNING o.id, o.account_id, o.campaign_id, o.event, o.created_at
     ), targets AS (
       SELECT DISTINCT m.id AS event_id, m.account_id, m.campaign_id, m.event, m.created_at, d.url
         FROM marked m
         LEFT JOIN campaigns c ON c.id = m.campaign_id
         LEFT JOIN webhook_settings s ON s.account_id = m.account_id
         CROSS JOIN LATERAL (VALUES (c.reporting_webhook_url), (s.url)) AS d(url)
        WHERE m.event = ANY($2::text[]) AND d.url IS NOT NULL
     ), inserted AS (
       INSERT INTO webhook_deliveries (id, account_id, event_id, event, campaign_id, url, status, lease_until, created_at, event_at)
       SELECT 'whd_' || substr(encode(sha256(convert_to(t.event_id || ' ' || t.url, 'UTF8')), 'hex'), 1, 16),
              t.account_id, t.event_id, t.event, t.campaign_id, t.url, 'pending', now() + $3 * interval '1 millisecond', now(), t.created_at
         FROM targets t
        ORDER BY t.created_at, t.event_id
       ON CONFLICT (event_id, url) DO NOTHING
       RETURNING id, created_at
     )
     SELECT (SELECT count(*) FROM marked) AS events, (SELECT array_agg(id ORDER BY created_at) FROM inserted) AS ids`,
    { bind: [limit, [...WEBHOOK_EVENT_KINDS], leaseMs], type: QueryTypes.SELECT },
  );
  const row = rows[0];
  return { events: Number(row?.events ?? 0), deliveryIds: row?.ids ?? [] };
}

/**
 * Takes over up to `limit` pending deliveries whose lease has run out: a dispatcher died between
 * claiming and recording, or the delivery was resent (a resend sets the lease to now). Origins in
 * `skipOrigins` (those with their share of attempts in flight) are left for claimForOrigin.
 */
export async function claimExpiredLeases(sequelize: Sequelize, limit: number, leaseMs: number, skipOrigins: readonly string[] = []): Promise<string[]> {
  const rows = await sequelize.query<{ id: string }>(
    `UPDATE webhook_deliveries d SET lease_until = now() + $2 * interval '1 millisecond', updated_at = now()
      WHERE d.id IN (
        SELECT id FROM webhook_deliveries WHERE status = 'pending' AND lease_until <= now() AND NOT (origin = ANY($3::text[]))
         ORDER BY lease_until LIMIT $1 FOR UPDATE SKIP LOCKED)
      RETURNING d.id`,
    { bind: [limit, leaseMs, skipOrigins], type: QueryTypes.SELECT },
  );
  return rows.map((r) => r.id);
}

/**
 * Takes up to `room` of one origin's pending deliveries set aside (or expired), oldest first,
 * through the (origin, lease_until) index: what a destination's freed slots may take.
 */
export async function claimForOrigin(sequelize: Sequelize, origin: string, room: number, leaseMs: number): Promise<string[]> {
  const rows = await sequelize.query<{ id: string }>(
    `UPDATE webhook_deliveries d SET lease_until = now() + $3 * interval '1 millisecond', updated_at = now()
      WHERE d.id IN (
        SELECT id FROM webhook_deliveries WHERE status = 'pending' AND origin = $1 AND lease_until <= now()
         ORDER BY lease_until LIMIT $2 FOR UPDATE SKIP LOCKED)
      RETURNING d.id`,
    { bind: [origin, room, leaseMs], type: QueryTypes.SELECT },
  );
  return rows.map((r) => r.id);
}

/** Gives claimed deliveries back at once (their destination has its share in flight). */
export async function releaseLeases(sequelize: Sequelize, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await sequelize.query(`UPDATE webhook_deliveries SET lease_until = now(), updated_at = now() WHERE id = ANY($1::text[]) AND status = 'pending'`, { bind: [ids] });
}

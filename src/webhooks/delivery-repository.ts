import { QueryTypes, type Sequelize } from 'sequelize';
import { envelopeBody } from './envelope';
import { TEST_EVENT_KIND } from './event-kinds';

/** Where a delivery stands: being attempted, between retries, done, or given up after the ladder. */
export const DELIVERY_STATUSES = ['pending', 'retrying', 'delivered', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** One delivery (an event to one URL) as the log shows it. */
export interface DeliverySummary {
  readonly id: string;
  readonly accountId: string;
  readonly eventId: string;
  readonly event: string;
  readonly campaignId: string | null;
  readonly url: string;
  readonly status: DeliveryStatus;
  /** 1, plus one per resend. */
  readonly cycle: number;
  readonly attemptCount: number;
  /** When the next attempt is due (a retry, or a resend about to be taken); null when none is planned. */
  readonly nextAttemptAt: Date | null;
  readonly lastAttemptAt: Date | null;
  readonly lastStatusCode: number | null;
  readonly lastError: string | null;
  readonly deliveredAt: Date | null;
  readonly failedAt: Date | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
  /**
   * Failed, and not a test event: it is sent again (a new cycle, same event id and body) when its URL
   * next answers 2xx to any event of the account, oldest event first (catch-up.ts).
   */
  readonly resendsOnRecovery: boolean;
}

export interface DeliveryAttempt {
  /** 1, 2, ... across all cycles of the delivery. */
  readonly number: number;
  readonly cycle: number;
  readonly attemptedAt: Date;
  readonly durationMs: number;
  /** The receiver's status; null when it never answered (connection error, timeout). */
  readonly statusCode: number | null;
  readonly error: string | null;
  readonly succeeded: boolean;
}

/** The body a receiver gets for the event, as an object (the same bytes on every attempt). */
export interface DeliveryPayload {
  readonly id: string;
  readonly event: string;
  readonly created_at: string;
  readonly campaign_id: string | null;
  readonly data: Record<string, unknown>;
}

export interface DeliveryDetail extends DeliverySummary {
  /** Oldest first. */
  readonly attempts: readonly DeliveryAttempt[];
  readonly payload: DeliveryPayload;
}

export interface DeliveryFilter {
  readonly event?: string;
  readonly campaignId?: string;
  readonly status?: DeliveryStatus;
  /** Only deliveries to this URL, as stored (normalised: normalizeWebhookUrl). */
  readonly url?: string;
}

/**
 * `newest`: the newest delivery first (the log's order). `oldest`: the oldest event first, by the
 * event's time then its id: with `status: failed` and a `url`, the order in which the receiver will
 * get them when it answers again (catch-up.ts).
 */
export type DeliveryOrder = 'newest' | 'oldest';

const ORDER_BY: Record<DeliveryOrder, string> = {
  newest: 'd.created_at DESC, d.id DESC',
  // event_at is filled for every delivery the service writes; a row without it sorts by its creation.
  oldest: 'COALESCE(d.event_at, d.created_at), d.event_id, d.id',
};

export interface DeliveryPage {
  readonly deliveries: readonly DeliverySummary[];
  /** Deliveries matching the filter, over all pages. */
  readonly total: number;
}

/** A delivery row as DELIVERY_COLUMNS selects it. */
export interface DeliveryRow {
  id: string;
  account_id: string;
  event_id: string;
  event: string;
  campaign_id: string | null;
  url: string;
  status: DeliveryStatus;
  cycle: number;
  attempt_count: number;
  next_attempt_at: Date | null;
  last_attempt_at: Date | null;
  last_status_code: number | null;
  last_error: string | null;
  delivered_at: Date | null;
  failed_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export const DELIVERY_COLUMNS = `d.id, d.account_id, d.event_id, d.event, d.campaign_id, d.url, d.status, d.cycle, d.attempt_count,
  d.next_attempt_at, d.last_attempt_at, d.last_status_code, d.last_error, d.delivered_at, d.failed_at, d.created_at, d.updated_at`;

export function deliveryFromRow(r: DeliveryRow): DeliverySummary {
  return {
    id: r.id,
    accountId: r.account_id,
    eventId: r.event_id,
    event: r.event,
    campaignId: r.campaign_id,
    url: r.url,
    status: r.status,
    cycle: r.cycle,
    attemptCount: r.attempt_count,
    nextAttemptAt: r.next_attempt_at,
    lastAttemptAt: r.last_attempt_at,
    lastStatusCode: r.last_status_code,
    lastError: r.last_error,
    deliveredAt: r.delivered_at,
    failedAt: r.failed_at,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    resendsOnRecovery: r.status === 'failed' && r.event !== TEST_EVENT_KIND,
  };
}

/**
 * One page of the account's deliveries, newest first (the order of the account index, so a page
 * is an index range scan) or oldest event first, with the number matching the filter. `page`
 * counts from 1.
 */
export async function listDeliveries(
  sequelize: Sequelize,
  accountId: string,
  filter: DeliveryFilter,
  page: number,
  perPage: number,
  order: DeliveryOrder = 'newest',
): Promise<DeliveryPage> {
  const where =
    `d.account_id = $1 AND ($2::text IS NULL OR d.event = $2) AND ($3::text IS NULL OR d.campaign_id = $3) AND ($4::text IS NULL OR d.status = $4)` +
    ` AND ($5::text IS NULL OR d.url = $5)`;
  const bind = [accountId, filter.event ?? null, filter.campaignId ?? null, filter.status ?? null, filter.url ?? null];
  const [rows, counted] = await Promise.all([
    sequelize.query<DeliveryRow>(`SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries d WHERE ${where} ORDER BY ${ORDER_BY[order]} LIMIT $6 OFFSET $7`, {
      bind: [...bind, perPage, (page - 1) * perPage],
      type: QueryTypes.SELECT,
    }),
    sequelize.query<{ n: string }>(`SELECT count(*) AS n FROM webhook_deliveries d WHERE ${where}`, { bind, type: QueryTypes.SELECT }),
  ]);
  return { deliveries: rows.map(deliveryFromRow), total: Number(counted[0]?.n ?? 0) };
}

/**
 * One delivery with every attempt and the payload it posts, or null when there is none with this
 * id — or, given `accountId`, none of that account's (another account's delivery is not found,
 * never forbidden: its existence is not the caller's to learn). The CLI passes null: operator scope.
 */
export async function deliveryDetail(sequelize: Sequelize, deliveryId: string, accountId: string | null): Promise<DeliveryDetail | null> {
  const [row] = await sequelize.query<DeliveryRow & { created: Date; data: Record<string, unknown>; outbox_campaign_id: string | null }>(
    `SELECT ${DELIVERY_COLUMNS}, o.created_at AS created, o.data, o.campaign_id AS outbox_campaign_id
       FROM webhook_deliveries d JOIN outbox o ON o.id = d.event_id
      WHERE d.id = $1 AND ($2::text IS NULL OR d.account_id = $2)`,
    { bind: [deliveryId, accountId], type: QueryTypes.SELECT },
  );
  if (row === undefined) return null;
  const attempts = await attemptRows(sequelize, deliveryId);
  // Built by the same function the dispatcher posts with, so the log shows exactly what was sent.
  const body = envelopeBody({ id: row.event_id, event: row.event, createdAt: row.created, campaignId: row.outbox_campaign_id, data: row.data });
  return {
    ...deliveryFromRow(row),
    attempts: attempts.map((a) => ({
      number: a.number,
      cycle: a.cycle,
      attemptedAt: a.attempted_at,
      durationMs: a.duration_ms,
      statusCode: a.status_code,
      error: a.error,
      succeeded: a.succeeded,
    })),
    payload: JSON.parse(body) as DeliveryPayload,
  };
}

/** One attempt of a delivery, as stored. */
export interface AttemptRow {
  readonly number: number;
  readonly cycle: number;
  readonly attempted_at: Date;
  readonly duration_ms: number;
  readonly status_code: number | null;
  readonly error: string | null;
  readonly succeeded: boolean;
}

/** A delivery's attempts in the order they were made (numbering runs on across cycles). */
export async function attemptRows(sequelize: Sequelize, deliveryId: string): Promise<AttemptRow[]> {
  return sequelize.query<AttemptRow>(
    `SELECT number, cycle, attempted_at, duration_ms, status_code, error, succeeded FROM webhook_attempts WHERE delivery_id = $1 ORDER BY number`,
    { bind: [deliveryId], type: QueryTypes.SELECT },
  );
}

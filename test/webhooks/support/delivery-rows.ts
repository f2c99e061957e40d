/**
 * Webhook rows written straight to PostgreSQL, in the states the dispatcher leaves them (a failed
 * first attempt, a pending delivery whose lease ran out), and readers for what tests assert on.
 */
import { randomBytes } from 'node:crypto';
import { QueryTypes, type Sequelize } from 'sequelize';
import { emitEvent } from '../../../src/webhooks/outbox-repository';
import type { DeliveryRow as DeliveryLogRow } from '../../../src/webhooks/delivery-repository';
import { retryWorkflowId } from '../../../workflows/webhooks/contract';

export interface SeededDelivery {
  readonly deliveryId: string;
  readonly eventId: string;
  readonly cycle: number;
  /** When the seeded first attempt failed. */
  readonly failedAt: Date;
}

export interface OutboxEventFields {
  readonly accountId: string;
  readonly campaignId: string | null;
  readonly event?: string;
  readonly data?: Record<string, unknown>;
}

const sampleReply = { reply_id: 'rpl_1', email: 'ada@prospect.example', name: 'Ada Lovelace', company: 'Analytical Engines', title: 'CTO', sentiment: 'positive', preview: 'Tuesday works', received_at: '2026-11-23T10:15:29.000Z' };

/** An outbox event the dispatcher has already taken (dispatched_at set): no dispatcher claims it again. */
export async function seedDispatchedEvent(sequelize: Sequelize, f: OutboxEventFields): Promise<string> {
  return sequelize.transaction(async (tx) => {
    const id = await emitEvent(sequelize, tx, { accountId: f.accountId, campaignId: f.campaignId, event: f.event ?? 'reply.received', data: f.data ?? sampleReply });
    await sequelize.query('UPDATE outbox SET dispatched_at = now() WHERE id = $1', { bind: [id], transaction: tx });
    return id;
  });
}

const newDeliveryId = (): string => `whd_${randomBytes(8).toString('hex')}`;

export interface FailedFirstAttempt {
  /** When the first attempt started (default now) and how long it took (default 3 ms). */
  readonly attemptedAt?: Date;
  readonly durationMs?: number;
  /**
   * Whether its retry workflow was recorded as started (default true). False is a dispatcher that
   * died between recording the failure and starting the workflow, `idleMs` ago.
   */
  readonly owned?: boolean;
  readonly idleMs?: number;
}

/**
 * A delivery whose first attempt failed with a 500, exactly as the dispatcher leaves it: `retrying`,
 * attempt_count 1, attempt row 1, next attempt a minute after the failure, and (unless told) its
 * retry workflow recorded as started.
 */
export async function seedRetryingDelivery(sequelize: Sequelize, f: OutboxEventFields & FailedFirstAttempt & { readonly url: string }): Promise<SeededDelivery> {
  const eventId = await seedDispatchedEvent(sequelize, f);
  const deliveryId = newDeliveryId();
  const attemptedAt = f.attemptedAt ?? new Date();
  const durationMs = f.durationMs ?? 3;
  const failedAt = new Date(attemptedAt.getTime() + durationMs);
  const owner = f.owned === false ? null : retryWorkflowId(deliveryId, 1);
  await sequelize.transaction(async (tx) => {
    await sequelize.query(
      `INSERT INTO webhook_deliveries (id, account_id, event_id, event, campaign_id, url, status, cycle, attempt_count, retry_workflow_id,
                                       next_attempt_at, last_attempt_at, last_status_code, last_error, updated_at)
       SELECT $1, account_id, id, event, campaign_id, $3, 'retrying', 1, 1, $4, $6::timestamptz + interval '1 minute', $5, 500, 'HTTP 500',
              now() - $7 * interval '1 millisecond'
         FROM outbox WHERE id = $2`,
      { bind: [deliveryId, eventId, f.url, owner, attemptedAt.toISOString(), failedAt.toISOString(), f.idleMs ?? 0], transaction: tx },
    );
    await sequelize.query(
      `INSERT INTO webhook_attempts (delivery_id, number, cycle, attempted_at, duration_ms, status_code, error, succeeded) VALUES ($1, 1, 1, $2, $3, 500, 'HTTP 500', false)`,
      { bind: [deliveryId, attemptedAt.toISOString(), durationMs], transaction: tx },
    );
  });
  return { deliveryId, eventId, cycle: 1, failedAt };
}

/**
 * A delivery claimed by a dispatcher that died before its attempt was recorded: `pending`, its
 * lease over since `expiredMsAgo`.
 */
export async function seedExpiredPendingDelivery(sequelize: Sequelize, f: OutboxEventFields & { readonly url: string; readonly expiredMsAgo: number }): Promise<SeededDelivery> {
  const eventId = await seedDispatchedEvent(sequelize, f);
  const deliveryId = newDeliveryId();
  await sequelize.query(
    `INSERT INTO webhook_deliveries (id, account_id, event_id, event, campaign_id, url, status, lease_until)
     SELECT $1, account_id, id, event, campaign_id, $3, 'pending', now() - $4 * interval '1 millisecond' FROM outbox WHERE id = $2`,
    { bind: [deliveryId, eventId, f.url, f.expiredMsAgo] },
  );
  return { deliveryId, eventId, cycle: 1, failedAt: new Date(0) };
}

/** Every column of a delivery: what the log selects, and the dispatcher's own bookkeeping. */
export type DeliveryRow = DeliveryLogRow & { lease_until: Date | null; retry_workflow_id: string | null };


export async function deliveryRow(sequelize: Sequelize, deliveryId: string): Promise<DeliveryRow> {
  const [row] = await sequelize.query<DeliveryRow>('SELECT * FROM webhook_deliveries WHERE id = $1', { bind: [deliveryId], type: QueryTypes.SELECT });
  if (row === undefined) throw new Error(`no delivery ${deliveryId}`);
  return row;
}

/** Every delivery of an event, by URL. */
export async function deliveriesOf(sequelize: Sequelize, eventId: string): Promise<DeliveryRow[]> {
  return sequelize.query<DeliveryRow>('SELECT * FROM webhook_deliveries WHERE event_id = $1 ORDER BY url', { bind: [eventId], type: QueryTypes.SELECT });
}

export { attemptRows, type AttemptRow } from '../../../src/webhooks/delivery-repository';

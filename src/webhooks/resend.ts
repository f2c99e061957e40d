import { QueryTypes, type Sequelize } from 'sequelize';
import { DELIVERY_COLUMNS, deliveryFromRow, type DeliveryRow, type DeliveryStatus, type DeliverySummary } from './delivery-repository';
import { TEST_EVENT_KIND } from './event-kinds';

/** Why a delivery cannot be resent; `reason` lets the API and the CLI pick their answer. */
export class ResendRefused extends Error {
  override readonly name = 'ResendRefused';
  constructor(
    readonly reason: 'not_found' | 'in_flight' | 'test_event',
    message: string,
  ) {
    super(message);
  }
}

/**
 * Sends a settled delivery (`failed`, or `delivered` when the receiver lost it) again: the same
 * event id and the same body, so a receiver that deduplicates on the id sees a repeat, not a new
 * event. In one statement the delivery starts a new cycle — pending, with its lease already
 * expired and no retry workflow — and NOTIFY wakes a dispatcher, whose takeover of expired leases
 * (claimExpiredLeases) makes the attempt within milliseconds; if it fails, that cycle climbs the
 * whole retry ladder again. Attempts of earlier cycles stay in the log and numbering continues.
 *
 * Refused: a delivery still `pending` or `retrying` (it is being delivered: two cycles at once
 * would post twice), one not found (given `accountId`, not that account's), and a test event
 * (sent once on request, never retried: send a new one instead).
 */
export async function resendDelivery(sequelize: Sequelize, deliveryId: string, accountId: string | null): Promise<DeliverySummary> {
  const [row] = await sequelize.query<DeliveryRow>(
    `WITH resent AS (
       UPDATE webhook_deliveries d
          SET status = 'pending', cycle = d.cycle + 1, lease_until = now(), retry_workflow_id = NULL,
              next_attempt_at = now(), failed_at = NULL, updated_at = now()
        WHERE d.id = $1 AND ($2::text IS NULL OR d.account_id = $2) AND d.status IN ('failed', 'delivered') AND d.event <> $3
        RETURNING ${DELIVERY_COLUMNS}
     )
     -- NOTIFY only when a row changed; it is sent at commit, so the dispatcher sees the new cycle.
     SELECT ${DELIVERY_COLUMNS}, pg_notify('outbox', '') FROM resent d`,
    { bind: [deliveryId, accountId, TEST_EVENT_KIND], type: QueryTypes.SELECT },
  );
  if (row !== undefined) return deliveryFromRow(row);
  throw await whyNot(sequelize, deliveryId, accountId);
}

async function whyNot(sequelize: Sequelize, deliveryId: string, accountId: string | null): Promise<ResendRefused> {
  const [found] = await sequelize.query<{ status: DeliveryStatus; event: string }>(
    `SELECT status, event FROM webhook_deliveries WHERE id = $1 AND ($2::text IS NULL OR account_id = $2)`,
    { bind: [deliveryId, accountId], type: QueryTypes.SELECT },
  );
  if (found === undefined) return new ResendRefused('not_found', `No webhook delivery ${deliveryId}`);
  if (found.event === TEST_EVENT_KIND) return new ResendRefused('test_event', 'A test event is sent once and never resent: send a new test event instead');
  return new ResendRefused('in_flight', `Webhook delivery ${deliveryId} is already being delivered (status ${found.status}); resend it once it is delivered or failed`);
}

import type { Sequelize, Transaction } from 'sequelize';
import { newId } from '../accounts/ids';

/**
 * Domain event names written to the outbox. The webhook dispatcher decides which of them become
 * webhook events (the spec's kinds); the rest are there for the statistics and integrations.
 */
export type DomainEventName =
  | 'email.sent'
  | 'email.delivered'
  | 'email.bounced'
  | 'email.opened'
  | 'email.clicked'
  | 'email.replied'
  | 'email.unsubscribed'
  | 'email.complained'
  | 'email.meeting_booked'
  | 'reply.received'
  | 'meeting.booked'
  | 'cost.recorded'
  | (string & {});

export interface DomainEvent {
  readonly accountId: string;
  readonly campaignId: string | null;
  readonly event: DomainEventName;
  readonly data: Record<string, unknown>;
  /** When the fact happened; defaults to the database's now(). */
  readonly at?: Date;
}

/**
 * Appends an event to the outbox inside the caller's transaction, so the event exists exactly when
 * the fact it reports was committed. Returns the event id (stable across delivery retries).
 */
export async function emitEvent(sequelize: Sequelize, tx: Transaction, ev: DomainEvent): Promise<string> {
  const id = newId('evt');
  await sequelize.query(
    `INSERT INTO outbox (id, account_id, campaign_id, event, data, created_at) VALUES ($1, $2, $3, $4, $5::jsonb, COALESCE($6::timestamptz, now()))`,
    { bind: [id, ev.accountId, ev.campaignId, ev.event, JSON.stringify(ev.data), ev.at?.toISOString() ?? null], transaction: tx },
  );
  return id;
}

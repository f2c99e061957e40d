import { Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import { col } from './columns';

/**
 * A domain event waiting to be delivered (webhooks). Written in the same transaction as the fact it
 * reports; `id` is the event id receivers deduplicate on, stable across delivery retries.
 */
export class OutboxEvent extends Model<InferAttributes<OutboxEvent>, InferCreationAttributes<OutboxEvent>> {
  declare id: string;
  declare accountId: string;
  declare campaignId: CreationOptional<string | null>;
  declare event: string;
  declare data: Record<string, unknown>;
  declare createdAt: CreationOptional<Date>;
  declare dispatchedAt: CreationOptional<Date | null>;
}

export function initOutboxEvent(sequelize: Sequelize): void {
  OutboxEvent.init(
    {
      id: col.id(),
      accountId: col.text(false),
      campaignId: col.text(),
      event: col.text(false),
      data: col.json(),
      createdAt: col.time(false),
      dispatchedAt: col.time(),
    },
    { sequelize, tableName: 'outbox', updatedAt: false },
  );
}

import { Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import { col } from './columns';

export const EMAIL_EVENT_TYPES = ['sent', 'delivered', 'bounced', 'opened', 'clicked', 'replied', 'unsubscribed', 'complained', 'meeting_booked'] as const;
export type EmailEventType = (typeof EMAIL_EVENT_TYPES)[number];

/** A fact about an email or a lead, with its time; `dedupeKey` makes recording it idempotent. */
export class EmailEvent extends Model<InferAttributes<EmailEvent>, InferCreationAttributes<EmailEvent>> {
  declare id: CreationOptional<string>;
  declare accountId: string;
  declare campaignId: CreationOptional<string | null>;
  declare emailId: CreationOptional<string | null>;
  declare leadId: CreationOptional<string | null>;
  declare type: EmailEventType;
  declare occurredAt: Date;
  declare data: CreationOptional<Record<string, unknown>>;
  declare dedupeKey: string;
  declare createdAt: CreationOptional<Date>;
}

export function initEmailEvent(sequelize: Sequelize): void {
  EmailEvent.init(
    {
      id: col.serial(),
      accountId: col.text(false),
      campaignId: col.text(),
      emailId: col.text(),
      leadId: col.text(),
      type: col.text(false),
      occurredAt: col.time(false),
      data: { ...col.json(), defaultValue: {} },
      dedupeKey: col.text(false),
      createdAt: col.time(false),
    },
    { sequelize, tableName: 'email_events', updatedAt: false },
  );
}

import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import { col } from './columns';

export type EmailStatus = 'sending' | 'deferred' | 'sent' | 'bounced' | 'failed';

/**
 * One email of a campaign's sequence to one lead: unique by (campaign, lead, step), which is the
 * idempotency key of the send. `messageId` is fixed when the row is reserved, before SMTP.
 */
export class Email extends Model<InferAttributes<Email>, InferCreationAttributes<Email>> {
  declare id: string;
  declare accountId: string;
  declare campaignId: string;
  declare leadId: string;
  declare step: number;
  declare mailboxId: CreationOptional<string | null>;
  declare fromEmail: string;
  declare toEmail: string;
  declare subject: string;
  declare messageId: string;
  /** The step's variant (A-E); null on emails from before variants. */
  declare variant: CreationOptional<string | null>;
  /** Opens a thread (own subject) rather than replying in the one before; null on older rows (read as step = 0). */
  declare startsThread: CreationOptional<boolean | null>;
  /** The content as written, before tracking: a resend after a crash sends exactly this. */
  declare bodyText: CreationOptional<string | null>;
  declare bodyHtml: CreationOptional<string | null>;
  declare status: EmailStatus;
  declare attempts: CreationOptional<number>;
  declare smtpResponse: CreationOptional<string | null>;
  declare error: CreationOptional<string | null>;
  declare sentAt: CreationOptional<Date | null>;
  declare bouncedAt: CreationOptional<Date | null>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}

export function initEmail(sequelize: Sequelize): void {
  Email.init(
    {
      id: col.id(),
      accountId: col.text(false),
      campaignId: col.text(false),
      leadId: col.text(false),
      step: col.int(),
      mailboxId: col.text(),
      fromEmail: col.text(false),
      toEmail: col.text(false),
      subject: col.text(false),
      messageId: col.text(false),
      variant: col.text(),
      startsThread: { type: DataTypes.BOOLEAN, allowNull: true },
      bodyText: col.text(),
      bodyHtml: col.text(),
      status: col.text(false),
      attempts: { ...col.int(), defaultValue: 0 },
      smtpResponse: col.text(),
      error: col.text(),
      sentAt: col.time(),
      bouncedAt: col.time(),
      createdAt: col.time(false),
      updatedAt: col.time(false),
    },
    { sequelize, tableName: 'emails' },
  );
}

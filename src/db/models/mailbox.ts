import { Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import { col } from './columns';

/**
 * One of an account's sending identities: an SMTP server it may use, with a daily cap and a
 * minimum gap between sends. `sentDay`/`sentToday`/`lastSentAt` are reserved atomically at send time.
 */
export class Mailbox extends Model<InferAttributes<Mailbox>, InferCreationAttributes<Mailbox>> {
  declare id: string;
  declare accountId: string;
  declare fromEmail: string;
  declare fromName: CreationOptional<string | null>;
  declare smtpUrl: string;
  /** Plain text added under every email sent from this mailbox (both parts). */
  declare signature: CreationOptional<string | null>;
  declare dailyCap: CreationOptional<number>;
  declare minGapSeconds: CreationOptional<number>;
  declare dkimDomain: CreationOptional<string | null>;
  declare dkimSelector: CreationOptional<string | null>;
  declare dkimPrivateKey: CreationOptional<string | null>;
  declare active: CreationOptional<boolean>;
  declare sentDay: CreationOptional<string | null>;
  declare sentToday: CreationOptional<number>;
  declare lastSentAt: CreationOptional<Date | null>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}

export function initMailbox(sequelize: Sequelize): void {
  Mailbox.init(
    {
      id: col.id(),
      accountId: col.text(false),
      fromEmail: col.text(false),
      fromName: col.text(),
      smtpUrl: col.text(false),
      signature: col.text(),
      dailyCap: { ...col.int(), defaultValue: 50 },
      minGapSeconds: { ...col.int(), defaultValue: 60 },
      dkimDomain: col.text(),
      dkimSelector: col.text(),
      dkimPrivateKey: col.text(),
      active: { ...col.bool(), defaultValue: true },
      sentDay: col.date(),
      sentToday: { ...col.int(), defaultValue: 0 },
      lastSentAt: col.time(),
      createdAt: col.time(false),
      updatedAt: col.time(false),
    },
    { sequelize, tableName: 'mailboxes' },
  );
}

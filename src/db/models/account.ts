import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import type { PlanName } from '../../config/plans';

/** A customer of the service. One account is one organization; its plan's figures live in config. */
export class Account extends Model<InferAttributes<Account>, InferCreationAttributes<Account>> {
  declare id: string;
  declare name: string;
  declare plan: PlanName;
  /** The default sender: who signs emails sent without a mailbox (src/accounts/default-sender.ts). */
  declare senderName: CreationOptional<string | null>;
  declare senderSignature: CreationOptional<string | null>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}

export function initAccount(sequelize: Sequelize): void {
  Account.init(
    {
      id: { type: DataTypes.TEXT, primaryKey: true },
      name: { type: DataTypes.TEXT, allowNull: false },
      plan: { type: DataTypes.TEXT, allowNull: false },
      senderName: { type: DataTypes.TEXT, allowNull: true },
      senderSignature: { type: DataTypes.TEXT, allowNull: true },
      createdAt: DataTypes.DATE,
      updatedAt: DataTypes.DATE,
    },
    { sequelize, tableName: 'accounts' },
  );
}

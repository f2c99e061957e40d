import { Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import { col } from './columns';

export type SuppressionReason = 'unsubscribe' | 'hard_bounce' | 'complaint' | 'reply_unsubscribe' | 'manual';

/** An address the account must never write to again. Checked at the moment of every send. */
export class Suppression extends Model<InferAttributes<Suppression>, InferCreationAttributes<Suppression>> {
  declare accountId: string;
  declare email: string;
  declare reason: SuppressionReason;
  declare sourceEmailId: CreationOptional<string | null>;
  declare createdAt: CreationOptional<Date>;
}

export function initSuppression(sequelize: Sequelize): void {
  Suppression.init(
    {
      accountId: { ...col.text(false), primaryKey: true },
      email: { ...col.text(false), primaryKey: true },
      reason: col.text(false),
      sourceEmailId: col.text(),
      createdAt: col.time(false),
    },
    { sequelize, tableName: 'suppressions', updatedAt: false },
  );
}

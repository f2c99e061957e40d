import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';

/** An API key: only its prefix and a hash are stored; the full key is shown once, at creation. */
export class ApiKey extends Model<InferAttributes<ApiKey>, InferCreationAttributes<ApiKey>> {
  declare id: string;
  declare accountId: string;
  declare prefix: string;
  declare keyHash: string;
  declare label: CreationOptional<string | null>;
  declare lastUsedAt: CreationOptional<Date | null>;
  declare revokedAt: CreationOptional<Date | null>;
  declare createdAt: CreationOptional<Date>;
  declare updatedAt: CreationOptional<Date>;
}

export function initApiKey(sequelize: Sequelize): void {
  ApiKey.init(
    {
      id: { type: DataTypes.TEXT, primaryKey: true },
      accountId: { type: DataTypes.TEXT, allowNull: false },
      prefix: { type: DataTypes.TEXT, allowNull: false, unique: true },
      keyHash: { type: DataTypes.TEXT, allowNull: false },
      label: { type: DataTypes.TEXT, allowNull: true },
      lastUsedAt: { type: DataTypes.DATE, allowNull: true },
      revokedAt: { type: DataTypes.DATE, allowNull: true },
      createdAt: DataTypes.DATE,
      updatedAt: DataTypes.DATE,
    },
    { sequelize, tableName: 'api_keys' },
  );
}

import { DataTypes, fn, type QueryInterface } from 'sequelize';

export async function up(q: QueryInterface): Promise<void> {
  await q.createTable('accounts', {
    id: { type: DataTypes.TEXT, primaryKey: true },
    name: { type: DataTypes.TEXT, allowNull: false },
    plan: { type: DataTypes.TEXT, allowNull: false, defaultValue: 'free' },
    created_at: { type: DataTypes.DATE, allowNull: false, defaultValue: fn('now') },
    updated_at: { type: DataTypes.DATE, allowNull: false, defaultValue: fn('now') },
  });
  await q.sequelize.query(`ALTER TABLE accounts ADD CONSTRAINT accounts_plan_check CHECK (plan IN ('free', 'pro'))`);

  await q.createTable('api_keys', {
    id: { type: DataTypes.TEXT, primaryKey: true },
    account_id: {
      type: DataTypes.TEXT,
      allowNull: false,
      references: { model: 'accounts', key: 'id' },
      onDelete: 'CASCADE',
    },
    // The visible part of the key (shown in lists) and the lookup key; the secret part is only hashed.
    prefix: { type: DataTypes.TEXT, allowNull: false, unique: true },
    key_hash: { type: DataTypes.TEXT, allowNull: false },
    label: { type: DataTypes.TEXT, allowNull: true },
    last_used_at: { type: DataTypes.DATE, allowNull: true },
    revoked_at: { type: DataTypes.DATE, allowNull: true },
    created_at: { type: DataTypes.DATE, allowNull: false, defaultValue: fn('now') },
    updated_at: { type: DataTypes.DATE, allowNull: false, defaultValue: fn('now') },
  });
  await q.addIndex('api_keys', ['account_id']);
}

export async function down(q: QueryInterface): Promise<void> {
  await q.dropTable('api_keys');
  await q.dropTable('accounts');
}

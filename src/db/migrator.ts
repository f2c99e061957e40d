import { Umzug, SequelizeStorage } from 'umzug';
import type { QueryInterface, Sequelize } from 'sequelize';
import { MIGRATIONS } from './migrations';

export type MigrationContext = QueryInterface;

/**
 * Migrations are listed explicitly (no glob) so the same list runs from TypeScript under tsx and
 * from the compiled JavaScript in the container image.
 */
export function createMigrator(sequelize: Sequelize): Umzug<MigrationContext> {
  return new Umzug<MigrationContext>({
    migrations: MIGRATIONS.map((m) => ({
      name: m.name,
      up: async ({ context }) => m.up(context),
      down: async ({ context }) => m.down(context),
    })),
    context: sequelize.getQueryInterface(),
    storage: new SequelizeStorage({ sequelize, tableName: 'schema_migrations' }),
    logger: undefined,
  });
}

// Any constant works; it only has to be the same in every process of this service.
const MIGRATION_LOCK_KEY = 727_100_001;

/**
 * Applies pending migrations. API and worker processes may start at the same moment against one
 * database, so the run is serialised with a PostgreSQL advisory lock held on one connection.
 */
export async function migrateUp(sequelize: Sequelize): Promise<string[]> {
  return sequelize.transaction(async (t) => {
    await sequelize.query('SELECT pg_advisory_xact_lock(:key)', { replacements: { key: MIGRATION_LOCK_KEY }, transaction: t });
    const applied = await createMigrator(sequelize).up();
    return applied.map((m) => m.name);
  });
}

import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { Sequelize } from 'sequelize';
import { migrateUp } from '../../src/db/migrator';
import { initModels } from '../../src/db/models';
import { createSequelize } from '../../src/db/sequelize';

export interface TestDatabase {
  readonly url: string;
  readonly sequelize: Sequelize;
  drop(): Promise<void>;
}

function adminUrl(): string {
  const url = process.env.TEST_PG_ADMIN_URL;
  if (!url) throw new Error('TEST_PG_ADMIN_URL is not set: run the tests through mocha (test/support/global.ts)');
  return url;
}

/** A fresh database on the suite's PostgreSQL, migrated to the latest schema. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const name = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl() });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = adminUrl().replace(/\/postgres$/, `/${name}`);
  const sequelize = createSequelize({ url, poolMax: 5 });
  initModels(sequelize);
  await migrateUp(sequelize);
  return {
    url,
    sequelize,
    drop: async () => {
      await sequelize.close();
      const c = new pg.Client({ connectionString: adminUrl() });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

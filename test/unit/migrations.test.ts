import { expect } from 'chai';
import { QueryTypes } from 'sequelize';
import { createMigrator } from '../../src/db/migrator';
import { MIGRATIONS } from '../../src/db/migrations';
import { createTestDatabase, type TestDatabase } from '../support/database';

async function tables(db: TestDatabase): Promise<string[]> {
  const rows = await db.sequelize.query<{ name: string }>(
    `SELECT table_name::text AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_name <> 'schema_migrations' ORDER BY table_name`,
    { type: QueryTypes.SELECT },
  );
  return rows.map((r) => r.name);
}

describe('migrations', () => {
  let db: TestDatabase;
  before(async () => {
    db = await createTestDatabase(); // migrated up
  });
  after(async () => {
    await db.drop();
  });

  it('are named by timestamp, in order, each once', () => {
    const names = MIGRATIONS.map((m) => m.name);
    for (const n of names) expect(n).to.match(/^\d{14}-[a-z0-9-]+$/);
    expect([...names].sort()).to.deep.equal(names);
    expect(new Set(names).size).to.equal(names.length);
  });

  it('revert to an empty schema and apply again to the same tables', async () => {
    const migrated = await tables(db);
    expect(migrated).to.include.members(['accounts', 'api_keys', 'campaigns']);
    const migrator = createMigrator(db.sequelize);
    await migrator.down({ to: 0 });
    expect(await tables(db)).to.deep.equal([]);
    expect(await migrator.executed()).to.deep.equal([]);
    await migrator.up();
    expect(await tables(db)).to.deep.equal(migrated);
  });

  it('constraints refuse what the API would never write', async () => {
    await db.sequelize.query(`INSERT INTO accounts (id, name, plan) VALUES ('acc_x', 'X', 'free')`);
    const insertCampaign = (extra: string, values: string) =>
      db.sequelize.query(`INSERT INTO campaigns (id, account_id, created_via, name, mcp, target_url${extra}) VALUES ('cmp_${Math.random().toString(36).slice(2)}', 'acc_x', 'a', 'n', 'm', 'https://x.test'${values})`);
    await insertCampaign('', '');
    for (const [col, val] of [[', status', ", 'archived'"], [', budget_max_daily_usd', ', -1'], [', schedule_trial_days', ', 0']] as const) {
      let failed = false;
      await insertCampaign(col, val).catch(() => (failed = true));
      expect(failed, `${col} = ${val}`).to.equal(true);
    }
    let badPlan = false;
    await db.sequelize.query(`INSERT INTO accounts (id, name, plan) VALUES ('acc_y', 'Y', 'gold')`).catch(() => (badPlan = true));
    expect(badPlan).to.equal(true);
  });
});

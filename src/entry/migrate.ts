/**
 * `npm run migrate`: apply pending migrations (`npm run migrate -- down` reverts the last one).
 * Works on DATABASE_URL or on DATA_DIR's embedded PostgreSQL.
 */
import { createMigrator } from '../db/migrator';
import { boot, fatal } from '../runtime/boot';
import { openDatabase } from '../runtime/database';

async function main(): Promise<void> {
  const { config, log } = boot('migrate');
  try {
    const db = await openDatabase(config, log, 'attach'); // applies pending migrations
    if (process.argv[2] === 'down') {
      const reverted = await createMigrator(db.sequelize).down();
      process.stdout.write(`reverted: ${reverted.map((m) => m.name).join(', ') || '(nothing)'}\n`);
    } else {
      const executed = await createMigrator(db.sequelize).executed();
      process.stdout.write(`schema is at ${executed.at(-1)?.name ?? '(empty)'}\n`);
    }
    await db.close();
  } catch (err) {
    fatal(log, err);
  }
}

void main();

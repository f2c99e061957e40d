import { loadConfig, type Config } from '../config/config';
import { createLogger } from '../log/logger';
import { loadDotEnv } from '../runtime/boot';
import { openDatabase, type Database } from '../runtime/database';

/** Commands print exactly one JSON document on stdout; progress and logs go to stderr. */
export function print(value: unknown): void {
  process.stdout.write(JSON.stringify(value) + '\n');
}

/**
 * Runs `fn` with the service's database (DATABASE_URL, or the embedded one in DATA_DIR, attached to
 * when running) and the loaded configuration, and closes it afterwards.
 */
export async function withDatabase<T>(fn: (db: Database, config: Config) => Promise<T>): Promise<T> {
  loadDotEnv();
  const config = loadConfig();
  // Logs on stderr, and quiet: stdout carries exactly the command's JSON.
  const log = createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel, 'cli', 2);
  const db = await openDatabase(config, log, 'attach');
  try {
    return await fn(db, config);
  } finally {
    await db.close();
  }
}

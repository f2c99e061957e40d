import { ConfigError, loadConfig, type Config } from '../config/config';
import { createLogger, type Logger } from '../log/logger';

/** Loads the configuration or exits with a message naming the bad variable. */
export function boot(role: string): { config: Config; log: Logger } {
  loadDotEnv();
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`Configuration error: ${err.message}\nSee .env.example for every variable and its default.\n`);
      process.exit(78); // EX_CONFIG
    }
    throw err;
  }
  return { config, log: createLogger(config.logLevel, role) };
}

/** Last resort for an entry point's main(): log, then exit non-zero. */
export function fatal(log: Logger | undefined, err: unknown): never {
  if (err instanceof ConfigError) {
    process.stderr.write(`Configuration error: ${err.message}\nSee .env.example for every variable and its default.\n`);
    process.exit(78);
  }
  if (log) {
    log.fatal({ err }, 'failed to start');
    log.flush();
  }
  process.stderr.write(`\n${(err as Error).message ?? String(err)}\n`);
  process.exit(1);
}

/** Reads `.env` from the working directory when there is one; variables already set win. */
export function loadDotEnv(file = '.env'): void {
  try {
    process.loadEnvFile(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
}

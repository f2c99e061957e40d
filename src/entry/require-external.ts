import { ConfigError, type Config } from '../config/config';

/** The single-role entry points never start embedded servers: production brings its own. */
export function requireExternal(config: Config): { databaseUrl: string; temporalAddress: string } {
  if (config.databaseUrl === undefined) throw new ConfigError('DATABASE_URL is required for a single role (use `npm start` for the embedded default).');
  if (config.temporalAddress === undefined) throw new ConfigError('TEMPORAL_ADDRESS is required for a single role (use `npm start` for the embedded default).');
  return { databaseUrl: config.databaseUrl, temporalAddress: config.temporalAddress };
}

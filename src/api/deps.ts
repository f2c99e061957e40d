import type { Sequelize } from 'sequelize';
import type { Config } from '../config/config';
import type { Logger } from '../log/logger';
import type { TemporalClientProvider } from '../temporal/client';

/** What the API needs from its process: handed in by the entry point, faked by nothing. */
export interface AppDeps {
  readonly config: Config;
  readonly sequelize: Sequelize;
  readonly log: Logger;
  readonly temporal: TemporalClientProvider;
}

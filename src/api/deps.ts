import type { Sequelize } from 'sequelize';
import type { Config } from '../config/config';
import type { Logger } from '../log/logger';
import type { TemporalClientProvider } from '../temporal/client';
import type { Tracking } from '../tracking/tracking';

/** What the API needs from its process: handed in by the entry point, faked by nothing. */
export interface AppDeps {
  readonly config: Config;
  readonly sequelize: Sequelize;
  readonly log: Logger;
  readonly temporal: TemporalClientProvider;
  /** Open pixel, click and unsubscribe endpoints; without it they answer 503 (the pixel still answers its GIF). */
  readonly tracking?: Tracking;
}

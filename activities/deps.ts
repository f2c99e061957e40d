import type { Sequelize } from 'sequelize';
import type { Config } from '../src/config/config';
import type { Logger } from '../src/log/logger';
import type { RetryStarter } from '../src/webhooks/retry/retry-starter';

/**
 * What activities need from the worker process. Tests hand in their own. A module of its own so
 * that the activity files can name it without importing the registry that imports them.
 */
export interface ActivityDeps {
  readonly sequelize: Sequelize;
  readonly config: Config;
  readonly log: Logger;
  /** Starts webhook retry workflows (the worker's Temporal client); the dispatcher needs it. */
  readonly retries?: RetryStarter;
  /** Aborted when the worker begins to stop: long-running activities finish up and return. */
  readonly stopping?: AbortSignal;
}

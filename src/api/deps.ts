import type { Sequelize } from 'sequelize';
import type { LeadFactSink } from '../campaigns/control/lead-fact-signals';
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
  /**
   * Told of replies, unsubscribes, bookings and bounces that end a lead's sequence, after they are
   * committed (it signals the campaign's workflow); without it nothing is signalled.
   */
  readonly leadFacts?: LeadFactSink;
}

import type { Sequelize } from 'sequelize';
import type { Config } from '../src/config/config';
import type { Logger } from '../src/log/logger';
import type { RetryStarter } from '../src/webhooks/retry/retry-starter';
import type { CampaignEnded } from '../workflows/reports/contract';

/** Tells a campaign's report schedule (workflow `campaign-reports-<id>`) that the campaign ended. */
export interface ReportNotifier {
  /** Resolves when the schedule has the signal, or when the campaign has none (no report email). */
  campaignEnded(campaignId: string, ended: CampaignEnded): Promise<void>;
}

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
  /** Signals the report schedule when a campaign completes or fails (the worker's Temporal client); without it, no final report. */
  readonly reports?: ReportNotifier;
  /** Aborted when the worker begins to stop: long-running activities finish up and return. */
  readonly stopping?: AbortSignal;
}

import type { Sequelize } from 'sequelize';
import type { Config } from '../src/config/config';
import type { Logger } from '../src/log/logger';
import { recordCampaignTransition } from './campaigns/record-transition';

/** What activities need from the worker process. Tests hand in their own. */
export interface ActivityDeps {
  readonly sequelize: Sequelize;
  readonly config: Config;
  readonly log: Logger;
}

/** Builds the activity implementations the worker registers (names are the workflow's contract). */
export function createActivities(deps: ActivityDeps) {
  return {
    recordCampaignTransition: recordCampaignTransition(deps.sequelize),
  };
}

export type CampaignActivities = ReturnType<typeof createActivities>;

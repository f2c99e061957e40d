import type { ControlDeps } from '../../../campaigns/control/campaign-control';
import type { StartDeps } from '../../../campaigns/control/start-campaign';
import type { AppDeps } from '../../deps';

/** What starting and controlling a campaign need, from the API's dependencies. */

export function startDeps(deps: AppDeps): StartDeps {
  return { sequelize: deps.sequelize, temporal: deps.temporal.get(), taskQueue: deps.config.temporalTaskQueue };
}

export function controlDeps(deps: AppDeps): ControlDeps {
  return { sequelize: deps.sequelize, temporal: deps.temporal.get(), config: deps.config };
}

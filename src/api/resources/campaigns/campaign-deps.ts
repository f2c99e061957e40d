import type { ControlDeps } from '../../../campaigns/control/campaign-control';
import type { EditDeps } from '../../../campaigns/edit/edit-campaign';
import { readAudienceText } from '../../../campaigns/audience/llm-reader';
import type { StartDeps } from '../../../campaigns/control/start-campaign';
import type { PreviewDeps } from '../../../campaigns/sequences/preview';
import { EmailWriter } from '../../../writing/email-writer';
import type { AppDeps } from '../../deps';

/** What starting and controlling a campaign need, from the API's dependencies. */

export function startDeps(deps: AppDeps): StartDeps {
  return {
    sequelize: deps.sequelize,
    temporal: deps.temporal.get(),
    taskQueue: deps.config.temporalTaskQueue,
    log: deps.log,
    readAudience: (accountId, text) => readAudienceText({ sequelize: deps.sequelize, config: deps.config, log: deps.log }, accountId, text),
  };
}

/** What an edit needs: the control's, and where a report schedule it starts runs and logs. */
export function editDeps(deps: AppDeps): EditDeps {
  return { sequelize: deps.sequelize, temporal: deps.temporal.get(), taskQueue: deps.config.temporalTaskQueue, log: deps.log };
}

export function controlDeps(deps: AppDeps): ControlDeps {
  return { sequelize: deps.sequelize, temporal: deps.temporal.get(), config: deps.config };
}

const writers = new WeakMap<AppDeps, EmailWriter>();

/** What previews need: the same writer the sending batch uses (one per API process). */
export function previewDeps(deps: AppDeps): PreviewDeps {
  let writer = writers.get(deps);
  if (writer === undefined) {
    writer = new EmailWriter({ sequelize: deps.sequelize, config: deps.config, log: deps.log });
    writers.set(deps, writer);
  }
  return { sequelize: deps.sequelize, config: deps.config, writer };
}

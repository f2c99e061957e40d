import { CampaignNotFound, TransitionNotAllowed, type ControlDeps, type ControlResult } from '../../../campaigns/campaign-control';
import type { AppDeps } from '../../deps';
import { conflict, notFound, serviceUnavailable } from '../../http/errors';
import { isTemporalUnavailable } from './temporal-errors';

/**
 * How both surfaces' campaign actions (create, pause/stop, resume) turn the outcomes of
 * src/campaigns into HTTP answers: 404 for a campaign that is not the caller's, 409 for a
 * transition the status does not allow, 503 (nothing changed) while Temporal is unreachable.
 */

export function controlDeps(deps: AppDeps): ControlDeps {
  return { sequelize: deps.sequelize, temporal: deps.temporal.get(), config: deps.config };
}

export async function control(what: string, fn: () => Promise<ControlResult>): Promise<ControlResult> {
  try {
    return await withTemporal(what, fn);
  } catch (err) {
    if (err instanceof CampaignNotFound) throw notFound('campaign not found');
    if (err instanceof TransitionNotAllowed) throw conflict(err.message);
    throw err;
  }
}

/** Temporal down or unreachable: a 503 the client can retry, with nothing changed. */
export async function withTemporal<T>(what: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (isTemporalUnavailable(err)) throw serviceUnavailable(`could not ${what}: the workflow service is unavailable, try again shortly`);
    throw err;
  }
}

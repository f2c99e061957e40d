import { ServiceError, WorkflowNotFoundError, WorkflowUpdateRPCTimeoutOrCancelledError } from '@temporalio/client';
import { serviceUnavailable } from '../../http/errors';

/**
 * Errors that mean "Temporal could not be reached or refused for now", not "the request is wrong":
 * a connection failure or deadline (ServiceError, or an Update's call that timed out), or a
 * workflow that is not there, which for a stored campaign means its namespace was reset; the
 * client may retry either later.
 */
export function isTemporalUnavailable(err: unknown): boolean {
  return err instanceof ServiceError || err instanceof WorkflowNotFoundError || err instanceof WorkflowUpdateRPCTimeoutOrCancelledError;
}

/**
 * Runs a create, pause, stop or resume (`what` names it in the message): with Temporal down or
 * unreachable it is a 503 the client can retry, with nothing changed (the campaign's row and its
 * workflow change in one transaction). Its other errors pass through: a campaign that is not the
 * caller's (404) or a transition its status does not allow (409) are domain errors.
 */
export async function withTemporal<T>(what: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (isTemporalUnavailable(err)) throw serviceUnavailable(`could not ${what}: the workflow service is unavailable, try again shortly`);
    throw err;
  }
}

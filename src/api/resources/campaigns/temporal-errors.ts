import { ServiceError, WorkflowNotFoundError } from '@temporalio/client';

/**
 * Errors that mean "Temporal could not be reached or refused for now", not "the request is wrong":
 * a connection failure or deadline (ServiceError), or a workflow that is not there, which for a
 * stored campaign means its namespace was reset; the client may retry either later.
 */
export function isTemporalUnavailable(err: unknown): boolean {
  return err instanceof ServiceError || err instanceof WorkflowNotFoundError;
}

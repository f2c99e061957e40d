import type { FailedAttempt } from '../record-attempts';


/** Starts the retry workflow of a failed delivery; returns its workflow id. */
export interface RetryStarter {
  start(failed: FailedAttempt): Promise<string>;
}

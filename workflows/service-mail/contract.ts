/**
 * The service-email workflow's contract with whoever starts it, and its activities' inputs and
 * results. Pure types and constants: the workflow bundle and Node code both import this file.
 *
 * `serviceEmailWorkflow` (id `service-email-<serviceEmailId>`) sends one stored service email (a
 * `service_emails` row that holds its whole message: an answer to a lead) through one activity,
 * retried through temporary SMTP trouble for up to a day, then settles the row. The id is the
 * row's, so a second start of the same email is refused by Temporal: one workflow per message.
 */

export interface ServiceEmailInput {
  readonly serviceEmailId: string;
}

export interface ServiceEmailResult {
  readonly serviceEmailId: string;
  /** `failed`: refused for good (5xx, a guard), or given up on after a day of temporary trouble. */
  readonly status: 'sent' | 'failed';
}

/** The `sendStoredServiceEmail` activity's result. */
export interface SendStoredServiceEmailResult {
  readonly status: 'sent' | 'failed';
}

export interface MarkServiceEmailFailedInput {
  readonly serviceEmailId: string;
  readonly error: string;
}

export const serviceEmailWorkflowId = (serviceEmailId: string): string => `service-email-${serviceEmailId}`;

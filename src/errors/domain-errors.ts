/**
 * Errors of the domain, thrown by repositories and services wherever the problem is the caller's
 * (a missing record, a transition the state does not allow, input the domain refuses) or a
 * dependency's (unavailable). They know nothing of HTTP: the API maps each class to a status in
 * one place (src/api/http/error-middleware.ts), the activities map them to ApplicationFailure at
 * their boundary, and the CLI prints their message.
 */

/** The resources a client can name by id; each has one "not found" message on both surfaces. */
export type ResourceName =
  | 'account'
  | 'api_key'
  | 'campaign'
  | 'company'
  | 'lead'
  | 'mailbox'
  | 'reply'
  | 'webhook_delivery';

const RESOURCE_LABEL: Record<ResourceName, string> = {
  account: 'Account',
  api_key: 'API key',
  campaign: 'Campaign',
  company: 'Company',
  lead: 'Lead',
  mailbox: 'Mailbox',
  reply: 'Reply',
  webhook_delivery: 'Webhook delivery',
};

export abstract class DomainError extends Error {
  abstract readonly kind: 'not_found' | 'conflict' | 'invalid' | 'unavailable';
}

/**
 * The record does not exist, or is another account's (the two are not told apart, so ids of other
 * accounts cannot be probed).
 */
export class NotFoundError extends DomainError {
  override readonly name = 'NotFoundError';
  readonly kind = 'not_found';
  constructor(readonly resource: ResourceName) {
    super(`${RESOURCE_LABEL[resource]} not found`);
  }
}

/** The record exists but its state does not allow what was asked (a transition, a duplicate). */
export class ConflictError extends DomainError {
  override readonly name = 'ConflictError';
  readonly kind = 'conflict';
}

/** Input that passed the request schema but that the domain refuses (an unusable SMTP URL, ...). */
export class InvalidInputError extends DomainError {
  override readonly name = 'InvalidInputError';
  readonly kind = 'invalid';
}

/** A dependency (Temporal, a provider) cannot be reached now; the same call may work later. */
export class UnavailableError extends DomainError {
  override readonly name = 'UnavailableError';
  readonly kind = 'unavailable';
}

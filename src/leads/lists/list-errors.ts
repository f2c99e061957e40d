/**
 * The domain errors of lead lists. A list of another account is "not found" like a missing one,
 * so ids cannot be probed across accounts.
 */
import { ConflictError, DomainError } from '../../errors/domain-errors';

export class LeadListNotFound extends DomainError {
  override readonly name = 'LeadListNotFound';
  readonly kind = 'not_found';
  constructor() {
    super('Lead list not found');
  }
}

/** The account already has a list of this name (case ignored). */
export class LeadListNameTaken extends ConflictError {
  constructor(name: string) {
    super(`A lead list named "${name}" already exists`);
  }
}

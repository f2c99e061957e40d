/**
 * The status a user sets on a lead from outside (PATCH /v1/leads/:id): what they decided about
 * the person, whatever the campaigns did. Any status takes the lead out of the sequences it is in
 * (the user has dealt with the person); `do_not_contact` also blocks the address, so no later
 * campaign or import writes to it.
 */
import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import { blockAddress } from '../blocklist/blocklist-repository';
import { endActiveEnrolments } from '../campaigns/enrolment/enrolment-repository';

export const USER_STATUSES = ['interested', 'not_interested', 'do_not_contact'] as const;
export type UserStatus = (typeof USER_STATUSES)[number];

/** The lead row's `user_status` as the API shows it: `status`, null when none was set. */
export const statusView = (userStatus: string | null | undefined): { status: UserStatus | null } => ({
  status: (USER_STATUSES as readonly string[]).includes(userStatus ?? '') ? (userStatus as UserStatus) : null,
});

/**
 * Sets (or with null clears) the lead's status inside the caller's transaction. A status ends the
 * lead's queued and running sequences in every campaign of the account (reason `marked <status>`);
 * `do_not_contact` adds the address to the account's blocklist. Clearing undoes neither: a
 * sequence ended stays ended and a blocked address stays blocked until it is unblocked.
 */
export async function applyUserStatus(
  sequelize: Sequelize,
  tx: Transaction,
  accountId: string,
  lead: { readonly id: string; readonly email: string },
  status: UserStatus | null,
): Promise<void> {
  await sequelize.query('UPDATE leads SET user_status = $3, updated_at = now() WHERE account_id = $1 AND id = $2', {
    bind: [accountId, lead.id, status],
    type: QueryTypes.UPDATE,
    transaction: tx,
  });
  if (status === null) return;
  await endActiveEnrolments(sequelize, tx, accountId, lead.id, `marked ${status}`);
  if (status === 'do_not_contact') await blockAddress(sequelize, tx, accountId, lead.email, 'do_not_contact');
}

/**
 * The mailboxes a campaign sends from (`campaigns.mailbox_ids`): null for every active mailbox of
 * the account, else a set of the account's mailboxes. Here is the one check of a set a request
 * gives (create, PATCH); sending reads the set from the row at each reservation
 * (src/sending/mailbox-slots.ts), so a change takes effect at the campaign's next email.
 */
import { QueryTypes, type Sequelize } from 'sequelize';
import { InvalidInputError } from '../../errors/domain-errors';

/** The most mailboxes a campaign names (the schemas' maxItems). */
export const MAX_CAMPAIGN_MAILBOXES = 50;

const quoted = (ids: readonly string[]): string => ids.map((id) => JSON.stringify(id)).join(', ');

/**
 * Refuses a set of mailboxes (InvalidInputError, a 400 naming `field` and the ids in the way)
 * unless every id is named once and is an ACTIVE mailbox of the account. An unknown id, another
 * account's and a deactivated one get the same answer: a campaign can only send from a mailbox that
 * can send now, and another account's ids are not told apart from ids that do not exist.
 */
export async function checkCampaignMailboxes(sequelize: Sequelize, accountId: string, ids: readonly string[], field: string): Promise<void> {
  if (ids.length === 0) throw new InvalidInputError(`${field}: name at least one mailbox, or leave it out (null on a change) to send from every active mailbox`);
  if (ids.length > MAX_CAMPAIGN_MAILBOXES) throw new InvalidInputError(`${field}: at most ${MAX_CAMPAIGN_MAILBOXES} mailboxes`);
  const twice = [...new Set(ids.filter((id, i) => ids.indexOf(id) !== i))];
  if (twice.length > 0) throw new InvalidInputError(`${field}: ${quoted(twice)} ${twice.length === 1 ? 'is' : 'are'} named more than once`);
  const active = await sequelize.query<{ id: string }>(`SELECT id FROM mailboxes WHERE account_id = $1 AND active AND id = ANY($2::text[])`, {
    bind: [accountId, [...ids]],
    type: QueryTypes.SELECT,
  });
  const known = new Set(active.map((r) => r.id));
  const bad = ids.filter((id) => !known.has(id));
  if (bad.length > 0) throw new InvalidInputError(`${field}: no active mailbox of the account has the id${bad.length === 1 ? '' : 's'} ${quoted(bad)}`);
}

/**
 * The campaign's mailboxes as the dashboard shows them: the edit form's choices (the account's
 * active mailboxes, and the deactivated ones the campaign still names) and the addresses of the
 * campaign page's "Sends from". Mailbox rows are never deleted (only deactivated), so every id
 * a campaign names has a row; ids were checked as the account's when the set was written.
 */
import { Op } from 'sequelize';
import { badRequest } from '../../../api/http/errors';
import { Mailbox } from '../../../db/models';

export interface MailboxChoice {
  readonly id: string;
  readonly address: string;
  readonly name: string | null;
  readonly active: boolean;
}

const ATTRIBUTES = ['id', 'fromEmail', 'fromName', 'active'] as const;
const ORDER: [string, string][] = [['createdAt', 'ASC'], ['id', 'ASC']];
const choiceOf = (m: Pick<Mailbox, (typeof ATTRIBUTES)[number]>): MailboxChoice => ({ id: m.id, address: m.fromEmail, name: m.fromName, active: m.active });

/** What the form offers: the account's active mailboxes and the deactivated members of `set`, oldest first. */
export async function mailboxChoices(accountId: string, set: readonly string[] | null | undefined): Promise<MailboxChoice[]> {
  const named = set ?? [];
  const rows = await Mailbox.findAll({
    attributes: [...ATTRIBUTES],
    where: { accountId, ...(named.length === 0 ? { active: true } : { [Op.or]: [{ active: true }, { id: [...named] }] }) },
    order: ORDER,
  });
  return rows.map(choiceOf);
}

/** The mailboxes of a campaign's set, oldest first; an id without a row (none expected) is shown as the id. */
export async function mailboxesOfSet(ids: readonly string[]): Promise<MailboxChoice[]> {
  if (ids.length === 0) return [];
  const rows = (await Mailbox.findAll({ attributes: [...ATTRIBUTES], where: { id: [...ids] }, order: ORDER })).map(choiceOf);
  const found = new Set(rows.map((r) => r.id));
  return [...rows, ...ids.filter((id) => !found.has(id)).map((id) => ({ id, address: id, name: null, active: false }))];
}

/** "Sends from" on the campaign page: the set's addresses, or every active mailbox. */
export async function sendsFromText(set: readonly string[] | null): Promise<string> {
  if (set === null) return 'every active mailbox of the account';
  const boxes = await mailboxesOfSet(set);
  return boxes.map((m) => (m.active ? m.address : `${m.address} (deactivated)`)).join(', ');
}

/**
 * A changed set that still ticks a deactivated mailbox is refused here, naming its address (the
 * API would refuse it too, naming only the id). It is not dropped quietly: the form showed it
 * ticked, and a set the user did not choose would be saved (once added again, that mailbox would
 * no longer be the campaign's). Left as it was, the set is no change and is not sent at all, so
 * the deactivated member stays in it.
 */
export function refuseDeactivated(mailboxIds: readonly string[] | null | undefined, choices: readonly MailboxChoice[]): void {
  if (mailboxIds === undefined || mailboxIds === null) return;
  const gone = choices.filter((c) => !c.active && mailboxIds.includes(c.id)).map((c) => c.address);
  if (gone.length === 0) return;
  throw badRequest(
    `mailbox_ids: ${gone.join(', ')} ${gone.length === 1 ? 'is' : 'are'} deactivated, and a campaign can only be given active mailboxes: untick ${gone.length === 1 ? 'it' : 'them'}, or add the mailbox again (POST /v1/mailboxes with its address) first`,
  );
}

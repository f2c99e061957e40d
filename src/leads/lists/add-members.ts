/**
 * Adding leads to a list by id or by address, as the API asks it: one transaction that checks the
 * list, finds the account's leads the ids and addresses name, adds them and says what happened to
 * each that was not added.
 */
import { QueryTypes, type Sequelize } from 'sequelize';
import { addLeadsToList } from './list-repository';
import { LeadListNotFound } from './list-errors';

/** Most ids and addresses one call may name, together. */
export const MAX_MEMBERS_PER_CALL = 1000;

export interface AddMembersInput {
  readonly leadIds?: readonly string[];
  readonly emails?: readonly string[];
}

export interface AddMembersResult {
  /** Leads now in the list that were not before. */
  readonly added: number;
  /** Leads named that the list already held. */
  readonly alreadyInList: number;
  /** What named no lead of the account (missing, another account's, or erased), as given. */
  readonly notFound: { readonly leadIds: string[]; readonly emails: string[] };
}

/**
 * Adds the named leads to the account's list. A lead named twice (by id and by address, or
 * repeated) counts once. Throws LeadListNotFound for a list that is not the account's.
 */
export async function addMembers(sequelize: Sequelize, accountId: string, listId: string, input: AddMembersInput): Promise<AddMembersResult> {
  const ids = [...new Set(input.leadIds ?? [])];
  // Addresses are stored lower-cased; keep what the caller wrote to report it back.
  const emails = new Map<string, string>();
  for (const e of input.emails ?? []) if (!emails.has(e.trim().toLowerCase())) emails.set(e.trim().toLowerCase(), e);
  return sequelize.transaction(async (tx) => {
    // FOR SHARE: a list deleted meanwhile waits for this call rather than losing its rows mid-way.
    const list = await sequelize.query('SELECT id FROM lead_lists WHERE account_id = $1 AND id = $2 FOR SHARE', {
      bind: [accountId, listId],
      type: QueryTypes.SELECT,
      transaction: tx,
    });
    if (list.length === 0) throw new LeadListNotFound();
    const found = await sequelize.query<{ id: string; email: string; in_list: boolean }>(
      `SELECT l.id, l.email, EXISTS (SELECT 1 FROM lead_list_members m WHERE m.list_id = $2 AND m.lead_id = l.id) AS in_list
       FROM leads l WHERE l.account_id = $1 AND l.erased_at IS NULL AND (l.id = ANY($3::text[]) OR l.email = ANY($4::text[]))`,
      { bind: [accountId, listId, ids, [...emails.keys()]], type: QueryTypes.SELECT, transaction: tx },
    );
    const foundIds = new Set(found.map((r) => r.id));
    const foundEmails = new Set(found.map((r) => r.email));
    const added = await addLeadsToList(
      sequelize,
      tx,
      accountId,
      listId,
      found.filter((r) => !r.in_list).map((r) => r.id),
    );
    return {
      added,
      // Whatever was found and not added was in the list (a concurrent call may have just added it).
      alreadyInList: found.length - added,
      notFound: {
        leadIds: ids.filter((id) => !foundIds.has(id)),
        emails: [...emails].filter(([key]) => !foundEmails.has(key)).map(([, given]) => given),
      },
    };
  });
}

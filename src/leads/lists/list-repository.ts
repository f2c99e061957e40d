/**
 * Lead lists and their members: the one module that touches `lead_lists` and `lead_list_members`.
 * Every statement is scoped by account; a list or lead of another account is never found, counted
 * or added.
 */
import { randomBytes } from 'node:crypto';
import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import { LEAD_COLUMNS, toLeadView, type LeadRow, type LeadView } from '../lead-view';
import { LeadListNameTaken } from './list-errors';

/** A list as every read shows it: with how many leads it holds. */
export interface LeadList {
  readonly id: string;
  readonly name: string;
  readonly leadCount: number;
  readonly createdAt: string;
  readonly updatedAt: string;
}

interface ListRow {
  readonly id: string;
  readonly name: string;
  readonly lead_count: string | number;
  readonly created_at: Date;
  readonly updated_at: Date;
}

const toList = (r: ListRow): LeadList => ({
  id: r.id,
  name: r.name,
  leadCount: Number(r.lead_count),
  createdAt: new Date(r.created_at).toISOString(),
  updatedAt: new Date(r.updated_at).toISOString(),
});

/** `list_` and 16 random base64url letters, the shape of the other ids (src/accounts/ids.ts, whose kinds are a closed set). */
export function newListId(): string {
  return `list_${randomBytes(12).toString('base64url').replace(/[-_]/g, '').padEnd(12, '0').slice(0, 16)}`;
}

const COUNT = '(SELECT count(*) FROM lead_list_members m WHERE m.list_id = ll.id)';

/** Creates a list; a name the account already has (case ignored) is a LeadListNameTaken. */
export async function createList(sequelize: Sequelize, accountId: string, name: string): Promise<LeadList> {
  const rows = await sequelize.query<ListRow>(
    `INSERT INTO lead_lists AS ll (id, account_id, name) VALUES ($1, $2, $3)
     ON CONFLICT (account_id, lower(name)) DO NOTHING
     RETURNING ll.id, ll.name, 0 AS lead_count, ll.created_at, ll.updated_at`,
    { bind: [newListId(), accountId, name], type: QueryTypes.SELECT },
  );
  if (rows[0] === undefined) throw new LeadListNameTaken(name);
  return toList(rows[0]);
}

/** One page of the account's lists, oldest first, with their counts, and how many there are. */
export async function listLists(sequelize: Sequelize, accountId: string, page: number, perPage: number): Promise<{ lists: LeadList[]; total: number }> {
  const [rows, count] = await Promise.all([
    sequelize.query<ListRow>(
      `SELECT ll.id, ll.name, ${COUNT} AS lead_count, ll.created_at, ll.updated_at
       FROM lead_lists ll WHERE ll.account_id = $1 ORDER BY ll.created_at, ll.id LIMIT $2 OFFSET $3`,
      { bind: [accountId, perPage, (page - 1) * perPage], type: QueryTypes.SELECT },
    ),
    sequelize.query<{ n: string }>('SELECT count(*) AS n FROM lead_lists WHERE account_id = $1', { bind: [accountId], type: QueryTypes.SELECT }),
  ]);
  return { lists: rows.map(toList), total: Number(count[0]?.n ?? 0) };
}

/** The account's list with its count, or null (missing, or another account's). */
export async function findList(sequelize: Sequelize, accountId: string, listId: string, tx?: Transaction): Promise<LeadList | null> {
  const rows = await sequelize.query<ListRow>(
    `SELECT ll.id, ll.name, ${COUNT} AS lead_count, ll.created_at, ll.updated_at FROM lead_lists ll WHERE ll.account_id = $1 AND ll.id = $2`,
    { bind: [accountId, listId], type: QueryTypes.SELECT, transaction: tx },
  );
  return rows[0] === undefined ? null : toList(rows[0]);
}

const isUniqueViolation = (err: unknown): boolean =>
  (err as { name?: string }).name === 'SequelizeUniqueConstraintError' || (err as { parent?: { code?: string } }).parent?.code === '23505';

/** Renames the account's list; null when it has none of this id, LeadListNameTaken when another list has the name. */
export async function renameList(sequelize: Sequelize, accountId: string, listId: string, name: string): Promise<LeadList | null> {
  try {
    const rows = await sequelize.query<ListRow>(
      `UPDATE lead_lists ll SET name = $3, updated_at = now() WHERE ll.account_id = $1 AND ll.id = $2
       RETURNING ll.id, ll.name, ${COUNT} AS lead_count, ll.created_at, ll.updated_at`,
      { bind: [accountId, listId, name], type: QueryTypes.SELECT },
    );
    return rows[0] === undefined ? null : toList(rows[0]);
  } catch (err) {
    if (isUniqueViolation(err)) throw new LeadListNameTaken(name);
    throw err;
  }
}

/** Deletes the account's list and its memberships (the leads stay); false when it has none of this id. */
export async function deleteList(sequelize: Sequelize, accountId: string, listId: string): Promise<boolean> {
  const rows = await sequelize.query<{ id: string }>('DELETE FROM lead_lists WHERE account_id = $1 AND id = $2 RETURNING id', {
    bind: [accountId, listId],
    type: QueryTypes.SELECT,
  });
  return rows.length > 0;
}

/**
 * Adds leads to a list in one statement and returns how many were added. Only the account's own
 * leads that are not erased are added; ids already in the list (or of no such lead) add nothing.
 * The caller has checked that the list is the account's.
 */
export async function addLeadsToList(sequelize: Sequelize, transaction: Transaction | null, accountId: string, listId: string, leadIds: readonly string[]): Promise<number> {
  if (leadIds.length === 0) return 0;
  const rows = await sequelize.query<{ lead_id: string }>(
    `INSERT INTO lead_list_members (list_id, lead_id, account_id)
     SELECT $2, l.id, $1 FROM leads l WHERE l.account_id = $1 AND l.id = ANY($3::text[]) AND l.erased_at IS NULL
     ON CONFLICT (list_id, lead_id) DO NOTHING RETURNING lead_id`,
    { bind: [accountId, listId, [...new Set(leadIds)]], type: QueryTypes.SELECT, transaction: transaction ?? undefined },
  );
  return rows.length;
}

/** Takes one lead out of the account's list; false when it was not in it. */
export async function removeLeadFromList(sequelize: Sequelize, accountId: string, listId: string, leadId: string): Promise<boolean> {
  const rows = await sequelize.query<{ lead_id: string }>('DELETE FROM lead_list_members WHERE account_id = $1 AND list_id = $2 AND lead_id = $3 RETURNING lead_id', {
    bind: [accountId, listId, leadId],
    type: QueryTypes.SELECT,
  });
  return rows.length > 0;
}

/** A list's lead, with when it was added. */
export interface ListMember extends LeadView {
  readonly addedAt: string;
}

/** One page of a list's leads, in the order they were added (by id within one call), and how many it holds. */
export async function listMembers(
  sequelize: Sequelize,
  accountId: string,
  listId: string,
  page: number,
  perPage: number,
): Promise<{ leads: ListMember[]; total: number }> {
  const [rows, count] = await Promise.all([
    sequelize.query<LeadRow & { added_at: Date }>(
      `SELECT ${LEAD_COLUMNS}, m.added_at FROM lead_list_members m JOIN leads l ON l.id = m.lead_id
       WHERE m.account_id = $1 AND m.list_id = $2 ORDER BY m.added_at, l.email, l.id LIMIT $3 OFFSET $4`,
      { bind: [accountId, listId, perPage, (page - 1) * perPage], type: QueryTypes.SELECT },
    ),
    sequelize.query<{ n: string }>('SELECT count(*) AS n FROM lead_list_members WHERE account_id = $1 AND list_id = $2', {
      bind: [accountId, listId],
      type: QueryTypes.SELECT,
    }),
  ]);
  return { leads: rows.map((r) => ({ ...toLeadView(r), addedAt: new Date(r.added_at).toISOString() })), total: Number(count[0]?.n ?? 0) };
}

/**
 * The ids among `listIds` that are not lists of the account (missing, or another account's), in
 * the order given, without repeats: a campaign naming any of them is refused with these ids.
 */
export async function checkListsOwned(sequelize: Sequelize, accountId: string, listIds: readonly string[]): Promise<string[]> {
  const unique = [...new Set(listIds)];
  if (unique.length === 0) return [];
  const rows = await sequelize.query<{ id: string }>('SELECT id FROM lead_lists WHERE account_id = $1 AND id = ANY($2::text[])', {
    bind: [accountId, unique],
    type: QueryTypes.SELECT,
  });
  const owned = new Set(rows.map((r) => r.id));
  return unique.filter((id) => !owned.has(id));
}

/**
 * The lead ids of the lists bound at `listParam` (a text[] parameter such as `$3::text[]`), for a
 * campaign's candidates: `l.id IN (<this>)`. Lists are the account's (checkListsOwned at create);
 * the caller still scopes leads by account.
 */
export function leadsOfListsSql(listParam: string): string {
  return `SELECT m.lead_id FROM lead_list_members m WHERE m.list_id = ANY(${listParam})`;
}

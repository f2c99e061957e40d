import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import { normalizeEmail } from '../suppressions/suppression-repository';
import { blockedSql } from './blocked-sql';
import { parseBlocklistValue, type BlocklistEntryValue, type BlocklistKind } from './blocklist-entry';

/** How an entry came onto the list: added by the user (API), imported from a CSV, or a lead marked do_not_contact. */
export type BlocklistSource = 'user' | 'import' | 'do_not_contact';
export const BLOCKLIST_SOURCES = ['user', 'import', 'do_not_contact'] as const satisfies readonly BlocklistSource[];

/** What the list shows: the account's own entries, and (read-only) its suppressions. */
export type BlocklistItemType = BlocklistKind | 'suppression';
export const BLOCKLIST_ITEM_TYPES = ['address', 'domain', 'suppression'] as const satisfies readonly BlocklistItemType[];

/** Why an address is suppressed: the suppression's reason, named for people (hard_bounce is a bounce). */
export type SuppressionCause = 'unsubscribe' | 'bounce' | 'complaint' | 'reply_unsubscribe' | 'manual';
export const SUPPRESSION_CAUSES = ['unsubscribe', 'bounce', 'complaint', 'reply_unsubscribe', 'manual'] as const satisfies readonly SuppressionCause[];

/** One row of the list as the API shows it. */
export interface BlocklistItem {
  /** The entry's id; null for a suppression, which is not removed through the blocklist. */
  readonly id: string | null;
  readonly type: BlocklistItemType;
  /** The address or domain. */
  readonly value: string;
  /** The user's note on an entry; null for suppressions. */
  readonly reason: string | null;
  /** How an entry got here; null for suppressions. */
  readonly source: BlocklistSource | null;
  /** Why an address is suppressed; null for blocklist entries. */
  readonly cause: SuppressionCause | null;
  /** ISO 8601 UTC. */
  readonly createdAt: string;
}

/** An entry to add: what it blocks and the user's note. */
export interface NewEntry extends BlocklistEntryValue {
  readonly reason: string | null;
}

/** An entry after an add: the stored row, and whether this call added it or found it there. */
export interface AddedEntry extends BlocklistItem {
  readonly status: 'added' | 'already_listed';
}

interface ItemRow {
  id: string | null;
  type: BlocklistItemType;
  value: string;
  reason: string | null;
  source: BlocklistSource | null;
  cause: SuppressionCause | null;
  created_at: Date | string;
}

const toItem = (r: ItemRow): BlocklistItem => ({
  id: r.id,
  type: r.type,
  value: r.value,
  reason: r.reason,
  source: r.source,
  cause: r.cause,
  createdAt: new Date(r.created_at).toISOString(),
});

const ENTRY_COLUMNS = `b.id, b.kind AS type, b.value, b.reason, b.source, NULL::text AS cause, b.created_at`;

/** A suppression as an item: its reason as the cause. */
export const SUPPRESSION_ITEM_COLUMNS = `NULL::text AS id, 'suppression'::text AS type, s.email AS value, NULL::text AS reason, NULL::text AS source,
  CASE s.reason WHEN 'hard_bounce' THEN 'bounce' ELSE s.reason END AS cause, s.created_at`;

/**
 * Inserts entries (one multi-row statement, whatever their number) and counts those it added;
 * entries already on the list, or given twice, are skipped by the unique index.
 */
export async function insertEntries(sequelize: Sequelize, tx: Transaction, accountId: string, entries: readonly NewEntry[], source: BlocklistSource): Promise<number> {
  if (entries.length === 0) return 0;
  const rows = await sequelize.query<{ n: number }>(
    `WITH ins AS (
       INSERT INTO blocklist_entries (account_id, kind, value, reason, source)
       SELECT $1, t.kind, t.value, t.reason, $5 FROM unnest($2::text[], $3::text[], $4::text[]) AS t(kind, value, reason)
       ON CONFLICT (account_id, kind, value) DO NOTHING
       RETURNING 1)
     SELECT count(*)::int AS n FROM ins`,
    {
      bind: [accountId, entries.map((e) => e.kind), entries.map((e) => e.value), entries.map((e) => e.reason), source],
      type: QueryTypes.SELECT,
      transaction: tx,
    },
  );
  return rows[0]?.n ?? 0;
}

/**
 * Adds entries in one transaction and answers each distinct one with its stored row: `added` by
 * this call, or `already_listed` (its first reason and source stay). Adding is idempotent.
 */
export async function addEntries(sequelize: Sequelize, accountId: string, entries: readonly NewEntry[], source: BlocklistSource): Promise<AddedEntry[]> {
  const distinct = new Map<string, NewEntry>();
  for (const e of entries) if (!distinct.has(`${e.kind}:${e.value}`)) distinct.set(`${e.kind}:${e.value}`, e);
  const unique = [...distinct.values()];
  if (unique.length === 0) return [];
  return sequelize.transaction(async (tx) => {
    const inserted = await sequelize.query<{ id: string }>(
      `INSERT INTO blocklist_entries (account_id, kind, value, reason, source)
       SELECT $1, t.kind, t.value, t.reason, $5 FROM unnest($2::text[], $3::text[], $4::text[]) AS t(kind, value, reason)
       ON CONFLICT (account_id, kind, value) DO NOTHING
       RETURNING id`,
      {
        bind: [accountId, unique.map((e) => e.kind), unique.map((e) => e.value), unique.map((e) => e.reason), source],
        type: QueryTypes.SELECT,
        transaction: tx,
      },
    );
    const added = new Set(inserted.map((r) => r.id));
    const rows = await sequelize.query<ItemRow>(
      `SELECT ${ENTRY_COLUMNS} FROM blocklist_entries b JOIN unnest($2::text[], $3::text[]) WITH ORDINALITY AS t(kind, value, n)
         ON b.kind = t.kind AND b.value = t.value
        WHERE b.account_id = $1 ORDER BY t.n`,
      { bind: [accountId, unique.map((e) => e.kind), unique.map((e) => e.value)], type: QueryTypes.SELECT, transaction: tx },
    );
    return rows.map((r) => ({ ...toItem(r), status: r.id !== null && added.has(r.id) ? 'added' : 'already_listed' }));
  });
}

export interface BlocklistFilter {
  /** Which types to show; entries of both kinds when absent. */
  readonly types: ReadonlySet<BlocklistItemType>;
  /** Case-insensitive substring of the address or domain. */
  readonly q?: string;
  /** Entries of this source only (suppressions have none, so none are shown). */
  readonly source?: BlocklistSource;
}

/** `q` as a LIKE pattern matching it anywhere, its own wildcards taken literally. */
const containsPattern = (q: string): string => `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The UNION of the entries and suppressions the filter asks for, and its bind values ($1 is the account). */
function filteredItems(accountId: string, filter: BlocklistFilter): { sql: string; bind: unknown[] } {
  const bind: unknown[] = [accountId];
  const parts: string[] = [];
  const like = filter.q !== undefined && filter.q !== '' ? `$${bind.push(containsPattern(filter.q))}` : null;
  const kinds = (['address', 'domain'] as const).filter((k) => filter.types.has(k));
  if (kinds.length > 0) {
    const where = [`b.account_id = $1`, `b.kind = ANY($${bind.push(kinds)}::text[])`];
    if (like !== null) where.push(`b.value LIKE ${like}`);
    if (filter.source !== undefined) where.push(`b.source = $${bind.push(filter.source)}`);
    parts.push(`SELECT ${ENTRY_COLUMNS} FROM blocklist_entries b WHERE ${where.join(' AND ')}`);
  }
  if (filter.types.has('suppression') && filter.source === undefined) {
    parts.push(`SELECT ${SUPPRESSION_ITEM_COLUMNS} FROM suppressions s WHERE s.account_id = $1${like !== null ? ` AND s.email LIKE ${like}` : ''}`);
  }
  // Values are stored lower case, so a lower-cased pattern is a case-insensitive match.
  return { sql: parts.length > 0 ? parts.join('\nUNION ALL\n') : `SELECT ${ENTRY_COLUMNS} FROM blocklist_entries b WHERE false`, bind };
}

/** One page of the list, newest first, and how many items the filter matches in all. */
export async function listBlocklist(
  sequelize: Sequelize,
  accountId: string,
  filter: BlocklistFilter,
  page: number,
  perPage: number,
): Promise<{ items: BlocklistItem[]; total: number }> {
  const { sql, bind } = filteredItems(accountId, filter);
  const [rows, count] = await Promise.all([
    sequelize.query<ItemRow>(`SELECT * FROM (${sql}) x ORDER BY x.created_at DESC, x.value, x.type LIMIT $${bind.length + 1} OFFSET $${bind.length + 2}`, {
      bind: [...bind, perPage, (page - 1) * perPage],
      type: QueryTypes.SELECT,
    }),
    sequelize.query<{ n: string }>(`SELECT count(*) AS n FROM (${sql}) x`, { bind, type: QueryTypes.SELECT }),
  ]);
  return { items: rows.map(toItem), total: Number(count[0]?.n ?? 0) };
}

/** Removes one of the account's entries; false when the account has no entry with that id. */
export async function removeEntry(sequelize: Sequelize, accountId: string, id: string): Promise<boolean> {
  const rows = await sequelize.query(`DELETE FROM blocklist_entries WHERE id = $1 AND account_id = $2 RETURNING id`, {
    bind: [id, accountId],
    type: QueryTypes.SELECT,
  });
  return rows.length > 0;
}

/**
 * Blocks one address in the caller's transaction (a lead marked do_not_contact): idempotent, the
 * first entry's reason and source stay. The address was validated when the lead was stored; if
 * the stricter blocklist check refuses it (an odd domain), it is still blocked as written, lower
 * case, since the user's decision must hold. Returns the entry's id and whether this call added it.
 */
export async function blockAddress(
  sequelize: Sequelize,
  tx: Transaction | null,
  accountId: string,
  email: string,
  source: BlocklistSource,
  reason: string | null = null,
): Promise<{ id: string; added: boolean }> {
  const parsed = parseBlocklistValue(email);
  const value = parsed.ok && parsed.entry.kind === 'address' ? parsed.entry.value : normalizeEmail(email);
  const inserted = await sequelize.query<{ id: string }>(
    `INSERT INTO blocklist_entries (account_id, kind, value, reason, source) VALUES ($1, 'address', $2, $3, $4)
     ON CONFLICT (account_id, kind, value) DO NOTHING RETURNING id`,
    { bind: [accountId, value, reason, source], type: QueryTypes.SELECT, transaction: tx },
  );
  if (inserted[0] !== undefined) return { id: inserted[0].id, added: true };
  const existing = await sequelize.query<{ id: string }>(`SELECT id FROM blocklist_entries WHERE account_id = $1 AND kind = 'address' AND value = $2`, {
    bind: [accountId, value],
    type: QueryTypes.SELECT,
    transaction: tx,
  });
  return { id: existing[0]!.id, added: false };
}

/** Whether the account's blocklist blocks the address (by itself or by its domain or a parent domain). */
export async function isBlocked(sequelize: Sequelize, accountId: string, email: string, tx: Transaction | null = null): Promise<boolean> {
  const rows = await sequelize.query<{ blocked: boolean }>(`SELECT ${blockedSql('$1', '$2')} AS blocked`, {
    bind: [accountId, email],
    type: QueryTypes.SELECT,
    transaction: tx,
  });
  return rows[0]?.blocked === true;
}

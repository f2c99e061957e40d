import type { Readable } from 'node:stream';
import type { Sequelize } from 'sequelize';
import { openSnapshotRows } from '../campaigns/reporting/export-rows';
import { SUPPRESSION_ITEM_COLUMNS, type BlocklistItemType, type BlocklistSource, type SuppressionCause } from './blocklist-repository';

/** One row of the export file; `value` first, so the file imports back as it is. */
export interface BlocklistExportRow {
  readonly value: string;
  readonly type: BlocklistItemType;
  readonly reason: string | null;
  readonly source: BlocklistSource | null;
  readonly cause: SuppressionCause | null;
  /** ISO 8601 UTC, millisecond precision. */
  readonly createdAt: string;
}

export const BLOCKLIST_EXPORT_FIELDS = ['value', 'type', 'reason', 'source', 'cause', 'createdAt'] as const satisfies ReadonlyArray<keyof BlocklistExportRow>;

const CREATED_AT = `to_char(x.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "createdAt"`;

/**
 * The account's entries (and its suppressions when asked), oldest first, as an object stream of
 * BlocklistExportRow read through a server-side cursor: a list of a million entries holds one
 * batch in memory. The stream holds a pooled connection until it closes.
 */
export async function openBlocklistExport(sequelize: Sequelize, accountId: string, withSuppressions: boolean): Promise<Readable> {
  const entries = `SELECT b.value, b.kind AS type, b.reason, b.source, NULL::text AS cause, b.created_at FROM blocklist_entries b WHERE b.account_id = $1`;
  const suppressions = `SELECT s.value, s.type, s.reason, s.source, s.cause, s.created_at FROM (SELECT ${SUPPRESSION_ITEM_COLUMNS} FROM suppressions s WHERE s.account_id = $1) s`;
  const union = withSuppressions ? `${entries} UNION ALL ${suppressions}` : entries;
  const sql = `SELECT x.value, x.type, x.reason, x.source, x.cause, ${CREATED_AT} FROM (${union}) x ORDER BY x.created_at, x.type, x.value`;
  // openSnapshotRows wants a first query (an export header's facts); this file's header is fixed, so a no-op stands in.
  const { rows } = await openSnapshotRows(sequelize, { sql: 'SELECT 1', values: [] }, { sql, values: [accountId] });
  return rows;
}

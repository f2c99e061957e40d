/**
 * Rewrites the profile columns of stored leads: for given rows (after an upsert merged provider
 * values into a stored lead) and for a whole table (the migration that added the columns, or a
 * later change of the vocabularies), in batches of bounded size.
 */
import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import { PROFILE_COLUMNS, PROFILE_COLUMN_TYPES, RAW_PROFILE_COLUMNS, profileColumnSql, profileSourceOfRow, profileValues, type ProfileColumn, type ProfileValue, type RawProfileRow } from './profile-columns';

export interface ProfileUpdate {
  readonly id: string;
  /** In the order of PROFILE_COLUMNS, all of them. */
  readonly values: readonly ProfileValue[];
}

/**
 * Sets the profile columns of the given leads in one statement (one bound array per column).
 * Rows whose columns already hold these values are not written, so a repeated refresh costs reads only.
 * Returns how many rows changed.
 */
export async function writeProfiles(sequelize: Sequelize, tx: Transaction | null, updates: readonly ProfileUpdate[], only: readonly ProfileColumn[] = PROFILE_COLUMNS): Promise<number> {
  if (updates.length === 0) return 0;
  const indexes = PROFILE_COLUMNS.map((c, i) => [c, i] as const).filter(([c]) => only.includes(c));
  const names = indexes.map(([c]) => c);
  const columns = indexes.map(([, i]) => updates.map((u) => u.values[i] ?? null));
  const arrays = indexes.map(([, i], k) => `$${k + 2}::${PROFILE_COLUMN_TYPES[i]}[]`);
  const sets = names.map((c) => `${c} = ${profileColumnSql(c, `v.${c}`)}`).join(', ');
  const current = names.map((c) => `l.${c}`).join(', ');
  const next = names.map((c) => profileColumnSql(c, `v.${c}`)).join(', ');
  const [, changed] = await sequelize.query(
    `UPDATE leads l SET ${sets}
     FROM unnest($1::text[], ${arrays.join(', ')}) AS v(id, ${names.join(', ')})
     WHERE l.id = v.id AND (${current}) IS DISTINCT FROM (${next})`,
    { bind: [updates.map((u) => u.id), ...columns], transaction: tx ?? undefined, type: QueryTypes.UPDATE },
  );
  return changed;
}

export interface RefreshOptions {
  /** Leads read and written per statement. */
  readonly batchSize?: number;
  /**
   * The columns to write (all by default). A migration that ran before later ones added columns
   * writes only those its schema has.
   */
  readonly columns?: readonly ProfileColumn[];
}

/**
 * Computes the profile of every stored lead again from its raw columns and stores it. Walks the
 * table in primary-key order (keyset pagination: each batch starts after the last id of the one
 * before), so memory stays at one batch and no batch reads rows an earlier one already passed.
 * Each batch is its own statement: a large table is not held in one transaction. Returns how many
 * rows changed.
 */
export async function refreshLeadProfiles(sequelize: Sequelize, opts: RefreshOptions = {}): Promise<number> {
  const batchSize = opts.batchSize ?? 1000;
  let after = '';
  let changed = 0;
  for (;;) {
    const rows = await sequelize.query<RawProfileRow & { id: string }>(`SELECT l.id, ${RAW_PROFILE_COLUMNS} FROM leads l WHERE l.id > $1 ORDER BY l.id LIMIT $2`, {
      bind: [after, batchSize],
      type: QueryTypes.SELECT,
    });
    if (rows.length === 0) return changed;
    changed += await writeProfiles(
      sequelize,
      null,
      rows.map((r) => ({ id: r.id, values: profileValues(profileSourceOfRow(r)) })),
      opts.columns,
    );
    after = rows[rows.length - 1]!.id;
    if (rows.length < batchSize) return changed;
  }
}

/**
 * `campaign_changes`, the history of a campaign's changes: the one module that writes and reads
 * it. A row is written in the transaction of the change it records (an edit, a pause, stop or
 * resume), under an id the API chose, so a retried activity writes it once.
 */
import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import type { ChangeActor, ChangeRecord, FieldChange } from '../../../workflows/campaign/contract';

/** Inserts the change; false when its id was already written (a retried activity). */
export async function insertChange(sequelize: Sequelize, tx: Transaction, campaignId: string, accountId: string, change: ChangeRecord, at: string): Promise<boolean> {
  const rows = await sequelize.query<{ id: string }>(
    `INSERT INTO campaign_changes (id, campaign_id, account_id, kind, actor, fields, at) VALUES ($1, $2, $3, $4, $5::jsonb, $6::jsonb, $7)
     ON CONFLICT (id) DO NOTHING RETURNING id`,
    { bind: [change.id, campaignId, accountId, change.kind, JSON.stringify(change.by), JSON.stringify(change.fields), at], type: QueryTypes.SELECT, transaction: tx },
  );
  return rows.length === 1;
}

export interface StoredChange {
  readonly id: string;
  readonly kind: ChangeRecord['kind'];
  readonly by: ChangeActor;
  readonly fields: readonly FieldChange[];
  readonly at: Date;
}

/** A page of the campaign's changes, newest first, and how many there are. The caller has checked the campaign is the account's. */
export async function changesPage(sequelize: Sequelize, campaignId: string, page: { limit: number; offset: number }): Promise<{ rows: StoredChange[]; total: number }> {
  const rows = await sequelize.query<{ id: string; kind: ChangeRecord['kind']; actor: ChangeActor; fields: FieldChange[]; at: Date; total: number }>(
    `SELECT id, kind, actor, fields, at, count(*) OVER ()::int AS total FROM campaign_changes WHERE campaign_id = $1
      ORDER BY at DESC, id DESC LIMIT $2 OFFSET $3`,
    { bind: [campaignId, page.limit, page.offset], type: QueryTypes.SELECT },
  );
  const total = rows[0]?.total ?? (page.offset === 0 ? 0 : await countChanges(sequelize, campaignId));
  return { rows: rows.map((r) => ({ id: r.id, kind: r.kind, by: r.actor, fields: r.fields, at: r.at })), total };
}

async function countChanges(sequelize: Sequelize, campaignId: string): Promise<number> {
  const [row] = await sequelize.query<{ n: number }>(`SELECT count(*)::int AS n FROM campaign_changes WHERE campaign_id = $1`, { bind: [campaignId], type: QueryTypes.SELECT });
  return row?.n ?? 0;
}

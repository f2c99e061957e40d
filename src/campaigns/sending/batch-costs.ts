import { QueryTypes, type Sequelize } from 'sequelize';

/**
 * What the costs with these idempotency keys add up to, in USD (6 decimals, as stored). A batch
 * counts its spend by the keys of its emails (`write:<campaign>:<lead>:<step>`, `send:<emailId>`),
 * never by "rows inserted now": a retried batch reports an email an earlier attempt already paid
 * for, since the workflow never saw that attempt's result, and the costs table holds it once.
 */
export async function costOfKeys(sequelize: Sequelize, keys: readonly string[]): Promise<number> {
  if (keys.length === 0) return 0;
  const rows = await sequelize.query<{ usd: number }>(`SELECT round(COALESCE(sum(amount_usd), 0), 6)::float8 AS usd FROM costs WHERE idempotency_key = ANY($1::text[])`, {
    bind: [[...keys]],
    type: QueryTypes.SELECT,
  });
  return rows[0]?.usd ?? 0;
}

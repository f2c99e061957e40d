import { QueryTypes, type Sequelize } from 'sequelize';

/** What the account's costs can be grouped by (GET /v1/runs/stats/costs). */
export const COST_GROUP_BY = ['costName', 'brandId', 'featureSlug'] as const;
export type CostGroupBy = (typeof COST_GROUP_BY)[number];

export interface CostGroup {
  /** The cost name, brand or feature; null for costs without a brand (grouping by brandId). */
  readonly key: string | null;
  readonly totalCostUsd: number;
  /** Units bought: emails sent, LLM calls, provider matches. */
  readonly quantity: number;
  /** Cost rows recorded. */
  readonly events: number;
}

export interface CostGroups {
  readonly totalCostUsd: number;
  /** Most expensive first; equal costs by key, the group without a key last. */
  readonly groups: readonly CostGroup[];
}

export interface CostGroupsQuery {
  readonly groupBy: CostGroupBy;
  /** Only costs of this brand. */
  readonly brandId: string | null;
  /** [from, to): instants; null leaves that side open. */
  readonly from: Date | null;
  readonly to: Date | null;
}

// A cost's brand is the one recorded with it, else its campaign's: costs recorded outside the
// sending path (qualifying an inbound reply, enriching planned leads) carry the campaign but
// not always the brand, and they are still that brand's spend.
const BRAND = 'coalesce(k.brand_id, c.brand_id)';

/** Column expressions by group; the only SQL text the query takes from its caller is chosen here. */
const KEY_SQL: Readonly<Record<CostGroupBy, string>> = { costName: 'k.cost_name', brandId: BRAND, featureSlug: 'k.feature_slug' };

/**
 * One pass over the account's costs (its (account_id, occurred_at) index): one row per group and,
 * through the empty grouping set, the total, so the total is the rounded sum of the amounts, not a
 * sum of rounded group totals. Amounts are rounded to 6 decimals, the precision they are stored with.
 */
function costGroupsSql(groupBy: CostGroupBy): string {
  const key = KEY_SQL[groupBy];
  return `
SELECT ${key} AS "key", GROUPING(${key}) = 1 AS "isTotal",
       round(coalesce(sum(k.amount_usd), 0), 6)::float8 AS "totalCostUsd",
       coalesce(sum(k.quantity), 0)::float8 AS "quantity",
       count(k.id)::float8 AS "events"
  FROM costs k
  LEFT JOIN campaigns c ON c.id = k.campaign_id
 WHERE k.account_id = $1
   AND ($2::text IS NULL OR ${BRAND} = $2)
   AND ($3::timestamptz IS NULL OR k.occurred_at >= $3)
   AND ($4::timestamptz IS NULL OR k.occurred_at < $4)
 GROUP BY GROUPING SETS ((${key}), ())
 ORDER BY GROUPING(${key}) DESC, "totalCostUsd" DESC, ${key} COLLATE "C" ASC NULLS LAST`;
}

type Row = CostGroup & { isTotal: boolean };

export async function costGroups(sequelize: Sequelize, accountId: string, q: CostGroupsQuery): Promise<CostGroups> {
  const rows = await sequelize.query<Row>(costGroupsSql(q.groupBy), {
    bind: [accountId, q.brandId, q.from?.toISOString() ?? null, q.to?.toISOString() ?? null],
    type: QueryTypes.SELECT,
  });
  // The empty grouping set always yields its row, sorted first.
  const [total, ...groups] = rows;
  return {
    totalCostUsd: total!.totalCostUsd,
    groups: groups.map((g) => ({ key: g.key, totalCostUsd: g.totalCostUsd, quantity: g.quantity, events: g.events })),
  };
}

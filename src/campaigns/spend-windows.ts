import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import type { BudgetType } from '../../workflows/campaign/contract';

export interface BudgetLimits {
  readonly daily: number | null;
  readonly weekly: number | null;
  readonly monthly: number | null;
}

export type WindowSpend = Record<BudgetType, number>;

/**
 * A campaign's recorded costs in its current budget windows (UTC: since 00:00 today, since Monday
 * 00:00, since the 1st), in one indexed scan of the month (the widest window... except a week that
 * began last month, hence the LEAST).
 */
export async function spendInWindows(sequelize: Sequelize, campaignId: string, transaction?: Transaction): Promise<WindowSpend> {
  const [row] = await sequelize.query<{ daily: string; weekly: string; monthly: string }>(
    `WITH w AS (
       SELECT date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS day,
              date_trunc('week', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS week,
              date_trunc('month', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS month)
     SELECT COALESCE(SUM(c.amount_usd) FILTER (WHERE c.occurred_at >= w.day), 0) AS daily,
            COALESCE(SUM(c.amount_usd) FILTER (WHERE c.occurred_at >= w.week), 0) AS weekly,
            COALESCE(SUM(c.amount_usd) FILTER (WHERE c.occurred_at >= w.month), 0) AS monthly
       FROM w LEFT JOIN costs c ON c.campaign_id = $1 AND c.occurred_at >= LEAST(w.week, w.month)
      GROUP BY w.day, w.week, w.month`,
    { bind: [campaignId], type: QueryTypes.SELECT, transaction },
  );
  return { daily: Number(row?.daily ?? 0), weekly: Number(row?.weekly ?? 0), monthly: Number(row?.monthly ?? 0) };
}

/** The budget types whose limit the spend has reached (a limit of 0 allows no spend). */
export function reachedBudgets(spend: WindowSpend, limits: BudgetLimits): BudgetType[] {
  return (['daily', 'weekly', 'monthly'] as const).filter((t) => limits[t] !== null && spend[t] >= (limits[t] as number));
}

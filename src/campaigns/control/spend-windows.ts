import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import { windowStarts, type WindowAmounts } from '../model/budget-windows';

/**
 * A campaign's recorded costs in its current budget windows (those of `windowStarts`: since 00:00
 * UTC today, since Monday, since the 1st), in one indexed scan from the earlier of the week's and
 * the month's start.
 */
export async function spendInWindows(sequelize: Sequelize, campaignId: string, transaction?: Transaction, now: number = Date.now()): Promise<WindowAmounts> {
  const starts = windowStarts(now);
  const [row] = await sequelize.query<{ daily: string; weekly: string; monthly: string }>(
    `SELECT COALESCE(SUM(amount_usd) FILTER (WHERE occurred_at >= $2), 0) AS daily,
            COALESCE(SUM(amount_usd) FILTER (WHERE occurred_at >= $3), 0) AS weekly,
            COALESCE(SUM(amount_usd) FILTER (WHERE occurred_at >= $4), 0) AS monthly
       FROM costs WHERE campaign_id = $1 AND occurred_at >= LEAST($3::timestamptz, $4::timestamptz)`,
    { bind: [campaignId, new Date(starts.daily), new Date(starts.weekly), new Date(starts.monthly)], type: QueryTypes.SELECT, transaction },
  );
  return { daily: Number(row?.daily ?? 0), weekly: Number(row?.weekly ?? 0), monthly: Number(row?.monthly ?? 0) };
}

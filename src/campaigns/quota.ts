import { QueryTypes, type Sequelize, type Transaction } from 'sequelize';
import type { Config } from '../config/config';
import { planFor, type PlanName } from '../config/plans';
import { windowStarts } from './model/budget-windows';

export interface QuotaUse {
  readonly limit: number;
  readonly sent: number;
  readonly remaining: number;
}

/** The account's emails sent this UTC calendar month (the monthly budget window) against its plan's monthly quota. */
export async function quotaUse(
  sequelize: Sequelize,
  config: Pick<Config, 'planEmailLimits'>,
  accountId: string,
  transaction?: Transaction,
  now: number = Date.now(),
): Promise<QuotaUse> {
  const [row] = await sequelize.query<{ plan: PlanName; sent: string }>(
    `SELECT a.plan,
            (SELECT count(*) FROM email_events e
              WHERE e.account_id = a.id AND e.type = 'sent'
                AND e.occurred_at >= $2) AS sent
       FROM accounts a WHERE a.id = $1`,
    { bind: [accountId, new Date(windowStarts(now).monthly).toISOString()], type: QueryTypes.SELECT, transaction },
  );
  if (row === undefined) throw new Error(`account ${accountId} not found`);
  const limit = planFor(row.plan, config.planEmailLimits).emailLimit;
  const sent = Number(row.sent);
  return { limit, sent, remaining: Math.max(0, limit - sent) };
}

import { QueryTypes, type Sequelize } from 'sequelize';
import { planFor, type Plan, type PlanName } from '../../config/plans';
import { budgetWindowKey } from '../model/calendar';
import { monthlyWindow } from '../model/budget-windows';

/** An account's activity in one UTC calendar month, against its plan. */
export interface AccountUsage {
  /** YYYY-MM */
  readonly period: string;
  readonly campaignsCreated: number;
  /** 'sent' facts of the account's emails in the month: what the plan's quota counts. */
  readonly emailsSent: number;
  readonly emailsRemaining: number;
  /** Every cost recorded for the account in the month (all categories, with or without a campaign). */
  readonly byokCostUsd: number;
  readonly plan: Plan;
}

/** `month` is the current UTC month (the monthly budget window); anything else is already a `YYYY-MM` month (checked by the caller). */
export function usageMonth(period: string | undefined, now: Date): string {
  return period === undefined || period === 'month' ? budgetWindowKey('monthly', now.getTime()) : period;
}

const SQL = `
SELECT (SELECT count(*) FROM campaigns WHERE account_id = $1 AND created_at >= $2 AND created_at < $3)::int AS "campaignsCreated",
       (SELECT count(*) FROM email_events WHERE account_id = $1 AND type = 'sent' AND occurred_at >= $2 AND occurred_at < $3)::int AS "emailsSent",
       (SELECT round(coalesce(sum(amount_usd), 0), 6) FROM costs WHERE account_id = $1 AND occurred_at >= $2 AND occurred_at < $3)::float8 AS "byokCostUsd"`;

export async function accountUsage(
  sequelize: Sequelize,
  accountId: string,
  planName: PlanName,
  emailLimits: Readonly<Record<PlanName, number>>,
  month: string,
): Promise<AccountUsage> {
  const { start, end } = monthlyWindow(month);
  const rows = await sequelize.query<{ campaignsCreated: number; emailsSent: number; byokCostUsd: number }>(SQL, {
    bind: [accountId, new Date(start).toISOString(), new Date(end).toISOString()],
    type: QueryTypes.SELECT,
  });
  const r = rows[0]!;
  const plan = planFor(planName, emailLimits);
  return { period: month, ...r, emailsRemaining: Math.max(0, plan.emailLimit - r.emailsSent), plan };
}

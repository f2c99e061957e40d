/**
 * Plans are configuration, not data: their figures drive quotas, usage and rate limits.
 * An account stores only the plan's name.
 */
export type PlanName = 'free' | 'pro';

export interface Plan {
  readonly name: PlanName;
  /** Emails an account may send in one UTC calendar month (the default; configurable, see planFor). */
  readonly emailLimit: number;
  readonly priceUsd: number;
}

export const PLANS: Readonly<Record<PlanName, Plan>> = {
  free: { name: 'free', emailLimit: 1_000, priceUsd: 0 },
  pro: { name: 'pro', emailLimit: 50_000, priceUsd: 99 },
};

export const PLAN_NAMES = Object.keys(PLANS) as PlanName[];

export function isPlanName(v: string): v is PlanName {
  return Object.prototype.hasOwnProperty.call(PLANS, v);
}

/** The plan as an account sees it: the monthly email quota comes from configuration. */
export function planFor(name: PlanName, emailLimits: Readonly<Record<PlanName, number>>): Plan {
  return { ...PLANS[name], emailLimit: emailLimits[name] };
}

import type { CampaignCounts } from './campaign-counts';

/** Ratios of a campaign's counts, as fractions in [0, 1] rounded to 4 decimals. */
export interface CampaignRates {
  /** delivered / emails sent */
  readonly deliveryRate: number;
  /** opened / delivered */
  readonly openRate: number;
  /** clicked / delivered */
  readonly clickRate: number;
  /** replied / delivered */
  readonly replyRate: number;
  /** meetings booked / delivered */
  readonly conversionRate: number;
}

export const RATE_DECIMALS = 4;

/**
 * 0 when nothing was in the denominator (no emails yet is not a 100% or undefined rate), and never
 * above 1: a reply can arrive for an email whose delivery was never confirmed (accepted with
 * unknown outcome), which would otherwise push a rate past 100%.
 */
export function rate(numerator: number, denominator: number): number {
  if (denominator <= 0) return 0;
  const r = Math.min(1, numerator / denominator);
  const scale = 10 ** RATE_DECIMALS;
  return Math.round(r * scale) / scale;
}

export function campaignRates(c: CampaignCounts): CampaignRates {
  return {
    deliveryRate: rate(c.delivered, c.emailsSent),
    openRate: rate(c.opened, c.delivered),
    clickRate: rate(c.clicked, c.delivered),
    replyRate: rate(c.replied, c.delivered),
    conversionRate: rate(c.meetingsBooked, c.delivered),
  };
}

/**
 * The same ratio in SQL (unrounded, as a float8), for aggregates over many campaigns such as the
 * benchmarks' percentiles; rounding happens once, on the aggregate. Arguments are column
 * expressions written by our own code, never input.
 */
export function rateSql(numerator: string, denominator: string): string {
  return `(CASE WHEN ${denominator} > 0 THEN least(1.0, ${numerator}::float8 / ${denominator}) ELSE 0 END)`;
}

/**
 * When a step's variant test has a winner: every variant that can be drawn has been sent at least
 * `minSends` times, one variant's rate (replies, or positive replies, per delivered email) is the
 * highest, and a two-proportion z-test says its lead over every other variant is not noise at the
 * test's confidence. With more than two variants the leader is compared with each of the others,
 * and the p-values are Bonferroni-corrected (multiplied by the number of comparisons), so a test of
 * five variants is no likelier to declare a false winner than a test of two.
 *
 * The test is checked once a sending day, not continuously, and only past `minSends`: looking at
 * a test again and again raises its false-positive rate, and the floor on sends keeps the number of
 * looks, and the error of the normal approximation, small.
 */
import { errorFunction } from 'simple-statistics';
import type { AutoWinner, VariantId } from '../model/sequence';

export interface VariantTally {
  readonly variant: VariantId;
  /** Emails sent with this variant. */
  readonly sent: number;
  /** The denominator of the rate: emails delivered. */
  readonly delivered: number;
  /** The numerator: replies, or positive replies. */
  readonly successes: number;
}

export interface TestDecision {
  readonly winner: VariantId;
  /** The largest corrected p-value of the leader's comparisons: below 1 - confidence. */
  readonly pValue: number;
}

/** Standard normal cumulative distribution. */
function normalCdf(z: number): number {
  return 0.5 * (1 + errorFunction(z / Math.SQRT2));
}

/** Two-sided p-value of the pooled two-proportion z-test; 1 when it cannot tell (no data, or no variance). */
export function twoProportionPValue(x1: number, n1: number, x2: number, n2: number): number {
  if (n1 <= 0 || n2 <= 0) return 1;
  const pooled = (x1 + x2) / (n1 + n2);
  const se = Math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2));
  if (se === 0) return 1;
  const z = (x1 / n1 - x2 / n2) / se;
  return Math.min(1, 2 * (1 - normalCdf(Math.abs(z))));
}

const rateOf = (t: VariantTally): number => (t.delivered <= 0 ? 0 : Math.min(1, t.successes / t.delivered));

/** The winner of the test, or null while there is none. `tallies` are the variants that can be drawn. */
export function decideTest(tallies: readonly VariantTally[], rule: Pick<AutoWinner, 'minSends' | 'confidence'>): TestDecision | null {
  if (tallies.length < 2 || tallies.some((t) => t.sent < rule.minSends)) return null;
  const ranked = [...tallies].sort((a, b) => rateOf(b) - rateOf(a));
  const [leader, second] = ranked as [VariantTally, VariantTally];
  if (rateOf(leader) === rateOf(second)) return null;
  const comparisons = ranked.length - 1;
  const pValue = Math.max(...ranked.slice(1).map((other) => Math.min(1, comparisons * twoProportionPValue(leader.successes, leader.delivered, other.successes, other.delivered))));
  return pValue <= 1 - rule.confidence ? { winner: leader.variant, pValue } : null;
}

export { rateOf };

import { expect } from 'chai';
import { decideTest, twoProportionPValue } from '../../src/campaigns/sequences/auto-winner';

describe('variant tests: the two-proportion test and when a winner is declared', () => {
  it('the p-value of the pooled two-proportion z-test (two-sided)', () => {
    // 10/100 against 20/100: z = -1.98, p = 0.0477 (textbook value).
    expect(twoProportionPValue(10, 100, 20, 100)).to.be.closeTo(0.0477, 0.0005);
    expect(twoProportionPValue(20, 100, 10, 100)).to.be.closeTo(0.0477, 0.0005);
    expect(twoProportionPValue(5, 50, 5, 50)).to.be.closeTo(1, 1e-9);
    // Nothing to tell apart: no data, or no variance at all.
    expect(twoProportionPValue(0, 0, 3, 10)).to.equal(1);
    expect(twoProportionPValue(0, 100, 0, 100)).to.equal(1);
  });

  const rule = { minSends: 100, confidence: 0.95 };
  const tally = (variant: 'A' | 'B' | 'C', sent: number, successes: number) => ({ variant, sent, delivered: sent, successes });

  it('declares nothing before every variant has its minimum of sends, nor on a tie', () => {
    expect(decideTest([tally('A', 99, 1), tally('B', 300, 60)], rule)).to.equal(null);
    expect(decideTest([tally('A', 200, 20), tally('B', 200, 20)], rule)).to.equal(null);
  });

  it('declares the leader only when its lead is not noise at the confidence', () => {
    expect(decideTest([tally('A', 100, 10), tally('B', 100, 14)], rule)).to.equal(null); // p = 0.39
    const won = decideTest([tally('A', 200, 8), tally('B', 200, 30)], rule);
    expect(won?.winner).to.equal('B');
    expect(won!.pValue).to.be.lessThan(0.05);
    // A stricter confidence needs more evidence.
    expect(decideTest([tally('A', 100, 10), tally('B', 100, 20)], { minSends: 100, confidence: 0.99 })).to.equal(null);
  });

  it('with three variants the leader must beat each of the others, Bonferroni-corrected', () => {
    // B beats A clearly, but not C: no winner yet.
    expect(decideTest([tally('A', 200, 8), tally('B', 200, 30), tally('C', 200, 24)], rule)).to.equal(null);
    // 10/100 vs 20/100 is p = 0.048 alone: enough for two variants, not for three (0.048 x 2 > 0.05).
    expect(decideTest([tally('A', 100, 10), tally('B', 100, 20)], rule)?.winner).to.equal('B');
    expect(decideTest([tally('A', 100, 10), tally('B', 100, 20), tally('C', 100, 10)], rule)).to.equal(null);
  });

  it('never declares a winner between variants that perform the same: 2,000 simulated tests at 95% declare about 5% or fewer', () => {
    // A seeded generator: the same draws every run.
    let seed = 42;
    const next = (): number => {
      seed = (seed * 1664525 + 1013904223) % 2 ** 32;
      return seed / 2 ** 32;
    };
    const binomial = (n: number, p: number): number => Array.from({ length: n }, next).filter((u) => u < p).length;
    let declared = 0;
    for (let i = 0; i < 2000; i++) if (decideTest([tally('A', 200, binomial(200, 0.08)), tally('B', 200, binomial(200, 0.08))], rule) !== null) declared++;
    expect(declared / 2000).to.be.lessThan(0.06);
  });
});

import { expect } from 'chai';
import { parseSummary } from '../../fuzz/summary';

/** `npm run fuzz` passes or fails on these figures: the summaries below are schemathesis 4.32.5's own. */
describe('fuzz summary (schemathesis output)', () => {
  it('reads a clean run: requests generated, no failures', () => {
    const output = [
      'Test cases:',
      '  3926 generated, 3926 passed, 22 skipped',
      '',
      'Seed: 20260101',
      '',
      '============================ 3 warnings in 154.80s =============================',
    ].join('\n');
    expect(parseSummary(output)).to.deep.equal({ requests: 3926, failures: 0 });
  });

  it('counts failures, and errors (a dropped connection) as failures too', () => {
    const output = [
      'Test cases:',
      '  3869 generated, 3 found 4 unique failures, 17 errored, 20 skipped',
      '',
      '================== 4 failures, 1 error, 3 warnings in 182.89s ==================',
    ].join('\n');
    expect(parseSummary(output)).to.deep.equal({ requests: 3869, failures: 5 });
  });

  it('reads a run with one failure', () => {
    const output = ['Test cases:', '  2170 generated, 1 found 1 unique failure', '', '======================= 1 failure in 96.41s ======================='].join('\n');
    expect(parseSummary(output)).to.deep.equal({ requests: 2170, failures: 1 });
  });

  it('has no figures for output without a summary (a crash, an interrupted run)', () => {
    expect(parseSummary('Schemathesis v4.32.5\n ✅  Loaded specification\nKeyboardInterrupt\n')).to.equal(undefined);
  });
});

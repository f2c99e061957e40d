import { Worker, type ReplayResult } from '@temporalio/worker';
import { DeterminismViolationError } from '@temporalio/workflow';
import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { History } from '@temporalio/common/lib/proto-utils';
import { workflowBundle } from '../support/workflow-worker';
import { SCENARIOS } from './histories/scenarios';
import { historyFromJson } from './support/history-json';

/**
 * Replay safety (docs/testing.md): every recorded campaign history (test/workflows/histories,
 * written by histories/record.ts) must replay against the workflow code as it is now. A change
 * that would make a running campaign's next workflow task fail with a nondeterminism error fails
 * here first; it needs patched(), or (before any deployment) new recordings.
 */
describe('campaign workflow replay safety (recorded histories)', function () {
  this.timeout(120_000);
  const dir = join(__dirname, 'histories');
  const fixtures = readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort();
  const load = (file: string): History => historyFromJson(JSON.parse(readFileSync(join(dir, file), 'utf8')));

  it('a fixture for every recorded scenario (start date, trial end, follow-ups, pause and resume, budget, quota, stop on reply, failure, continue-as-new, written sequence, variant test)', () => {
    // Other histories (one downloaded from a deployment) may sit beside them and are replayed too.
    const names = fixtures.map((f) => f.replace(/(\.first-run|\.last-run)?\.json$/, ''));
    expect(names).to.include.members(SCENARIOS.map((s) => s.name));
    expect(fixtures).to.include.members(['continue-as-new.first-run.json', 'continue-as-new.last-run.json']);
  });

  describe('against the real workflow bundle', () => {
    const results = new Map<string, ReplayResult>();
    before(async () => {
      const histories = fixtures.map((file) => ({ workflowId: file, history: load(file) }));
      for await (const result of Worker.runReplayHistories({ workflowBundle: await workflowBundle() }, histories)) results.set(result.workflowId, result);
    });

    for (const file of fixtures) {
      it(`${file} replays without error`, () => {
        const result = results.get(file);
        expect(result, 'replayed').to.not.equal(undefined);
        expect(result?.error, String(result?.error?.message)).to.equal(undefined);
      });
    }
  });

  it('the check can fail: a workflow whose first activity differs (test/workflows/support/altered-workflows.ts) raises a DeterminismViolationError', async () => {
    const altered = await workflowBundle(require.resolve('./support/altered-workflows'));
    const err = await Worker.runReplayHistory({ workflowBundle: altered }, load('trial-end.json'), 'trial-end.json').then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).to.be.instanceOf(DeterminismViolationError);
    expect((err as Error).message).to.match(/prepareCampaign[\s\S]*planLeads/);
  });
});

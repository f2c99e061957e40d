import { expect } from 'chai';
import { GroupCommit } from '../../src/sending/group-commit';

/** A stand-in for a statement: records each batch it is given; items named "bad" make it fail. */
function recorder(): { batches: string[][]; run: (items: readonly string[]) => Promise<string[]> } {
  const batches: string[][] = [];
  return {
    batches,
    run: async (items) => {
      batches.push([...items]);
      await new Promise((r) => setImmediate(r));
      if (items.includes('bad')) throw new Error('constraint violated');
      return items.map((i) => `done:${i}`);
    },
  };
}

describe('group commit', () => {
  it('callers that arrive together share one run, and each gets its own result', async () => {
    const r = recorder();
    const gc = new GroupCommit(r.run, { maxBatch: 64, maxInFlight: 1 });
    const results = await Promise.all(['a', 'b', 'c'].map((i) => gc.submit(i)));
    expect(results).to.deep.equal(['done:a', 'done:b', 'done:c']);
    expect(r.batches).to.deep.equal([['a', 'b', 'c']]);
  });

  it('what arrives while the statement runs goes in the next batch, at most maxBatch at a time', async () => {
    const r = recorder();
    const gc = new GroupCommit(r.run, { maxBatch: 2, maxInFlight: 1 });
    const first = gc.submit('a');
    await new Promise((resolve) => setImmediate(resolve)); // 'a' has left alone
    const later = ['b', 'c', 'd'].map((i) => gc.submit(i));
    expect(await Promise.all([first, ...later])).to.deep.equal(['done:a', 'done:b', 'done:c', 'done:d']);
    expect(r.batches).to.deep.equal([['a'], ['b', 'c'], ['d']]);
  });

  it('a failing item fails only its own caller: the others are run again alone and succeed', async () => {
    const r = recorder();
    const gc = new GroupCommit(r.run, { maxBatch: 64, maxInFlight: 1 });
    const settled = await Promise.allSettled(['a', 'bad', 'c'].map((i) => gc.submit(i)));
    expect(settled.map((s) => (s.status === 'fulfilled' ? s.value : (s.reason as Error).message))).to.deep.equal(['done:a', 'constraint violated', 'done:c']);
    expect(r.batches[0]).to.deep.equal(['a', 'bad', 'c']);
    expect(r.batches.slice(1).sort()).to.deep.equal([['a'], ['bad'], ['c']]);
  });
});

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

  it('an urgent item does not wait for a busy slot: it leaves at once and takes what waits with it', async () => {
    const batches: string[][] = [];
    let releaseFirst: () => void = () => undefined;
    const firstHeld = new Promise<void>((resolve) => (releaseFirst = resolve));
    const gc = new GroupCommit(
      async (items: readonly string[]) => {
        batches.push([...items]);
        if (items.includes('slow')) await firstHeld;
        return items.map((i) => `done:${i}`);
      },
      { maxBatch: 64, maxInFlight: 1, urgent: (i) => i.startsWith('urgent'), urgentInFlight: 1 },
    );
    const slow = gc.submit('slow');
    await new Promise((resolve) => setImmediate(resolve)); // 'slow' holds the only ordinary slot
    const waiting = gc.submit('b');
    await new Promise((resolve) => setImmediate(resolve));
    expect(batches, 'an ordinary item waits for the busy slot').to.deep.equal([['slow']]);
    expect(await Promise.all([gc.submit('urgent1'), waiting])).to.deep.equal(['done:urgent1', 'done:b']);
    expect(batches[1], 'the urgent batch took the waiting item along').to.deep.equal(['b', 'urgent1']);
    releaseFirst();
    expect(await slow).to.equal('done:slow');
  });
});

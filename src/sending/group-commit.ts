/**
 * Group commit: callers that want the same kind of write at about the same time share ONE
 * statement (so one transaction and one commit) instead of paying a round trip, a statement and a
 * WAL flush each. A caller's promise settles only after the statement that carried its item has
 * committed, so "durable before I go on" holds for each caller exactly as with its own statement.
 *
 * No timer decides the batch size: a batch leaves as soon as a statement slot is free (on the next
 * turn of the event loop, so the callers woken by the same I/O join it), and whatever arrives while
 * the slots are busy waits for the next one. One caller alone therefore waits no longer than
 * before; under load the batches grow by themselves.
 *
 * `run` gets the items in arrival order and returns one result per item, in the same order. When a
 * batch of several fails, each of its items is run again alone, so an error reaches only the caller
 * whose item caused it (a failed statement has rolled back: nothing of the batch was written).
 */
export class GroupCommit<Item, Result> {
  private readonly queue: Array<{ readonly item: Item; readonly resolve: (r: Result) => void; readonly reject: (err: unknown) => void }> = [];
  private inFlight = 0;
  private scheduled = false;

  constructor(
    private readonly run: (items: readonly Item[]) => Promise<readonly Result[]>,
    private readonly limits: { readonly maxBatch: number; readonly maxInFlight: number } = { maxBatch: 64, maxInFlight: 2 },
  ) {}

  submit(item: Item): Promise<Result> {
    return new Promise<Result>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.queue.length === 0 || this.inFlight >= this.limits.maxInFlight) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.flush();
    });
  }

  private flush(): void {
    if (this.queue.length === 0 || this.inFlight >= this.limits.maxInFlight) return;
    const batch = this.queue.splice(0, this.limits.maxBatch);
    this.inFlight += 1;
    void this.settle(batch).finally(() => {
      this.inFlight -= 1;
      this.schedule();
    });
  }

  private async settle(batch: typeof this.queue): Promise<void> {
    let results: readonly Result[];
    try {
      results = await this.run(batch.map((b) => b.item));
    } catch (err) {
      if (batch.length === 1) batch[0]?.reject(err);
      else await Promise.all(batch.map((b) => this.settle([b])));
      return;
    }
    if (results.length !== batch.length) {
      const err = new Error(`group commit: ${results.length} results for ${batch.length} items`);
      for (const b of batch) b.reject(err);
      return;
    }
    batch.forEach((b, i) => b.resolve(results[i] as Result));
  }
}

/** How many items a batch takes and how many batches may run at once (see GroupCommit). */
export interface GroupCommitLimits<Item> {
  readonly maxBatch: number;
  readonly maxInFlight: number;
  /** Items that must not wait for a free ordinary slot. */
  readonly urgent?: (item: Item) => boolean;
  /** Batches led by an urgent item that may run besides the maxInFlight ordinary ones. */
  readonly urgentInFlight?: number;
}

interface Entry<Item, Result> {
  readonly item: Item;
  readonly urgent: boolean;
  readonly resolve: (r: Result) => void;
  readonly reject: (err: unknown) => void;
}

/**
 * Group commit: callers that want the same kind of write at about the same time share ONE
 * statement or transaction (so one commit) instead of paying a round trip, a statement and a
 * WAL flush each. A caller's promise settles only after the statement that carried its item has
 * committed, so "durable before I go on" holds for each caller exactly as with its own statement.
 *
 * No timer decides the batch size: a batch leaves as soon as a statement slot is free (on the next
 * turn of the event loop, so the callers woken by the same I/O join it), and whatever arrives while
 * the slots are busy waits for the next one. One caller alone therefore waits no longer than
 * before; under load the batches grow by themselves.
 *
 * Urgent items (see `limits.urgent`) have `urgentInFlight` more slots of their own: one that
 * arrives while the ordinary slots are busy leaves at once, and takes what else is waiting with it.
 * The others wait for a free ordinary slot or for an urgent batch to ride with, so they are
 * written in fewer, larger batches without delaying the urgent ones.
 *
 * `run` gets the items in arrival order (urgent ones first when a batch cannot take all) and returns
 * one result per item, in the same order. When a batch of several fails, each of its items is run
 * again alone, so an error reaches only the caller whose item caused it (a failed statement has
 * rolled back: nothing of the batch was written).
 */
export class GroupCommit<Item, Result> {
  private readonly queue: Array<Entry<Item, Result>> = [];
  private urgentQueued = 0;
  private inFlight = 0;
  private scheduled = false;

  constructor(
    private readonly run: (items: readonly Item[]) => Promise<readonly Result[]>,
    private readonly limits: GroupCommitLimits<Item> = { maxBatch: 64, maxInFlight: 2 },
  ) {}

  submit(item: Item): Promise<Result> {
    return new Promise<Result>((resolve, reject) => {
      const urgent = this.limits.urgent?.(item) === true;
      if (urgent) this.urgentQueued += 1;
      this.queue.push({ item, urgent, resolve, reject });
      this.schedule();
    });
  }

  /** Whether a batch may leave now: an ordinary slot is free, or an urgent item has a slot of its own. */
  private mayFlush(): boolean {
    if (this.queue.length === 0) return false;
    if (this.inFlight < this.limits.maxInFlight) return true;
    return this.urgentQueued > 0 && this.inFlight < this.limits.maxInFlight + (this.limits.urgentInFlight ?? 0);
  }

  private schedule(): void {
    if (this.scheduled || !this.mayFlush()) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.flush();
    });
  }

  private flush(): void {
    if (!this.mayFlush()) return;
    const batch = this.take();
    this.inFlight += 1;
    void this.settle(batch).finally(() => {
      this.inFlight -= 1;
      this.schedule();
    });
  }

  /** Up to maxBatch queued entries: all of them in arrival order when they fit, else the urgent ones first. */
  private take(): Array<Entry<Item, Result>> {
    const max = this.limits.maxBatch;
    let batch: Array<Entry<Item, Result>>;
    if (this.queue.length <= max || this.urgentQueued === 0) batch = this.queue.splice(0, max);
    else {
      const urgent = this.queue.filter((e) => e.urgent).slice(0, max);
      const rest = this.queue.filter((e) => !e.urgent).slice(0, max - urgent.length);
      const taken = new Set([...urgent, ...rest]);
      batch = this.queue.filter((e) => taken.has(e));
      this.queue.splice(0, this.queue.length, ...this.queue.filter((e) => !taken.has(e)));
    }
    for (const e of batch) if (e.urgent) this.urgentQueued -= 1;
    return batch;
  }

  private async settle(batch: Array<Entry<Item, Result>>): Promise<void> {
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

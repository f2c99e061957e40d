import type { Sequelize } from 'sequelize';
import type { Logger } from '../log/logger';
import { hitKey, hitLine, type TrackingHit } from './hits';
import { Journal, readSegment, removeSegment, type SegmentFile } from './journal';
import { RecentKeys } from './recent-keys';
import { writeHits } from './write-hits';

/**
 * Records opens and clicks without a database round trip on the request, and without losing any.
 *
 * Durability argument:
 * 1. Before the response is sent, the hit is appended to this process's journal file with ONE
 *    synchronous write (a few microseconds). From then on it is in the kernel's page cache: a crash
 *    of this process (exception, OOM kill, SIGKILL) cannot lose it. A crash of the machine itself can
 *    lose the last seconds not yet written back by the kernel; we do not fsync per hit (milliseconds
 *    each), because opens and clicks are statistics. Unsubscribes, which are obligations, do not go
 *    through here: they are committed to PostgreSQL before their response (src/tracking/unsubscribe.ts).
 * 2. The hit is also queued in memory. A background loop seals the journal segment it is flushing
 *    (new hits go to a new segment), writes the segment's hits to PostgreSQL in batches (one
 *    statement per batch: facts and outbox events together, see write-hits.ts), and only after every
 *    batch has committed deletes the segment file. A crash between commit and delete replays hits
 *    already written, which the dedupe keys turn into no-ops.
 * 3. At start, segments left by a recorder that is gone (crashed process, previous run) are claimed
 *    and flushed before anything else. On shutdown the HTTP server stops first, then `close()`
 *    flushes what is left (retrying up to `closeTimeoutMs`); whatever is still unwritten stays in the
 *    journal for the next start.
 * 4. Memory is bounded: past `maxInMemory` queued hits, new hits go to the journal only, and their
 *    segment is read back from disk when it is flushed. While PostgreSQL is down, flushes retry
 *    with exponential backoff and the journal keeps everything.
 * An in-memory set of recently taken hits (open per email, click per link) skips the journal for
 * repeated pixel loads and clicks; forgetting one only costs a deduplicated line.
 */
export interface TrackingRecorderOptions {
  readonly sequelize: Sequelize;
  readonly log: Logger;
  /** Directory of the journal segments; created if missing. */
  readonly dir: string;
  /** Pause between a hit and the flush that takes it (default 200 ms). */
  readonly flushIntervalMs?: number;
  /** Hits per statement (default 1000). */
  readonly batchSize?: number;
  /** Queued hits kept in memory at most (default 100,000); beyond, the journal alone holds them. */
  readonly maxInMemory?: number;
  /** A segment is sealed after this many hits even between flushes (default 50,000). */
  readonly segmentMaxHits?: number;
  /** Hits remembered as already taken (default 100,000). */
  readonly recentCapacity?: number;
  /** Backoff of failed flushes (default 500 ms doubling to 30 s). */
  readonly retry?: { readonly initialMs: number; readonly maxMs: number };
  /** How long close() keeps retrying a failing flush (default 10 s). */
  readonly closeTimeoutMs?: number;
}

interface Segment extends SegmentFile {
  /** The segment's hits, or null when they are only on disk (claimed orphan, or memory was full). */
  hits: TrackingHit[] | null;
}

export interface RecorderStats {
  /** Hits taken since start (journaled and queued); repeats skipped as already taken are not counted. */
  readonly recorded: number;
  /** Hits not yet known to be in PostgreSQL (a claimed segment counts once it has been read). */
  readonly pending: number;
  readonly inMemory: number;
  readonly segments: number;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms).unref());

export class TrackingRecorder {
  private readonly journal: Journal;
  private readonly recent: RecentKeys;
  private readonly flushIntervalMs: number;
  private readonly batchSize: number;
  private readonly maxInMemory: number;
  private readonly segmentMaxHits: number;
  private readonly retry: { readonly initialMs: number; readonly maxMs: number };
  private readonly closeTimeoutMs: number;

  /** The segment being appended; then sealed segments, oldest first, until written. */
  private open: Segment | undefined;
  private readonly sealed: Segment[] = [];
  private inMemory = 0;
  private timer: NodeJS.Timeout | undefined;
  private backoffMs: number;
  private failing = false;
  private chain: Promise<boolean> = Promise.resolve(true);
  private closing: Promise<void> | undefined;
  private lastJournalError = 0;
  private recorded = 0;

  constructor(private readonly opts: TrackingRecorderOptions) {
    this.journal = new Journal(opts.dir);
    this.recent = new RecentKeys(opts.recentCapacity ?? 100_000);
    this.flushIntervalMs = opts.flushIntervalMs ?? 200;
    this.batchSize = opts.batchSize ?? 1000;
    this.maxInMemory = opts.maxInMemory ?? 100_000;
    this.segmentMaxHits = opts.segmentMaxHits ?? 50_000;
    this.retry = opts.retry ?? { initialMs: 500, maxMs: 30_000 };
    this.closeTimeoutMs = opts.closeTimeoutMs ?? 10_000;
    this.backoffMs = this.retry.initialMs;
  }

  get dir(): string {
    return this.journal.dir;
  }

  /** Claims the segments of recorders that are gone and flushes them before anything else. */
  async start(): Promise<void> {
    const orphans = await this.journal.claimOrphans();
    for (const o of orphans) this.sealed.push({ ...o, hits: null });
    if (orphans.length > 0) {
      this.opts.log.info({ segments: orphans.length, dir: this.dir }, 'replaying tracking journal left by a previous process');
      if (!(await this.flush())) this.scheduleRetry();
    }
  }

  recordOpen(emailId: string, at: number = Date.now()): void {
    this.record({ kind: 'open', emailId, at });
  }

  recordClick(emailId: string, link: number, url: string, at: number = Date.now()): void {
    this.record({ kind: 'click', emailId, link, url, at });
  }

  /**
   * True when this process already took an open of this email: recording it again would do
   * nothing, so the pixel can skip checking the token's signature.
   */
  openTaken(emailId: string): boolean {
    return this.recent.has(`o:${emailId}`);
  }

  /** Synchronous: journals the hit (the durable step) and queues it. Never throws. */
  private record(hit: TrackingHit): void {
    const key = hitKey(hit);
    if (this.recent.has(key)) return;
    if (this.closing !== undefined) return this.journalOnly(hit);
    let file: SegmentFile;
    try {
      file = this.journal.append(hitLine(hit));
    } catch (err) {
      // Disk full or the directory removed: the hit still goes to the database if this process
      // lives, within the memory bound (past it, with neither disk nor room, it is dropped).
      if (Date.now() - this.lastJournalError > 10_000) {
        this.lastJournalError = Date.now();
        this.opts.log.error({ err, dir: this.dir }, 'tracking journal write failed; hits are kept in memory only');
      }
      if (this.inMemory >= this.maxInMemory) return;
      this.sealed.push({ file: '', count: 1, hits: [hit] });
      this.inMemory++;
      this.taken(hit, key);
      return;
    }
    this.taken(hit, key);
    if (this.open?.file !== file.file) this.open = { file: file.file, count: 0, hits: [] };
    const seg = this.open;
    seg.count = file.count;
    if (seg.hits !== null) {
      if (this.inMemory < this.maxInMemory) {
        seg.hits.push(hit);
        this.inMemory++;
      } else {
        // Memory is full: this segment will be read back from its file when it is flushed.
        this.inMemory -= seg.hits.length;
        seg.hits = null;
      }
    }
    if (seg.count >= this.segmentMaxHits) this.sealOpen();
  }

  /** After close(): a segment of its own, left for the next start to replay. */
  private journalOnly(hit: TrackingHit): void {
    try {
      this.journal.append(hitLine(hit));
      this.journal.seal();
    } catch (err) {
      this.opts.log.error({ err, dir: this.dir }, 'tracking journal write failed after close; hit lost');
    }
  }

  /** Remembers a hit as taken (a click also takes the open it implies) and schedules its flush. */
  private taken(hit: TrackingHit, key: string): void {
    this.recorded++;
    this.recent.add(key);
    if (hit.kind === 'click') this.recent.add(`o:${hit.emailId}`);
    this.schedule(this.flushIntervalMs);
  }

  private sealOpen(): void {
    const file = this.journal.seal();
    if (this.open && file) this.sealed.push(this.open);
    this.open = undefined;
  }

  private schedule(ms: number): void {
    if (this.timer !== undefined || this.failing || this.closing !== undefined) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.flush().then((ok) => {
        if (!ok) this.scheduleRetry();
        else if (this.stats().segments > 0 && this.closing === undefined) this.schedule(this.flushIntervalMs);
      });
    }, ms);
    this.timer.unref();
  }

  private scheduleRetry(): void {
    if (this.closing !== undefined) return;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.failing = true;
    const wait = this.backoffMs;
    this.backoffMs = Math.min(this.backoffMs * 2, this.retry.maxMs);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.failing = false;
      void this.flush().then((ok) => (ok ? this.schedule(this.flushIntervalMs) : this.scheduleRetry()));
    }, wait);
    this.timer.unref();
  }

  /**
   * Writes every hit taken so far to PostgreSQL. Resolves true when all of them are in; false when
   * a write failed (they stay queued and journaled). Flushes never overlap.
   */
  flush(): Promise<boolean> {
    this.chain = this.chain
      .then(() => this.flushOnce())
      .catch((err: unknown) => {
        this.opts.log.error({ err, dir: this.dir }, 'tracking flush failed unexpectedly');
        return false;
      });
    return this.chain;
  }

  private async flushOnce(): Promise<boolean> {
    if (this.open && this.open.count > 0) this.sealOpen();
    while (this.sealed.length > 0) {
      const seg = this.sealed[0] as Segment;
      try {
        const hits = seg.hits ?? (await this.readBack(seg));
        for (let i = 0; i < hits.length; i += this.batchSize) {
          await writeHits(this.opts.sequelize, hits.slice(i, i + this.batchSize));
        }
        if (seg.file !== '') await removeSegment(seg.file);
      } catch (err) {
        this.opts.log.warn({ err, pending: this.stats().pending, dir: this.dir, retryInMs: this.backoffMs }, 'tracking flush failed; hits stay in the journal');
        return false;
      }
      this.sealed.shift();
      if (seg.hits !== null) this.inMemory -= seg.hits.length;
    }
    this.backoffMs = this.retry.initialMs;
    return true;
  }

  private async readBack(seg: Segment): Promise<TrackingHit[]> {
    const { hits, skipped } = await readSegment(seg.file);
    if (skipped > 0) this.opts.log.warn({ file: seg.file, skipped }, 'tracking journal lines that do not parse were skipped');
    seg.count = hits.length;
    return hits;
  }

  stats(): RecorderStats {
    const segs = [...this.sealed, ...(this.open && this.open.count > 0 ? [this.open] : [])];
    return { recorded: this.recorded, pending: segs.reduce((n, s) => n + Math.max(s.count, 0), 0), inMemory: this.inMemory, segments: segs.length };
  }

  /**
   * Flushes what is left (retrying a failing database up to closeTimeoutMs) and closes the
   * journal; unwritten hits stay in it for the next start. Call after the HTTP server has stopped.
   * Hits recorded after this are journaled only. Idempotent.
   */
  close(): Promise<void> {
    this.closing ??= (async () => {
      if (this.timer !== undefined) clearTimeout(this.timer);
      this.timer = undefined;
      const deadline = Date.now() + this.closeTimeoutMs;
      let wait = this.retry.initialMs;
      let ok = await this.flush();
      while (!ok && Date.now() + wait < deadline) {
        await sleep(wait);
        wait = Math.min(wait * 2, this.retry.maxMs);
        ok = await this.flush();
      }
      this.journal.close();
      this.open = undefined;
      if (!ok) this.opts.log.warn({ pending: this.stats().pending, dir: this.dir }, 'tracking hits left in the journal; they are written at the next start');
    })();
    return this.closing;
  }
}

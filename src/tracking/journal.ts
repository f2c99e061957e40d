import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseHitLine, type TrackingHit } from './hits';

/**
 * The tracking journal's files. Each recorder writes its own segments, named
 * `<host>_<pid>_<run>_<seq>.ndjson`, so processes sharing a directory never write the same file and
 * a restarted process can tell its predecessor's files (same host and pid, another run) from its own.
 *
 * A segment is appended with one synchronous write per hit (O_APPEND), sealed (closed, never written
 * again) when the recorder starts flushing it, and deleted once its hits are committed.
 */
export interface SegmentFile {
  readonly file: string;
  /** Hits written to it so far. */
  count: number;
}

const NAME = /^([A-Za-z0-9.-]+)_(\d+)_([a-z0-9]+)_(\d+)\.ndjson$/;

/**
 * A file older than this is an orphan whoever wrote it: a live recorder seals its open segment at
 * least every RetryPolicy.maxMs (30 s), and never writes a sealed one again, so claiming an old file
 * cannot take one a live process is still appending to. This covers a process restarted under
 * another host name (a recreated container on the same volume).
 */
export const STALE_SEGMENT_MS = 10 * 60_000;

/** Runs of recorders open in this process: their files are not orphans even though our pid is alive. */
const liveRuns = new Set<string>();

function hostName(): string {
  return os.hostname().replace(/[^A-Za-z0-9.-]/g, '-').slice(0, 64) || 'host';
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export class Journal {
  private readonly host = hostName();
  private readonly run = randomBytes(4).toString('hex');
  private seq = 0;
  private fd: number | undefined;
  private current: SegmentFile | undefined;

  constructor(readonly dir: string) {
    fs.mkdirSync(dir, { recursive: true });
    liveRuns.add(this.run);
  }

  /**
   * Appends one line to the open segment (opening a new one if needed) with a single synchronous
   * write: when this returns, the line is in the kernel and survives the death of this process.
   */
  append(line: string): SegmentFile {
    if (this.fd === undefined || this.current === undefined) {
      const file = path.join(this.dir, `${this.host}_${process.pid}_${this.run}_${++this.seq}.ndjson`);
      this.fd = fs.openSync(file, 'a');
      this.current = { file, count: 0 };
    }
    fs.writeSync(this.fd, line);
    this.current.count++;
    return this.current;
  }

  /** Closes the open segment, if any; it is never written again. Returns it. */
  seal(): SegmentFile | undefined {
    const sealed = this.current;
    if (this.fd !== undefined) fs.closeSync(this.fd);
    this.fd = undefined;
    this.current = undefined;
    return sealed;
  }

  /** Seals the open segment; afterwards this run's files count as orphans for the next recorder. */
  close(): void {
    this.seal();
    liveRuns.delete(this.run);
  }

  /**
   * Takes over the segments left by recorders that are gone (a crashed or killed process, an
   * earlier run under our own pid, or any file older than STALE_SEGMENT_MS): each is renamed into
   * this run's names, atomically, so two recorders starting together never both take one.
   * Returned oldest first.
   */
  async claimOrphans(): Promise<SegmentFile[]> {
    const now = Date.now();
    const candidates: { file: string; mtimeMs: number }[] = [];
    for (const name of await fs.promises.readdir(this.dir)) {
      const m = NAME.exec(name);
      if (!m) continue;
      const [, host, pidText, run] = m;
      const file = path.join(this.dir, name);
      const stat = await fs.promises.stat(file).catch(() => undefined);
      if (!stat) continue;
      const pid = Number(pidText);
      const gone = host === this.host && (!alive(pid) || (pid === process.pid && !liveRuns.has(run ?? '')));
      if (gone || now - stat.mtimeMs > STALE_SEGMENT_MS) candidates.push({ file, mtimeMs: stat.mtimeMs });
    }
    candidates.sort((a, b) => a.mtimeMs - b.mtimeMs || a.file.localeCompare(b.file));
    const claimed: SegmentFile[] = [];
    for (const c of candidates) {
      const file = path.join(this.dir, `${this.host}_${process.pid}_${this.run}_${++this.seq}.ndjson`);
      try {
        await fs.promises.rename(c.file, file);
      } catch {
        continue; // another recorder took it first
      }
      claimed.push({ file, count: -1 });
    }
    return claimed;
  }
}

/** The hits of a sealed segment; lines that do not parse (a write torn by a crash) are counted, not kept. */
export async function readSegment(file: string): Promise<{ hits: TrackingHit[]; skipped: number }> {
  let text: string;
  try {
    text = await fs.promises.readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { hits: [], skipped: 0 };
    throw err;
  }
  const hits: TrackingHit[] = [];
  let skipped = 0;
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const hit = parseHitLine(line);
    if (hit) hits.push(hit);
    else skipped++;
  }
  return { hits, skipped };
}

export async function removeSegment(file: string): Promise<void> {
  await fs.promises.rm(file, { force: true });
}

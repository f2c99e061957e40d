import fs from 'node:fs/promises';
import path from 'node:path';
import { stopOrphanedServers } from '../embedded/orphans';
import { processInfo } from '../embedded/process-table';

/** What service.pid holds: the running copy, and the servers it started (for operators). */
interface LockRecord {
  readonly pid: number;
  /** The process's start time as the system tells it; absent in files written by older versions. */
  readonly startedAt?: string;
  readonly children: Record<string, number>;
}

/**
 * One `npm start` per DATA_DIR, recorded in `service.pid`. The file alone proves nothing after a
 * crash: its pid may be reused by any program (a restarted container hands out the same small
 * pids again), so a copy counts as running only if that pid is still the process that wrote the
 * file (same start time). Once no copy runs, the servers an earlier run left behind are stopped
 * (see stopOrphanedServers) before this run starts its own.
 */
export class InstanceLock {
  private readonly file: string;
  private readonly children = new Map<string, number>();
  private startedAt: string | undefined;

  constructor(
    private readonly dataDir: string,
    private readonly log: (msg: string) => void = () => undefined,
  ) {
    this.file = path.join(dataDir, 'service.pid');
  }

  async acquire(): Promise<void> {
    await fs.mkdir(this.dataDir, { recursive: true });
    const previous = await this.read();
    if (previous && previous.pid !== process.pid && (await isRunning(previous))) {
      throw new Error(`Another copy of the service (pid ${previous.pid}) is running with DATA_DIR=${this.dataDir}. Give this copy its own DATA_DIR and PORT.`);
    }
    if (previous) this.log(`recovering from an earlier run that did not stop cleanly (pid ${previous.pid})`);
    await this.removeTemporaryFiles();
    for (const done of await stopOrphanedServers(this.dataDir)) this.log(done);
    this.startedAt = (await processInfo(process.pid))?.startedAt;
    await this.write();
  }

  async recordChild(name: string, pid: number | undefined): Promise<void> {
    if (pid === undefined) return;
    this.children.set(name, pid);
    await this.write();
  }

  async release(): Promise<void> {
    await fs.rm(this.file, { force: true });
  }

  /** The record, or undefined when there is none or it cannot be read (torn by a crash). */
  private async read(): Promise<LockRecord | undefined> {
    try {
      const record = JSON.parse(await fs.readFile(this.file, 'utf8')) as Partial<LockRecord>;
      return typeof record.pid === 'number' ? { pid: record.pid, startedAt: record.startedAt, children: record.children ?? {} } : undefined;
    } catch {
      return undefined;
    }
  }

  /** The temporary files of writes a crash interrupted (see write). */
  private async removeTemporaryFiles(): Promise<void> {
    const prefix = `${path.basename(this.file)}.`;
    for (const name of await fs.readdir(this.dataDir)) {
      if (name.startsWith(prefix) && name.endsWith('.tmp')) await fs.rm(path.join(this.dataDir, name), { force: true });
    }
  }

  /** Written beside and renamed into place: a reader never sees half a file. */
  private async write(): Promise<void> {
    const record: LockRecord = { pid: process.pid, startedAt: this.startedAt, children: Object.fromEntries(this.children) };
    const tmp = `${this.file}.${process.pid}.tmp`;
    await fs.writeFile(tmp, JSON.stringify(record));
    await fs.rename(tmp, this.file);
  }
}

async function isRunning(record: LockRecord): Promise<boolean> {
  const proc = await processInfo(record.pid);
  if (proc === undefined) return false;
  if (record.startedAt !== undefined) return proc.startedAt === record.startedAt;
  // A file from an older version has no start time: the pid must at least run the service's entry point.
  return proc.args.some((a) => /entry[/\\]start\.[cm]?[jt]s$/.test(a));
}

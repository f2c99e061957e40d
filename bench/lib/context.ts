import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startServer, type RunningServer, type ServerSpec } from './child-server';
import { startBenchDatabase, type BenchDatabase } from './postgres';
import { busyMs, summariseCpuProfile, type CpuProfile } from './cpuprofile';
import type { BenchSettings } from './settings';
import { Watchdog } from './watchdog';

/**
 * What scenarios share within one `npm run bench`: settings, a temporary directory, one embedded
 * PostgreSQL (started on first use), and the server children, all released by `close()`.
 */
export class BenchContext {
  private db: Promise<BenchDatabase> | undefined;
  private readonly servers = new Set<RunningServer>();
  private readonly profileDirs: string[] = [];
  private closed = false;

  private constructor(
    readonly settings: BenchSettings,
    /** This run's temporary directory (0755: the embedded PostgreSQL may run as `postgres`). */
    readonly tmpDir: string,
    private readonly watchdog: Watchdog,
  ) {}

  static async create(settings: BenchSettings): Promise<BenchContext> {
    const tmpDir = await fs.mkdtemp(path.join(os.tmpdir(), 'outreach-bench-'));
    await fs.chmod(tmpDir, 0o755);
    return new BenchContext(settings, tmpDir, Watchdog.start(tmpDir, settings.keepTmp));
  }

  /** The run's PostgreSQL, started and migrated on first call. */
  database(): Promise<BenchDatabase> {
    if (this.closed) return Promise.reject(new Error('bench context is closed'));
    this.db ??= startBenchDatabase(this.tmpDir);
    return this.db;
  }

  /** Pid of the embedded postmaster if it has started (CPU accounting). */
  async postgresPid(): Promise<number | undefined> {
    return this.db ? (await this.db.catch(() => undefined))?.pid : undefined;
  }

  /**
   * Starts a server child. Its stdout goes to `<tmpDir>/<name>.log` when `logToFile` (else
   * /dev/null); it runs under --cpu-prof when BENCH_CPU_PROF names it.
   */
  async startServer(spec: Omit<ServerSpec, 'stdoutFile' | 'cpuProfileDir'> & { readonly logToFile?: boolean }): Promise<RunningServer> {
    if (this.closed) throw new Error('bench context is closed');
    let cpuProfileDir: string | undefined;
    if (this.settings.cpuProfile.has(spec.name)) {
      // One directory per start: a server measured in several rounds is profiled once per round.
      cpuProfileDir = path.join(this.tmpDir, 'profiles', `${spec.name}-${this.profileDirs.length + 1}`);
      await fs.mkdir(cpuProfileDir, { recursive: true });
      this.profileDirs.push(cpuProfileDir);
    }
    const stdoutFile = spec.logToFile ? path.join(this.tmpDir, `${spec.name}.log`) : undefined;
    const server = await startServer({ ...spec, stdoutFile, cpuProfileDir });
    this.servers.add(server);
    return {
      ...server,
      stop: async (graceMs?: number) => {
        await server.stop(graceMs);
        this.servers.delete(server);
        if (cpuProfileDir) await this.reportProfiles(cpuProfileDir);
      },
    };
  }

  private async reportProfiles(dir: string): Promise<void> {
    const files = (await fs.readdir(dir)).filter((f) => f.endsWith('.cpuprofile'));
    const profiles = await Promise.all(files.map(async (f) => ({ file: path.join(dir, f), profile: JSON.parse(await fs.readFile(path.join(dir, f), 'utf8')) as CpuProfile })));
    // The main thread is the busiest; helper threads (tsx's loader hooks) get one line.
    const busiest = Math.max(...profiles.map((p) => busyMs(p.profile)));
    for (const { file, profile } of profiles) {
      if (busyMs(profile) < busiest / 10) {
        console.log(`\nCPU profile ${file}: helper thread, ${busyMs(profile).toFixed(0)} ms busy`);
        continue;
      }
      console.log(`\nCPU profile ${file}${this.settings.keepTmp ? '' : ' (set BENCH_KEEP=1 to keep it)'}`);
      console.log(summariseCpuProfile(profile));
    }
  }

  /** Stops every child and PostgreSQL, removes the temporary directory unless BENCH_KEEP. Idempotent. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all([...this.servers].map((s) => s.stop(5_000).catch(() => undefined)));
    this.servers.clear();
    if (this.db) {
      const db = await this.db.catch(() => undefined);
      await db?.stop().catch((err: unknown) => console.error(`stopping PostgreSQL: ${(err as Error).message}`));
    }
    if (this.settings.keepTmp) console.log(`\nKept ${this.tmpDir} (service logs, profiles).`);
    else await fs.rm(this.tmpDir, { recursive: true, force: true });
    this.watchdog.release();
  }
}

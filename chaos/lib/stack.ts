import fs from 'node:fs/promises';
import path from 'node:path';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../../src/embedded/postgres';
import { startTemporalDevServer, type DevServer } from '../../src/embedded/temporal-dev-server';
import { freePort } from '../../src/net/ports';
import { descendants, killTree, startEntry, startProcess, stopProcess, waitGone, waitUntilReady, type ServiceProcess } from './processes';
import { waitUntilPolling } from './worker-role';

export interface StackPorts {
  readonly api: number;
  readonly postgres: number;
  readonly temporal: number;
  readonly temporalUi: number;
  readonly sink: number;
  readonly inbound: number;
}

export interface StackSettings {
  /** DATA_DIR of the service (the PostgreSQL cluster and the dev server's database live here). */
  readonly dataDir: string;
  /** Where each process's output is appended (one file per process name). */
  readonly logsDir: string;
  /** Variables of the run on top of the stack's own (SMTP_URL, ...). */
  readonly env: Readonly<Record<string, string>>;
  /** Called with a sentence about something the stack did by itself (a role restarted after it exited). */
  readonly note: (line: string) => void;
}

const READY_MS = 180_000;
const TASK_QUEUE = 'chaos-campaigns';
/** What `npm start` prints once it serves (src/entry/start.ts). */
const SERVICE_READY = 'Campaign Outreach is ready';


/**
 * The service on this machine in one DATA_DIR, on fixed free ports, in one of two shapes:
 * - `service`: `npm start` (API and worker in one Node process, the embedded PostgreSQL and the
 *   Temporal dev server as its children), as a user runs it;
 * - `roles`: the production shape, every part its own process: this run starts the embedded
 *   PostgreSQL and the dev server on DATA_DIR with the service's own modules, and the API and the
 *   worker as `src/entry/api.ts` and `src/entry/worker.ts` against them.
 * Both use the same cluster, the same dev server database and the same task queue, so one can take
 * over from the other after a crash. A role or `npm start` that exits without being told to is
 * started again (as a supervisor would) and noted.
 */
export class ChaosStack {
  private service: ServiceProcess | undefined;
  private postgres: EmbeddedPostgres | undefined;
  private temporal: DevServer | undefined;
  private api: ServiceProcess | undefined;
  private worker: ServiceProcess | undefined;
  /** Processes this run stopped or killed on purpose: their exit is not a crash. */
  private readonly ended = new WeakSet<ServiceProcess>();
  private stopping = false;

  private constructor(
    private readonly settings: StackSettings,
    readonly ports: StackPorts,
  ) {}

  static async create(settings: StackSettings): Promise<ChaosStack> {
    const ports: StackPorts = {
      api: await freePort(),
      postgres: await freePort(),
      temporal: await freePort(),
      temporalUi: await freePort(),
      sink: await freePort(),
      inbound: await freePort(),
    };
    await fs.mkdir(settings.dataDir, { recursive: true });
    await fs.mkdir(settings.logsDir, { recursive: true });
    // The embedded cluster runs as the `postgres` user when this runs as root.
    await fs.chmod(settings.dataDir, 0o755);
    return new ChaosStack(settings, ports);
  }

  get baseUrl(): string {
    return `http://127.0.0.1:${this.ports.api}`;
  }

  get temporalAddress(): string {
    return `127.0.0.1:${this.ports.temporal}`;
  }

  /** The embedded cluster's URL (its password is kept in DATA_DIR). */
  async databaseUrl(): Promise<string> {
    const password = (await fs.readFile(path.join(this.settings.dataDir, 'postgres.password'), 'utf8')).trim();
    return `postgres://outreach:${encodeURIComponent(password)}@127.0.0.1:${this.ports.postgres}/outreach`;
  }

  /** What every process of the service runs with. */
  private env(): NodeJS.ProcessEnv {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      // The Node that runs this script runs the service too (npm start included).
      PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ''}`,
      PORT: String(this.ports.api),
      HOST: '127.0.0.1',
      DATA_DIR: this.settings.dataDir,
      EMBEDDED_PG_PORT: String(this.ports.postgres),
      TEMPORAL_DEV_PORT: String(this.ports.temporal),
      TEMPORAL_UI_PORT: String(this.ports.temporalUi),
      SMTP_SINK_PORT: String(this.ports.sink),
      INBOUND_SMTP_PORT: String(this.ports.inbound),
      TEMPORAL_TASK_QUEUE: TASK_QUEUE,
      LOG_LEVEL: 'info',
      RATE_LIMIT_FREE_PER_MINUTE: '1000000',
      RATE_LIMIT_PRO_PER_MINUTE: '1000000',
      RATE_LIMIT_B_PER_MINUTE: '1000000',
      ...this.settings.env,
    };
    for (const name of ['DATABASE_URL', 'TEMPORAL_ADDRESS', 'PUBLIC_BASE_URL', 'TEMPORAL_UI_URL']) delete env[name];
    return env;
  }

  private logFile(name: string): string {
    return path.join(this.settings.logsDir, `${name}.log`);
  }

  // `npm start`

  /** `npm start` on DATA_DIR, as a user types it after a crash: no cleanup first. Resolves once its banner says ready. */
  async startService(): Promise<void> {
    const p = startProcess('npm start', 'npm', ['start'], this.env(), this.logFile('npm-start'), [SERVICE_READY]);
    this.service = p;
    this.supervise(p, () => this.startService());
    await waitUntilReady(p, 'ready banner', () => p.saw(SERVICE_READY), READY_MS);
  }

  /** kill -9 of `npm start` and everything under it (Node, PostgreSQL and its backends, the dev server) at once. */
  async crashService(): Promise<void> {
    const p = this.service;
    if (p === undefined) throw new Error('npm start is not running');
    this.ended.add(p);
    this.service = undefined;
    await killTree(p);
  }

  // Separate processes

  /** The embedded PostgreSQL and the dev server on DATA_DIR, then the worker and the API as their own processes. */
  async startRoles(): Promise<void> {
    const log = (): void => undefined;
    this.postgres = await startEmbeddedPostgres({ dataDir: this.settings.dataDir, port: this.ports.postgres, log });
    this.temporal = await this.startDevServer();
    await Promise.all([this.startWorker(), this.startApi()]);
  }

  private startDevServer(): Promise<DevServer> {
    return startTemporalDevServer({ dataDir: this.settings.dataDir, port: this.ports.temporal, uiPort: this.ports.temporalUi, namespace: 'default', log: () => undefined });
  }

  private async roleEnv(): Promise<NodeJS.ProcessEnv> {
    return { ...this.env(), DATABASE_URL: await this.databaseUrl(), TEMPORAL_ADDRESS: this.temporalAddress };
  }

  async startWorker(): Promise<void> {
    const env = await this.roleEnv();
    const p = startEntry('worker', env, this.logFile('worker'));
    this.worker = p;
    this.supervise(p, () => this.startWorker());
    await waitUntilPolling(p, env, READY_MS);
  }

  async startApi(): Promise<void> {
    const p = startEntry('api', await this.roleEnv(), this.logFile('api'));
    this.api = p;
    this.supervise(p, () => this.startApi());
    await waitUntilReady(p, 'GET /readyz 200', async () => (await fetch(`${this.baseUrl}/readyz`)).status === 200, READY_MS);
  }

  /** kill -9 of the worker process (and anything it started). */
  async killWorker(): Promise<void> {
    const p = this.worker;
    if (p === undefined) throw new Error('the worker is not running as its own process');
    this.ended.add(p);
    this.worker = undefined;
    await killTree(p);
  }

  /** PostgreSQL stopped (fast shutdown: sessions ended); startPostgres starts it again on the same port and cluster. */
  async stopPostgres(): Promise<void> {
    if (this.postgres === undefined) throw new Error('PostgreSQL is not run by this process');
    await this.postgres.stop();
    this.postgres = undefined;
  }

  async startPostgres(): Promise<void> {
    this.postgres = await startEmbeddedPostgres({ dataDir: this.settings.dataDir, port: this.ports.postgres, log: () => undefined });
  }

  /** The dev server stopped (SIGTERM); startTemporal starts it again on the same ports and database file. */
  async stopTemporal(): Promise<void> {
    if (this.temporal === undefined) throw new Error('the Temporal dev server is not run by this process');
    await this.temporal.stop();
    this.temporal = undefined;
  }

  async startTemporal(): Promise<void> {
    this.temporal = await this.startDevServer();
  }

  /** kill -9 of every process of the service at once: API, worker, PostgreSQL with its backends, the dev server. */
  async crashRoles(): Promise<void> {
    const roles = [this.api, this.worker].filter((p): p is ServiceProcess => p !== undefined);
    for (const p of roles) this.ended.add(p);
    const servers = [this.postgres?.pid, this.temporal?.pid].filter((pid): pid is number => pid !== undefined);
    this.api = this.worker = undefined;
    const [postgres, temporal] = [this.postgres, this.temporal];
    this.postgres = this.temporal = undefined;
    // Both servers run in process groups of their own (see src/embedded/): the group takes the backends too.
    for (const pid of servers) {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    await Promise.all([...roles.map((p) => killTree(p)), waitGone(servers, 30_000)]);
    // Their handles see the exit and resolve at once.
    await Promise.all([postgres?.stop(), temporal?.stop()]);
  }

  /** Everything stopped the gentle way (SIGTERM and waits), whatever the shape. */
  async stop(): Promise<void> {
    this.stopping = true;
    const procs = [this.service, this.api, this.worker].filter((p): p is ServiceProcess => p !== undefined);
    for (const p of procs) this.ended.add(p);
    await Promise.all(procs.map((p) => stopProcess(p, 60_000)));
    await this.temporal?.stop();
    await this.postgres?.stop();
    this.service = this.api = this.worker = undefined;
    this.temporal = this.postgres = undefined;
  }

  /** Last resort when this script itself is ending abnormally: kill -9 of everything it started, and of their children. */
  killEverythingNow(): void {
    this.stopping = true;
    const roots = [this.service?.pid, this.api?.pid, this.worker?.pid, this.postgres?.pid, this.temporal?.pid].filter((p): p is number => p !== undefined);
    for (const pid of [...roots, ...roots.flatMap((r) => descendants(r))]) {
      for (const target of [-pid, pid]) {
        try {
          process.kill(target, 'SIGKILL');
        } catch {
          // already gone
        }
      }
    }
  }

  private supervise(p: ServiceProcess, restart: () => Promise<void>): void {
    void p.exited.then(async (how) => {
      if (this.stopping || this.ended.has(p)) return;
      this.settings.note(`${p.name} exited by itself (${how}); started again`);
      await restart().catch((err: unknown) => this.settings.note(`${p.name} could not be started again: ${(err as Error).message.split('\n')[0]}`));
    });
  }
}

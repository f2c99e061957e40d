import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { freePort } from '../src/net/ports';

const ROOT = path.resolve(__dirname, '..');
const TSX = path.join(ROOT, 'node_modules', '.bin', 'tsx');

/** Base URLs of the outside services accounts may use (fake-providers.ts). */
export interface ProviderUrls {
  readonly apolloUrl: string;
  readonly openaiUrl: string;
  readonly anthropicUrl: string;
}

export interface FuzzService {
  readonly baseUrl: string;
  /** INBOUND_SECRET of this run: with it, the fuzzer's raw replies reach the MIME parser, not just the 401. */
  readonly inboundSecret: string;
  /** The environment the service runs with, for the operator CLI on the same DATA_DIR. */
  readonly env: NodeJS.ProcessEnv;
  readonly logFile: string;
  stop(): Promise<void>;
}

/**
 * The service as `npm start` runs it on its embedded default (PostgreSQL, Temporal dev server,
 * worker and API), in `dataDir`, on free loopback ports. Responses are checked against their
 * schemas (a mismatch is a 500 the fuzzer reports) and the rate limits are out of reach, so the
 * run measures validation rather than 429s.
 */
export async function startService(dataDir: string, logFile: string, providers: ProviderUrls, readyTimeoutMs = 240_000): Promise<FuzzService> {
  await fs.promises.mkdir(dataDir, { recursive: true });
  await fs.promises.chmod(dataDir, 0o755); // the embedded cluster may run as the `postgres` user
  const port = await freePort();
  const inboundSecret = randomBytes(24).toString('hex');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    EMBEDDED_PG_PORT: String(await freePort()),
    TEMPORAL_DEV_PORT: String(await freePort()),
    TEMPORAL_UI_PORT: String(await freePort()),
    SMTP_SINK_PORT: String(await freePort()),
    INBOUND_SMTP_PORT: String(await freePort()),
    LOG_LEVEL: 'warn',
    INBOUND_SECRET: inboundSecret,
    VALIDATE_RESPONSES: 'true',
    // The fake providers are on loopback. In the fuzz namespace loopback is all there is, so this
    // lets nothing out; what it lets in (webhooks and scrapes of local ports) is itself fuzzed input.
    ALLOW_LOOPBACK_EGRESS: 'true',
    RATE_LIMIT_FREE_PER_MINUTE: '1000000',
    RATE_LIMIT_PRO_PER_MINUTE: '1000000',
    RATE_LIMIT_B_PER_MINUTE: '1000000',
    APOLLO_API_URL: providers.apolloUrl,
    OPENAI_BASE_URL: providers.openaiUrl,
    ANTHROPIC_BASE_URL: providers.anthropicUrl,
  };
  for (const name of ['DATABASE_URL', 'TEMPORAL_ADDRESS', 'SMTP_URL', 'PUBLIC_BASE_URL', 'TEMPORAL_UI_URL']) delete env[name];

  const log = fs.createWriteStream(logFile);
  // Own process group, so that a service stuck in shutdown can be killed with everything it runs.
  const child: ChildProcess = spawn(TSX, ['src/entry/start.ts'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  child.stdout?.pipe(log, { end: false });
  let banner = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    log.write(chunk);
    banner = (banner + chunk.toString('utf8')).slice(-20_000);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> =>
    (stopping ??= (async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => killGroup(child), 60_000);
        await exited;
        clearTimeout(timer);
      }
      await new Promise<void>((resolve) => log.end(resolve));
    })());

  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the service was not ready after ${readyTimeoutMs} ms (log: ${logFile})`)), readyTimeoutMs);
      const check = (): void => {
        if (banner.includes('Campaign Outreach is ready')) {
          clearTimeout(timer);
          resolve();
        }
      };
      child.stderr?.on('data', check);
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`the service exited (${signal ?? `code ${code}`}) before it was ready:\n${banner.slice(-3000)}`));
      });
    });
  } catch (err) {
    await stop();
    throw err;
  }
  return { baseUrl: `http://127.0.0.1:${port}`, inboundSecret, env, logFile, stop };
}

function killGroup(child: ChildProcess): void {
  try {
    if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
  } catch {
    child.kill('SIGKILL');
  }
}

import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import net from 'node:net';
import path from 'node:path';
import { freePort } from '../../src/net/ports';
import { runOutreach, type CliRun } from './cli';

const ROOT = path.join(__dirname, '..', '..');
const TSX = path.join(ROOT, 'node_modules', '.bin', 'tsx');

export interface StackEnv {
  readonly dataDir: string;
  readonly env: NodeJS.ProcessEnv;
  readonly baseUrl: string;
}

/** The first port the kernel hands out for outgoing connections (Linux; 32768 elsewhere). */
async function ephemeralLow(): Promise<number> {
  const range = await fs.readFile('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').catch(() => '32768');
  return Number(range.trim().split(/\s+/)[0]) || 32768;
}

/**
 * Ports for one copy of the service, each free now and all different. They are taken below the
 * kernel's range for outgoing connections: a port from freePort() is in that range, and during the
 * service's start (PostgreSQL, Temporal and their clients opening connections) an outgoing
 * connection can take it before the service binds it (EADDRINUSE).
 */
async function servicePorts(n: number): Promise<number[]> {
  const low = await ephemeralLow();
  const ports = new Set<number>();
  for (let tries = 0; ports.size < n && tries < 500; tries++) {
    const port = 10_000 + Math.floor(Math.random() * Math.max(1, low - 10_000));
    if (!ports.has(port) && (await bindable(port))) ports.add(port);
  }
  // Fewer than n free below the range (unlikely): the rest from the OS, as before.
  while (ports.size < n) ports.add(await freePort());
  return [...ports];
}

function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen({ port }, () => server.close(() => resolve(true)));
  });
}

/** A DATA_DIR and a set of free ports for one copy of the service. */
export async function stackEnv(): Promise<StackEnv> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'outreach-e2e-'));
  await fs.chmod(dataDir, 0o755); // the embedded cluster may run as the `postgres` user
  const [port, pgPort, temporalPort, uiPort, sinkPort, inboundPort] = (await servicePorts(6)) as [number, number, number, number, number, number];
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    DATA_DIR: dataDir,
    EMBEDDED_PG_PORT: String(pgPort),
    TEMPORAL_DEV_PORT: String(temporalPort),
    TEMPORAL_UI_PORT: String(uiPort),
    SMTP_SINK_PORT: String(sinkPort),
    INBOUND_SMTP_PORT: String(inboundPort),
    LOG_LEVEL: 'warn',
  };
  delete env.DATABASE_URL;
  delete env.TEMPORAL_ADDRESS;
  return { dataDir, env, baseUrl: `http://127.0.0.1:${port}` };
}

export interface RunningStack {
  readonly child: ChildProcess;
  /** What the service printed on stderr (the banner with the addresses). */
  stderr(): string;
  readonly readyMs: number;
}

/** Starts `npm start`'s entry point as a child process and waits for its "ready" banner. */
export async function startStack(s: StackEnv, timeoutMs = 180_000): Promise<RunningStack> {
  const started = Date.now();
  const child = spawn(TSX, ['src/entry/start.ts'], { cwd: ROOT, env: s.env, stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  child.stderr?.on('data', (c: Buffer) => (err += c.toString('utf8')));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`service not ready after ${timeoutMs} ms:\n${err}`)), timeoutMs);
    const check = (): void => {
      if (/Campaign Outreach is ready/.test(err)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stderr?.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`service exited with code ${code} before it was ready:\n${err}`));
    });
  });
  return { child, stderr: () => err, readyMs: Date.now() - started };
}

/** SIGTERM, then the exit code (or null when killed by a signal). */
export function stopStack(stack: RunningStack, timeoutMs = 60_000): Promise<number | null> {
  return new Promise((resolve, reject) => {
    if (stack.child.exitCode !== null) return resolve(stack.child.exitCode);
    const timer = setTimeout(() => {
      stack.child.kill('SIGKILL');
      reject(new Error('service did not stop within the grace period'));
    }, timeoutMs);
    stack.child.once('exit', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
    stack.child.kill('SIGTERM');
  });
}

/** Runs the operator CLI against the same DATA_DIR. */
export function runCli(s: StackEnv, args: string[]): Promise<CliRun> {
  return runOutreach(args, s.env);
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

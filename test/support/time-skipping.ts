import { spawn, type ChildProcess } from 'node:child_process';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { ensureTestServer } from '../../src/temporal/binaries';
import { freePort, waitForPort } from '../../src/net/ports';

/**
 * Time-skipping test environment backed by a test server process that we start ourselves.
 *
 * Why not `TestWorkflowEnvironment.createTimeSkipping({ server: { executable: { type: 'existing-path' } } })`: the
 * SDK gives such a server 5 s to accept connections and then fails. A JVM on a busy 2-core machine (tests run next to
 * PostgreSQL, the worker bundler, ...) can exceed that. Here the server gets up to a minute, and the SDK connects to
 * it as an existing server with the test service (time skipping) enabled.
 */

const START_TIMEOUT_MS = 60_000;
/** A free port can be taken by someone else between our probe and the server's bind; retry with a new one. */
const START_ATTEMPTS = 3;
const STOP_GRACE_MS = 5_000;

class TestServerProcess {
  private constructor(
    private readonly child: ChildProcess,
    readonly port: number,
    private readonly killOnExit: () => void,
  ) {}

  static async start(executable: string): Promise<TestServerProcess> {
    for (let attempt = 1; ; attempt++) {
      const port = await freePort();
      // Only the port, like the SDK: the server starts with time skipping locked, and the SDK's client unlocks it
      // while a test awaits a workflow result (and env.sleep() skips explicitly). That is the semantics the
      // TestWorkflowEnvironment docs describe.
      const child = spawn(executable, [String(port)], { stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      const keep = (c: Buffer): void => {
        output = (output + c.toString('utf8')).slice(-4_000);
      };
      child.stdout.on('data', keep);
      child.stderr.on('data', keep);
      let exited: string | undefined;
      child.once('error', (err) => (exited = `could not be started: ${err.message}`));
      child.once('exit', (code, signal) => (exited = `exited (code ${String(code)}, signal ${String(signal)})`));
      // If the test process ends without teardown (or a test forgets it), do not leave a JVM behind. The handles are
      // unref'd so that a forgotten server never keeps mocha alive either; this handler then kills it.
      const killOnExit = (): void => {
        child.kill('SIGKILL');
      };
      process.once('exit', killOnExit);
      child.unref();
      for (const stream of [child.stdout, child.stderr]) (stream as { unref?: () => void }).unref?.();

      try {
        await waitForPort(port, { timeoutMs: START_TIMEOUT_MS, abortReason: () => exited });
        return new TestServerProcess(child, port, killOnExit);
      } catch (err) {
        const server = new TestServerProcess(child, port, killOnExit);
        await server.stop();
        const portTaken = /BindException|address already in use/i.test(output);
        if (portTaken && attempt < START_ATTEMPTS) continue;
        const reason = err instanceof Error ? err.message : String(err);
        throw new Error(`Temporal test server ${executable} did not start on port ${port}: ${reason}\n${output.trim()}`);
      }
    }
  }

  /** SIGTERM (the server shuts down in well under a second), SIGKILL if it does not. Idempotent. */
  async stop(): Promise<void> {
    process.removeListener('exit', this.killOnExit);
    const child = this.child;
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => {
      child.once('exit', () => {
        resolve();
      });
    });
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
    await exited;
    clearTimeout(timer);
  }
}

/** Owns the server process so that `teardown()` also stops it. */
class OwnServerTimeSkippingEnvironment extends TestWorkflowEnvironment {
  serverProcess?: TestServerProcess;

  override async teardown(): Promise<void> {
    try {
      await super.teardown();
    } finally {
      await this.serverProcess?.stop();
    }
  }
}

interface ExistingServerCreateOptions {
  server: { type: 'existing' };
  supportsTimeSkipping: boolean;
  address: string;
}

/**
 * `TestWorkflowEnvironment.create` is private in the typings, but it is the one place that wires an address, the test
 * service (`supportsTimeSkipping`) and a {@link TimeSkippingClient} together; the public `createFromExistingServer`
 * hard-codes `supportsTimeSkipping: false`. Calling it with our subclass as `this` constructs the subclass.
 */
function sdkCreate(): (this: unknown, opts: ExistingServerCreateOptions) => Promise<TestWorkflowEnvironment> {
  const create = (TestWorkflowEnvironment as unknown as { create?: unknown }).create;
  if (typeof create !== 'function') {
    throw new Error('@temporalio/testing changed: TestWorkflowEnvironment.create is gone; update test/support/time-skipping.ts');
  }
  return create as (this: unknown, opts: ExistingServerCreateOptions) => Promise<TestWorkflowEnvironment>;
}

/**
 * A fresh time-skipping environment: `env.client.workflow` skips time while awaiting results, `env.sleep()` moves
 * simulated time, `env.nativeConnection` is for Workers, and `env.teardown()` closes the connections and stops the
 * server process. The test server binary comes from {@link ensureTestServer} (cached; built on first use).
 */
export async function createTimeSkippingEnv(): Promise<TestWorkflowEnvironment> {
  const executable = await ensureTestServer();
  const server = await TestServerProcess.start(executable);
  try {
    const env = await sdkCreate().call(OwnServerTimeSkippingEnvironment, {
      server: { type: 'existing' },
      supportsTimeSkipping: true,
      address: `127.0.0.1:${server.port}`,
    });
    if (!(env instanceof OwnServerTimeSkippingEnvironment) || !env.supportsTimeSkipping) {
      throw new Error('@temporalio/testing changed: could not create a time-skipping environment for an existing server');
    }
    env.serverProcess = server;
    return env;
  } catch (err) {
    await server.stop();
    throw err;
  }
}

import net from 'node:net';

/**
 * Asks the OS for a currently free TCP port. There is an unavoidable window between closing our probe socket and the
 * server binding it, so callers that spawn a server should be ready to retry with another port.
 *
 * Binds on all interfaces because that is what the Java test server does: a port free on 127.0.0.1 only could
 * still clash.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', reject);
    server.listen({ port: 0 }, () => {
      const address = server.address();
      server.close(() => {
        if (address && typeof address === 'object') resolve(address.port);
        else reject(new Error('could not determine a free port'));
      });
    });
  });
}

function canConnect(port: number, host: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host });
    const done = (ok: boolean): void => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1_000, () => {
      done(false);
    });
    socket.once('connect', () => {
      done(true);
    });
    socket.once('error', () => {
      done(false);
    });
  });
}

export interface WaitForPortOptions {
  host?: string;
  timeoutMs: number;
  intervalMs?: number;
  /**
   * Called between attempts; return a reason to stop waiting early (e.g. the server process already exited).
   * Without it a crashed server would be waited on for the whole timeout.
   */
  abortReason?: () => string | undefined;
}

/** Resolves once something accepts TCP connections on `port`; rejects on timeout or when `abortReason` fires. */
export async function waitForPort(port: number, opts: WaitForPortOptions): Promise<void> {
  const host = opts.host ?? '127.0.0.1';
  const deadline = Date.now() + opts.timeoutMs;
  for (;;) {
    const aborted = opts.abortReason?.();
    if (aborted) throw new Error(aborted);
    if (await canConnect(port, host)) return;
    if (Date.now() >= deadline) throw new Error(`nothing listened on ${host}:${port} within ${opts.timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, opts.intervalMs ?? 50));
  }
}

/** True when a listener could bind host:port right now (nothing else holds it). */
export function portIsFree(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, host, () => server.close(() => resolve(true)));
  });
}

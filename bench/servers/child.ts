import type http from 'node:http';
import type { ReadyMessage } from '../lib/child-server';

export interface ChildServer {
  readonly server: http.Server;
  /** Releases everything the server holds (pools, clients); the HTTP server is closed before. */
  close?(): Promise<void>;
}

/** Same socket timeouts as src/runtime/http-server.ts, so baselines and the service differ only in their handlers. */
export function applyServiceTimeouts(server: http.Server): void {
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  server.requestTimeout = 60_000;
}

export function listenLocal(server: http.Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
}

function exitWith(code: number): never {
  process.exit(code);
}

/**
 * The child side of bench/lib/child-server.ts: starts the server, reports its port over IPC, and
 * exits cleanly on SIGTERM (so a --cpu-prof profile is written) or when the parent goes away.
 */
export function runChild(start: () => Promise<ChildServer>): void {
  if (!process.send) {
    process.stderr.write('This is a bench server: it is started by `npm run bench`, with an IPC channel.\n');
    exitWith(2);
  }
  let running: ChildServer | undefined;
  let closing = false;
  const shutdown = async (code: number): Promise<void> => {
    if (closing) return;
    closing = true;
    const force = setTimeout(() => exitWith(code), 5_000);
    force.unref();
    try {
      if (running) {
        const { server } = running;
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
        await running.close?.();
      }
    } catch (err) {
      process.stderr.write(`bench server shutdown: ${(err as Error).message}\n`);
    }
    exitWith(code);
  };
  process.on('SIGTERM', () => void shutdown(0));
  // Ctrl-C reaches the whole process group: the parent decides when this child stops.
  process.on('SIGINT', () => undefined);
  process.on('disconnect', () => void shutdown(0));
  start()
    .then((server) => {
      running = server;
      const address = server.server.address();
      if (typeof address !== 'object' || address === null) throw new Error('server is not listening on a TCP port');
      const msg: ReadyMessage = { type: 'ready', port: address.port };
      process.send?.(msg);
    })
    .catch((err: unknown) => {
      process.stderr.write(`bench server failed to start: ${(err as Error).stack ?? String(err)}\n`);
      exitWith(1);
    });
}

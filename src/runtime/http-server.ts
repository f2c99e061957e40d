import http from 'node:http';
import type Koa from 'koa';

export interface RunningHttpServer {
  readonly server: http.Server;
  readonly url: string;
  /** Stops accepting connections, lets in-flight requests finish (up to `graceMs`), then closes. */
  close(graceMs?: number): Promise<void>;
}

export async function listen(app: Koa, host: string, port: number): Promise<RunningHttpServer> {
  // 64 KB rather than Node's 16 KB: a click link's signed target URL (up to 8192 characters,
  // percent-encoded in the query) must fit; beyond it Node answers 431 itself.
  const server = http.createServer({ maxHeaderSize: 64 * 1024 }, app.callback());
  // Keep-alive sockets outlive a load balancer's idle timeout, never the other way round.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  server.requestTimeout = 60_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const boundPort = typeof address === 'object' && address !== null ? address.port : port;
  const shownHost = host === '0.0.0.0' || host === '127.0.0.1' || host === '::' ? 'localhost' : host;
  return {
    server,
    url: `http://${shownHost}:${boundPort}`,
    close: (graceMs = 10_000) =>
      new Promise<void>((resolve) => {
        const force = setTimeout(() => server.closeAllConnections(), graceMs);
        server.close(() => {
          clearTimeout(force);
          resolve();
        });
        server.closeIdleConnections();
      }),
  };
}

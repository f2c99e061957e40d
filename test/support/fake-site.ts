import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SeenRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: string;
}

export interface FakeSite {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  readonly port: number;
  /** Every request the site received, in order. */
  readonly requests: SeenRequest[];
  /** TCP connections accepted: stays 0 when a client was refused before connecting. */
  connections(): number;
  close(): Promise<void>;
}

export type FakeHandler = (req: http.IncomingMessage & { body: string }, res: http.ServerResponse) => void;

/** A real HTTP server on 127.0.0.1 (port 0) that records what reached it. */
export async function startFakeSite(handler: FakeHandler): Promise<FakeSite> {
  const requests: SeenRequest[] = [];
  let connections = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body });
      handler(Object.assign(req, { body }), res);
    });
  });
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    requests,
    connections: () => connections,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Serves a page table: path to [status, headers, body]; anything else is 404. */
export function pages(table: Readonly<Record<string, readonly [number, Readonly<Record<string, string>>, string]>>): FakeHandler {
  return (req, res) => {
    const page = table[(req.url ?? '/').split('?')[0] ?? '/'];
    if (page === undefined) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    const [status, headers, body] = page;
    res.writeHead(status, headers).end(body);
  };
}

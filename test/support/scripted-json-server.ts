import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a fake received, as the test may want to inspect it. */
export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: Record<string, unknown>;
}

/** A JSON answer; also what a test scripts for the next request(s) before normal behaviour resumes. */
export interface ScriptedReply {
  readonly status: number;
  readonly body: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

export interface ScriptedJsonServer {
  readonly url: string;
  readonly requests: RecordedRequest[];
  /** Queues replies; the handler hands them out through its `takeScripted`. */
  script(...replies: ScriptedReply[]): void;
  close(): Promise<void>;
}

/**
 * Decides the answer to one request. `takeScripted` yields the next scripted reply, if any: the
 * handler calls it where the real service would (after its own auth checks, say).
 */
export type JsonHandler = (req: RecordedRequest, takeScripted: () => ScriptedReply | undefined) => ScriptedReply;

/**
 * The part every provider fake shares: a real HTTP server on 127.0.0.1 that parses JSON bodies,
 * records each request, and answers with what the handler decides (plus `extraHeaders`).
 */
export async function startScriptedJsonServer(handle: JsonHandler, extraHeaders: (requestCount: number) => Record<string, string> = () => ({})): Promise<ScriptedJsonServer> {
  const requests: RecordedRequest[] = [];
  const scripted: ScriptedReply[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
      } catch {
        body = {};
      }
      const recorded: RecordedRequest = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body };
      requests.push(recorded);
      const reply = handle(recorded, () => scripted.shift());
      res.writeHead(reply.status, { 'content-type': 'application/json', ...extraHeaders(requests.length), ...(reply.headers ?? {}) });
      res.end(JSON.stringify(reply.body));
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    script: (...replies) => scripted.push(...replies),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as the receiver saw it: the raw body bytes (what signatures cover) and headers. */
export interface ReceivedWebhook {
  readonly at: number;
  readonly path: string;
  readonly headers: http.IncomingHttpHeaders;
  readonly rawBody: Buffer;
  /** What the receiver answered. */
  readonly status: number;
}

/** How the receiver answers the nth request (0-based); default 200. */
export type Answer = (n: number, req: http.IncomingMessage) => number | { status: number; headers?: Record<string, string>; delayMs?: number };

/**
 * A webhook receiver on 127.0.0.1 (port 0) that records every request with its raw body and
 * answers as the test scripts it: a status, a redirect, a slow answer. Tests run the service with
 * ALLOW_LOOPBACK_EGRESS, the only way the egress client reaches loopback.
 */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  private waiters: Array<{ count: number; resolve: () => void }> = [];
  answer: Answer = () => 200;

  private constructor(private readonly server: http.Server) {}

  static async start(answer?: Answer): Promise<WebhookReceiver> {
    const holder: { receiver?: WebhookReceiver } = {};
    const server = http.createServer((req, res) => void holder.receiver?.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const receiver = new WebhookReceiver(server);
    holder.receiver = receiver;
    if (answer) receiver.answer = answer;
    return receiver;
  }

  /** `http://127.0.0.1:<port><path>` */
  url(path = '/hooks'): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}${path}`;
  }

  /** Resolves once `count` requests have arrived in total, or rejects after `timeoutMs`. */
  waitFor(count: number, timeoutMs = 15_000): Promise<void> {
    if (this.received.length >= count) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`expected ${count} webhook requests within ${timeoutMs} ms, got ${this.received.length}`)), timeoutMs);
      this.waiters.push({ count, resolve: () => (clearTimeout(timer), resolve()) });
    });
  }

  /** Parsed bodies of the requests received so far. */
  events(): Array<{ id: string; event: string; created_at: string; campaign_id: string | null; data: Record<string, unknown> }> {
    return this.received.map((r) => JSON.parse(r.rawBody.toString('utf8')));
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const n = this.received.length;
    const planned = this.answer(n, req);
    const { status, headers = {}, delayMs = 0 } = typeof planned === 'number' ? { status: planned } : planned;
    this.received.push({ at: Date.now(), path: req.url ?? '/', headers: req.headers, rawBody: Buffer.concat(chunks), status });
    for (const w of this.waiters.filter((w) => this.received.length >= w.count)) w.resolve();
    this.waiters = this.waiters.filter((w) => this.received.length < w.count);
    if (delayMs > 0) await new Promise((r) => setTimeout(r, delayMs));
    if (res.destroyed) return;
    res.writeHead(status, { 'content-type': 'text/plain', ...headers });
    res.end(status < 300 ? 'ok' : 'no');
  }
}

import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** How the receiver answers: 200, 503, or 503 until an instant of a clock that may be simulated. */
export type ReceiverMode = { readonly kind: 'up' } | { readonly kind: 'down' } | { readonly kind: 'down-until'; readonly until: number; readonly clock: () => Promise<number> };

export interface ReceivedRequest {
  /** The `webhook-id` header: the outbox event's id. */
  readonly eventId: string;
  readonly event: string;
  readonly path: string;
  readonly status: number;
  /** Real time of the request, and the clock the mode goes by (the same unless simulated). */
  readonly at: number;
  readonly clockAt: number;
}

/**
 * A webhook receiver on 127.0.0.1 for campaign webhook URLs. It records every request; "down" it
 * answers 503 (a failed attempt, as a receiver behind a load balancer with no backend would), and
 * in `down-until` it asks the clock on each request, so a simulated clock decides when it is back.
 */
export class ChaosWebhookReceiver {
  readonly requests: ReceivedRequest[] = [];
  mode: ReceiverMode = { kind: 'up' };

  private constructor(private readonly server: http.Server) {}

  static async start(): Promise<ChaosWebhookReceiver> {
    const holder: { r?: ChaosWebhookReceiver } = {};
    const server = http.createServer((req, res) => void holder.r?.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const r = new ChaosWebhookReceiver(server);
    holder.r = r;
    return r;
  }

  url(path: string): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}${path}`;
  }

  /** Whether the receiver answered 2xx to a request for this event. */
  delivered(eventId: string): boolean {
    return this.requests.some((r) => r.eventId === eventId && r.status < 300);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const at = Date.now();
    const mode = this.mode;
    const clockAt = mode.kind === 'down-until' ? await mode.clock() : at;
    const status = mode.kind === 'up' || (mode.kind === 'down-until' && clockAt >= mode.until) ? 200 : 503;
    let event = '';
    try {
      event = String((JSON.parse(Buffer.concat(chunks).toString('utf8')) as { event?: unknown }).event ?? '');
    } catch {
      // not JSON: recorded with no event name
    }
    const id = req.headers['webhook-id'];
    this.requests.push({ eventId: typeof id === 'string' ? id : '', event, path: req.url ?? '/', status, at, clockAt });
    res.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? 'ok' : 'unavailable');
  }
}

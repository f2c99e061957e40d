/**
 * The webhook receiver of the webhook scenarios, in its own process so its CPU is counted apart
 * from the sender's. Every POST outside `/_bench/` is a webhook: the body is read, the answer is
 * 200 at once, and the arrival of its event id (the `webhook-id` header, which the service sets to
 * the event id) is stamped with Date.now(): the machine's wall clock, the one clock this process,
 * the bench and PostgreSQL share (process.hrtime has a per-process origin).
 *
 * Once the bench has given the secrets (POST /_bench/secrets), every webhook is also verified with
 * the receiver helper (signature, Standard Webhooks timestamp and v1 signature, envelope): a
 * delivery that would not verify is counted, and the scenario fails on any. It still answers 200,
 * so a bad signature shows as a count, not as retries that blur the timing.
 *
 * Control endpoints, for the bench only:
 *   GET  /_bench/stats     {distinct, requests, unverified, firstAt, lastNewAt, lastError}
 *   GET  /_bench/arrivals  {"<event id>": <first arrival, epoch ms>, ...}
 *   POST /_bench/reset     forgets every arrival and count (the secrets stay)
 *   POST /_bench/secrets   ["whsec_...", ...]
 */
import http from 'node:http';
import { verifyWebhook } from '../../src/webhooks/receiver';
import { applyServiceTimeouts, listenLocal, runChild } from './child';

interface State {
  arrivals: Map<string, number>;
  requests: number;
  unverified: number;
  firstAt: number | null;
  lastNewAt: number | null;
  lastError: string | null;
}

const fresh = (): State => ({ arrivals: new Map(), requests: 0, unverified: 0, firstAt: null, lastNewAt: null, lastError: null });

function readBody(req: http.IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function json(res: http.ServerResponse, status: number, value: unknown): void {
  const body = JSON.stringify(value);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

runChild(async () => {
  let state = fresh();
  let secrets: string[] = [];

  const webhook = (req: http.IncomingMessage, body: Buffer, res: http.ServerResponse): void => {
    const at = Date.now();
    const id = req.headers['webhook-id'];
    state.requests++;
    state.firstAt ??= at;
    if (typeof id !== 'string' || id === '') {
      state.unverified++;
      state.lastError = 'no webhook-id header';
    } else if (!state.arrivals.has(id)) {
      state.arrivals.set(id, at);
      state.lastNewAt = at;
    }
    res.writeHead(200, { 'content-type': 'text/plain', 'content-length': 2 });
    res.end('ok');
    if (secrets.length > 0) {
      try {
        const { event } = verifyWebhook(body, req.headers, secrets, { requireTimestamp: true });
        if (event.id !== id) throw new Error(`webhook-id ${String(id)} is not the body's id ${event.id}`);
      } catch (err) {
        state.unverified++;
        state.lastError = (err as Error).message;
      }
    }
  };

  const server = http.createServer((req, res) => {
    readBody(req).then(
      (body) => {
        const path = req.url ?? '/';
        if (!path.startsWith('/_bench/')) {
          if (req.method === 'POST') return webhook(req, body, res);
          return json(res, 405, { error: 'webhooks are POSTs' });
        }
        if (req.method === 'GET' && path === '/_bench/stats') {
          const { arrivals, requests, unverified, firstAt, lastNewAt, lastError } = state;
          return json(res, 200, { distinct: arrivals.size, requests, unverified, firstAt, lastNewAt, lastError });
        }
        if (req.method === 'GET' && path === '/_bench/arrivals') return json(res, 200, Object.fromEntries(state.arrivals));
        if (req.method === 'POST' && path === '/_bench/reset') {
          state = fresh();
          return json(res, 200, {});
        }
        if (req.method === 'POST' && path === '/_bench/secrets') {
          secrets = JSON.parse(body.toString('utf8')) as string[];
          return json(res, 200, { secrets: secrets.length });
        }
        return json(res, 404, { error: 'not found' });
      },
      () => res.destroy(),
    );
  });
  applyServiceTimeouts(server);
  await listenLocal(server);
  return { server };
});

/**
 * A receiver for this service's webhooks on node:http alone: it reads the raw body, verifies it
 * (signature with every secret you hold, replay window), handles each event id once, and answers
 * 2xx at once: the service waits at most 10 s and retries anything else on its ladder.
 *
 *   WEBHOOK_SECRETS=whsec_... PORT=8787 npx tsx examples/webhook-receiver.ts
 *
 * WEBHOOK_SECRETS takes several secrets separated by commas: list the new one beside the old one
 * while you roll a rotation out. The seen-ids set is in memory to keep the example short; a real
 * receiver records the id with a unique key in the same transaction as the work it does.
 */
import http from 'node:http';
import { verifyWebhook, WebhookPayloadError, WebhookVerificationError, type KnownWebhookEvent } from '../src/webhooks/receiver';

const MAX_BODY_BYTES = 1024 * 1024;
const MAX_SEEN_IDS = 100_000;

export function webhookReceiver(secrets: readonly string[], handle: (event: KnownWebhookEvent) => void): http.Server {
  const seen = new Set<string>();
  return http.createServer((req, res) => {
    if (req.method !== 'POST') return void res.writeHead(405).end();
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => ((size += chunk.length) > MAX_BODY_BYTES ? req.destroy() : chunks.push(chunk)));
    req.on('end', () => {
      try {
        const { event } = verifyWebhook(Buffer.concat(chunks), req.headers, secrets, { requireTimestamp: true });
        if (!seen.has(event.id)) {
          seen.add(event.id);
          if (seen.size > MAX_SEEN_IDS) seen.delete(seen.values().next().value as string);
          // After the answer: slow work must not hold the service's attempt open.
          if (event.known) setImmediate(() => handle(event));
        }
        res.writeHead(204).end();
      } catch (err) {
        const status = err instanceof WebhookVerificationError ? 401 : err instanceof WebhookPayloadError ? 400 : 500;
        res.writeHead(status, { 'content-type': 'text/plain' }).end(status === 500 ? 'error' : (err as Error).message);
      }
    });
  });
}

if (require.main === module) {
  const secrets = (process.env.WEBHOOK_SECRETS ?? '').split(',').filter((s) => s !== '');
  const server = webhookReceiver(secrets, (event) => {
    const detail = event.event === 'reply.received' ? ` from ${event.data.email} (${event.data.sentiment ?? 'no sentiment'})` : '';
    process.stdout.write(`${event.created_at} ${event.event} ${event.id}${detail}\n`);
  });
  server.listen(Number(process.env.PORT ?? 8787), () => process.stdout.write(`listening on ${JSON.stringify(server.address())}\n`));
}

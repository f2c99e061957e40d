import { expect } from 'chai';
import crypto, { createHmac } from 'node:crypto';
import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { webhookReceiver } from '../../examples/webhook-receiver';
import { createEgress, type Egress } from '../../src/egress';
import { emitEvent, type DomainEvent } from '../../src/webhooks/outbox-repository';
import { DEFAULT_DISPATCHER_OPTIONS, runDispatcher } from '../../src/webhooks/dispatch/dispatcher';
import { envelopeBody, type EnvelopeSource } from '../../src/webhooks/envelope';
import { postWebhook } from '../../src/webhooks/post-webhook';
import {
  parseWebhookEvent,
  verifySignature,
  verifyWebhook,
  WebhookPayloadError,
  WebhookVerificationError,
  type KnownWebhookEvent,
  type VerifyWebhookOptions,
  type WebhookVerificationReason,
} from '../../src/webhooks/receiver';
import type { RetryStarter } from '../../src/webhooks/retry/retry-starter';
import { generateWebhookSecret } from '../../src/webhooks/secrets';
import { rotateWebhookSecret, setWebhookUrl, webhookSettings } from '../../src/webhooks/webhook-settings-repository';
import { PREVIOUS_SIGNATURE_HEADER, SIGNATURE_HEADER, signedHeaders, type SigningSecrets } from '../../src/webhooks/signing';
import { createAccount } from '../support/api';
import { seedCampaign } from '../support/campaign-seed';
import { createTestDatabase, type TestDatabase } from '../support/database';

/**
 * The receiver helper (src/webhooks/receiver) against what the service really sends: bodies from
 * envelopeBody and headers from signedHeaders (the code every attempt uses), and in the last part
 * the example receiver (examples/webhook-receiver.ts) on loopback, reached through the service's
 * own postWebhook and, from real outbox rows in PostgreSQL, through the real dispatcher.
 */

const fullReply = {
  reply_id: 'rep_7Q2',
  email: 'ada@prospect.example',
  name: 'Ada Lovelace',
  company: 'Analytical Engines',
  title: 'CTO',
  sentiment: 'positive',
  preview: 'Sounds good — Tuesday at 10?',
  received_at: '2026-11-23T10:15:29.000Z',
};
const integrationReply = {
  email: 'ada@prospect.example',
  name: 'Ada Lovelace',
  company: 'Analytical Engines',
  reply_sentiment: 'positive',
  reply_preview: 'Sounds good — Tuesday at 10?',
};

const source = (over: Partial<EnvelopeSource> = {}): EnvelopeSource => ({
  id: `evt_${crypto.randomBytes(8).toString('hex')}`,
  event: 'reply.received',
  createdAt: new Date('2026-11-23T10:15:30.123Z'),
  campaignId: 'cmp_42',
  data: fullReply,
  ...over,
});

/** One attempt as the service makes it: the body and every header, signed at `at`. */
function attempt(secrets: SigningSecrets, at = new Date(), over: Partial<EnvelopeSource> = {}): { body: string; headers: Record<string, string>; id: string } {
  const src = source(over);
  const body = envelopeBody(src);
  return { body, headers: signedHeaders(body, src.id, at, secrets), id: src.id };
}

function refusal(fn: () => unknown): WebhookVerificationError {
  try {
    fn();
  } catch (err) {
    if (err instanceof WebhookVerificationError) return err;
    throw err;
  }
  throw new Error('expected a WebhookVerificationError, but the request verified');
}

const reasonOf = (body: string | Buffer, headers: Record<string, string>, secrets: string | string[], options?: VerifyWebhookOptions): WebhookVerificationReason =>
  refusal(() => verifyWebhook(body, headers, secrets, options)).reason;

const without = (headers: Record<string, string>, ...names: string[]): Record<string, string> => Object.fromEntries(Object.entries(headers).filter(([k]) => !names.includes(k)));

describe('webhook receiver helper', () => {
  describe('verifySignature', () => {
    const secret = generateWebhookSecret();

    it('accepts the X-Service-Signature the service sends, over the body as a string or as the raw Buffer', () => {
      const { body, headers } = attempt({ current: secret, previous: null });
      expect(verifySignature(body, headers[SIGNATURE_HEADER], secret)).to.equal(true);
      expect(verifySignature(Buffer.from(body, 'utf8'), headers[SIGNATURE_HEADER], [secret])).to.equal(true);
    });

    it('refuses a body changed by one character, and a signature made with another secret', () => {
      const { body, headers } = attempt({ current: secret, previous: null });
      const signature = headers[SIGNATURE_HEADER];
      expect(verifySignature(body.replace('Tuesday', 'Tuesdaz'), signature, secret)).to.equal(false);
      // Re-serialising changes nothing visible but may change bytes: only the raw body is safe.
      expect(verifySignature(`${body} `, signature, secret)).to.equal(false);
      expect(verifySignature(body, signature, generateWebhookSecret())).to.equal(false);
      expect(verifySignature(body, signature, [])).to.equal(false);
    });

    it('is true when any of several secrets signed it (a receiver holding both during a rotation)', () => {
      const { body, headers } = attempt({ current: secret, previous: null });
      expect(verifySignature(body, headers[SIGNATURE_HEADER], [generateWebhookSecret(), secret])).to.equal(true);
    });

    it('answers false, never throws, for a missing or malformed header or a body that is not raw', () => {
      const { body, headers } = attempt({ current: secret, previous: null });
      const hex = (headers[SIGNATURE_HEADER] as string).slice('sha256='.length);
      const malformed = [undefined, '', 'sha256=', hex, `sha1=${hex}`, `sha256=${hex.slice(1)}`, `sha256=${hex}0`, `sha256=${hex.slice(1)}g`, `sha256=${hex},sha256=${hex}`];
      for (const header of malformed) expect(verifySignature(body, header, secret), String(header)).to.equal(false);
      // The same digest in upper case is the same digest.
      expect(verifySignature(body, `sha256=${hex.toUpperCase()}`, secret)).to.equal(true);
      const parsed = JSON.parse(body) as unknown;
      expect(verifySignature(parsed as string, headers[SIGNATURE_HEADER], secret)).to.equal(false);
      expect(verifySignature(body, headers[SIGNATURE_HEADER], null as unknown as string)).to.equal(false);
    });

    it('compares the digests with crypto.timingSafeEqual, and a near-miss of the right length still fails', () => {
      const { body, headers } = attempt({ current: secret, previous: null });
      const signature = headers[SIGNATURE_HEADER] as string;
      const lastDigit = signature.at(-1) === '0' ? '1' : '0';
      const nearMiss = `${signature.slice(0, -1)}${lastDigit}`;
      const original = crypto.timingSafeEqual;
      const compared: Array<[number, number]> = [];
      (crypto as { timingSafeEqual: typeof original }).timingSafeEqual = (a, b) => {
        compared.push([a.byteLength, b.byteLength]);
        return original(a, b);
      };
      try {
        expect(verifySignature(body, nearMiss, secret)).to.equal(false);
        expect(verifySignature(body, signature, secret)).to.equal(true);
      } finally {
        (crypto as { timingSafeEqual: typeof original }).timingSafeEqual = original;
      }
      expect(compared).to.deep.equal([
        [32, 32],
        [32, 32],
      ]);
    });
  });

  describe('verifyWebhook', () => {
    const now = new Date('2026-11-23T10:20:00Z');
    const at = (secondsFromNow: number): Date => new Date(now.getTime() + secondsFromNow * 1000);
    const secret = generateWebhookSecret();
    const current: SigningSecrets = { current: secret, previous: null };

    it('verifies a request as the service sends it and returns its event, the secret and the timestamp', () => {
      const { body, headers, id } = attempt(current, at(-2));
      const verified = verifyWebhook(body, headers, secret, { now });
      expect(verified.event).to.deep.equal({ ...JSON.parse(body), known: true });
      expect(verified.event.id).to.equal(id);
      expect(verified.secretIndex).to.equal(0);
      expect(verified.signatureHeader).to.equal(SIGNATURE_HEADER);
      expect(verified.timestamp?.getTime()).to.equal(Math.floor(at(-2).getTime() / 1000) * 1000);
    });

    it('reads headers from Node (lower case), from a plain object in any casing, and from a WHATWG Headers', () => {
      const { body, headers } = attempt(current, at(0));
      const shouted = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toUpperCase(), v]));
      expect(verifyWebhook(body, shouted, secret, { now }).event.known).to.equal(true);
      expect(verifyWebhook(body, new Headers(headers), secret, { now }).event.known).to.equal(true);
    });

    describe('during a secret rotation (the service signs with both secrets for 24 h)', () => {
      const oldSecret = generateWebhookSecret();
      const newSecret = generateWebhookSecret();
      const rotating: SigningSecrets = { current: newSecret, previous: oldSecret };

      it('verifies for a receiver still holding only the old secret (X-Service-Signature-Previous)', () => {
        const { body, headers } = attempt(rotating, at(0));
        expect(headers).to.have.property(PREVIOUS_SIGNATURE_HEADER);
        const verified = verifyWebhook(body, headers, oldSecret, { now });
        expect(verified.signatureHeader).to.equal(PREVIOUS_SIGNATURE_HEADER);
        expect(verified.secretIndex).to.equal(0);
      });

      it('verifies for a receiver already holding only the new secret, and for one holding both', () => {
        const { body, headers } = attempt(rotating, at(0));
        expect(verifyWebhook(body, headers, newSecret, { now }).signatureHeader).to.equal(SIGNATURE_HEADER);
        const both = verifyWebhook(body, headers, [oldSecret, newSecret], { now });
        expect(both.signatureHeader).to.equal(SIGNATURE_HEADER);
        expect(both.secretIndex).to.equal(1);
      });

      it('refuses the old secret once the overlap is over (the service signs with the new one only)', () => {
        const { body, headers } = attempt({ current: newSecret, previous: null }, at(0));
        expect(reasonOf(body, headers, oldSecret, { now })).to.equal('signature_mismatch');
      });
    });

    it('refuses a tampered body, a wrong secret, and a forged signature', () => {
      const { body, headers } = attempt(current, at(0));
      expect(reasonOf(body.replace('"positive"', '"negative"'), headers, secret, { now })).to.equal('signature_mismatch');
      expect(reasonOf(body, headers, generateWebhookSecret(), { now })).to.equal('signature_mismatch');
      const forged = { ...headers, [SIGNATURE_HEADER]: `sha256=${createHmac('sha256', 'guess').update(body).digest('hex')}` };
      expect(reasonOf(body, forged, secret, { now })).to.equal('signature_mismatch');
    });

    it('names a missing and a malformed signature header apart from a mismatch', () => {
      const { body, headers } = attempt(current, at(0));
      expect(reasonOf(body, without(headers, SIGNATURE_HEADER), secret, { now })).to.equal('missing_signature');
      expect(reasonOf(body, { ...headers, [SIGNATURE_HEADER]: 'sha256=zz' }, secret, { now })).to.equal('malformed_signature');
      expect(reasonOf(body, { ...headers, [SIGNATURE_HEADER]: (headers[SIGNATURE_HEADER] as string).replace('sha256=', 'v1=') }, secret, { now })).to.equal('malformed_signature');
    });

    it('refuses a timestamp outside the tolerance either way (a replayed old request), and takes its own tolerance', () => {
      const old = attempt(current, at(-301));
      expect(reasonOf(old.body, old.headers, secret, { now })).to.equal('timestamp_too_old');
      const ahead = attempt(current, at(301));
      expect(reasonOf(ahead.body, ahead.headers, secret, { now })).to.equal('timestamp_too_new');
      const justInside = attempt(current, at(-299));
      expect(verifyWebhook(justInside.body, justInside.headers, secret, { now }).event.known).to.equal(true);
      expect(reasonOf(justInside.body, justInside.headers, secret, { now, toleranceSeconds: 60 })).to.equal('timestamp_too_old');
      expect(verifyWebhook(old.body, old.headers, secret, { now, toleranceSeconds: 3600 }).event.known).to.equal(true);
    });

    it('judges the timestamp by the system clock by default', () => {
      const fresh = attempt(current, new Date());
      expect(verifyWebhook(fresh.body, fresh.headers, secret).event.known).to.equal(true);
      const stale = attempt(current, new Date(Date.now() - 3_600_000));
      expect(reasonOf(stale.body, stale.headers, secret)).to.equal('timestamp_too_old');
    });

    it('refuses a replay whose webhook-timestamp was moved to now: the v1 signature covers it', () => {
      const old = attempt(current, at(-3600));
      const replay = { ...old.headers, 'webhook-timestamp': String(Math.floor(now.getTime() / 1000)) };
      expect(reasonOf(old.body, replay, secret, { now })).to.equal('standard_signature_mismatch');
      expect(reasonOf(old.body, { ...old.headers, 'webhook-timestamp': 'yesterday' }, secret, { now })).to.equal('malformed_timestamp');
    });

    it('refuses some Standard Webhooks headers without the others; none at all only when they are required', () => {
      const { body, headers } = attempt(current, at(-3600));
      expect(reasonOf(body, without(headers, 'webhook-signature'), secret, { now })).to.equal('missing_timestamp');
      expect(reasonOf(body, without(headers, 'webhook-id'), secret, { now })).to.equal('missing_timestamp');
      const stripped = without(headers, 'webhook-id', 'webhook-timestamp', 'webhook-signature');
      // The spec's header alone verifies (receivers that know only the spec); requiring the
      // timestamp closes the gap a replay could use by stripping the headers.
      expect(verifyWebhook(body, stripped, secret, { now }).timestamp).to.equal(null);
      expect(reasonOf(body, stripped, secret, { now, requireTimestamp: true })).to.equal('missing_timestamp');
    });

    it('refuses a body that was parsed before verification, and verifying with no secret', () => {
      const { body, headers } = attempt(current, at(0));
      expect(reasonOf(JSON.parse(body) as string, headers, secret, { now })).to.equal('body_not_raw');
      expect(reasonOf(body, headers, [], { now })).to.equal('no_secrets');
      expect(reasonOf(body, headers, '', { now })).to.equal('no_secrets');
    });

    it('throws WebhookPayloadError, not a verification error, for a signed body that is not an envelope', () => {
      const body = '{"hello":"world"}';
      const headers = signedHeaders(body, 'evt_x', at(0), current);
      expect(() => verifyWebhook(body, headers, secret, { now })).to.throw(WebhookPayloadError, 'no id');
    });
  });

  describe('parseWebhookEvent', () => {
    it('gives both reply.received forms one shape: the integration form renamed, its missing members null', () => {
      const full = parseWebhookEvent(envelopeBody(source({ data: fullReply })));
      const integration = parseWebhookEvent(envelopeBody(source({ data: integrationReply })));
      if (full.event !== 'reply.received' || integration.event !== 'reply.received') throw new Error('not a reply');
      if (!full.known || !integration.known) throw new Error('reply.received must be known');
      expect(full.data).to.deep.equal(fullReply);
      expect(integration.data).to.deep.equal({ ...fullReply, reply_id: null, title: null, received_at: null });
      expect(Object.keys(integration.data).sort()).to.deep.equal(Object.keys(full.data).sort());
    });

    it('prefers the full form where a payload carries both names, and keeps members neither form knows', () => {
      const event = parseWebhookEvent(envelopeBody(source({ data: { ...fullReply, reply_sentiment: 'negative', reply_preview: 'other', category: 'interested' } })));
      expect(event.data).to.deep.equal({ ...fullReply, category: 'interested' });
    });

    it('reads null name, company and sentiment as null, and refuses a reply without an email', () => {
      const sparse = parseWebhookEvent(envelopeBody(source({ data: { email: 'x@y.example', name: null, company: null } })));
      expect(sparse.data).to.deep.equal({ reply_id: null, email: 'x@y.example', name: null, company: null, title: null, sentiment: null, preview: null, received_at: null });
      expect(() => parseWebhookEvent(envelopeBody(source({ data: { name: 'Nobody' } })))).to.throw(WebhookPayloadError, 'email');
    });

    it('types every kind the service sends, the payload as sent; the test event has no campaign', () => {
      const payloads: Record<KnownWebhookEvent['event'], Record<string, unknown>> = {
        'campaign.started': { mcp: 'sales_outreach', target_url: 'https://acme.example' },
        'campaign.milestone': { milestone: '100_emails', stats: { emails_sent: 100, delivered: 97, opened: 41, replied: 6 } },
        'campaign.paused': { reason: 'budget_exceeded', budget_spent_usd: 50.02, budget_limit_usd: 50 },
        'campaign.completed': { reason: 'trial_ended', final_stats: { emails_sent: 140, delivered: 131, opened: 60, replied: 9, meetings_booked: 2 }, total_cost_usd: 12.4 },
        'campaign.budget_warning': { budget_type: 'daily', spent_usd: 8.1, limit_usd: 10, percentage: 81 },
        'campaign.budget_exceeded': { budget_type: 'weekly', spent_usd: 70.2, limit_usd: 70 },
        'budget.warning': { budget_type: 'monthly', spent_usd: 240, limit_usd: 300, percentage: 80 },
        'reply.received': fullReply,
        'meeting.booked': { email: 'ada@prospect.example', name: 'Ada Lovelace', company: 'Analytical Engines', meeting_time: '2026-11-26T15:00:00.000Z', calendar_link: 'https://cal.example/sam/15min' },
        'campaign.variant_winner': {
          step: 1,
          variant: 'B',
          metric: 'reply_rate',
          min_sends: 100,
          confidence: 0.95,
          p_value: 0.003,
          variants: [
            { variant: 'A', sent: 120, delivered: 118, successes: 3, rate: 0.0254 },
            { variant: 'B', sent: 121, delivered: 119, successes: 15, rate: 0.1261 },
          ],
        },
        'webhook.test': { message: 'Test event from the dashboard', requested_at: '2026-11-23T10:15:30.123Z' },
      };
      for (const [kind, data] of Object.entries(payloads)) {
        const campaignId = kind === 'webhook.test' ? null : 'cmp_42';
        const src = source({ event: kind, data, campaignId });
        const event = parseWebhookEvent(envelopeBody(src));
        expect(event, kind).to.deep.equal({ id: src.id, event: kind, created_at: '2026-11-23T10:15:30.123Z', campaign_id: campaignId, data, known: true });
      }
    });

    it('returns a kind it does not know as a generic event instead of refusing it', () => {
      const src = source({ event: 'lead.enriched', data: { lead_id: 'lead_1', fields: ['title'] } });
      const event = parseWebhookEvent(Buffer.from(envelopeBody(src), 'utf8'));
      expect(event).to.deep.equal({ id: src.id, event: 'lead.enriched', created_at: '2026-11-23T10:15:30.123Z', campaign_id: 'cmp_42', data: { lead_id: 'lead_1', fields: ['title'] }, known: false });
    });

    it('refuses what is not an envelope', () => {
      const bad: Array<[string, string]> = [
        ['not json', 'not JSON'],
        ['[1,2]', 'not a JSON object'],
        ['{"event":"campaign.started","created_at":"x","data":{}}', 'no id'],
        ['{"id":"evt_1","created_at":"x","data":{}}', 'no event'],
        ['{"id":"evt_1","event":"campaign.started","data":{}}', 'no created_at'],
        ['{"id":"evt_1","event":"campaign.started","created_at":"x","campaign_id":7,"data":{}}', 'campaign_id'],
        ['{"id":"evt_1","event":"campaign.started","created_at":"x","data":[]}', 'data is not an object'],
      ];
      for (const [body, message] of bad) expect(() => parseWebhookEvent(body), body).to.throw(WebhookPayloadError, message);
    });
  });

  describe('the example receiver, over HTTP on loopback', function () {
    this.timeout(30_000);
    let egress: Egress;
    const servers: http.Server[] = [];

    before(() => {
      egress = createEgress({ allowLoopback: true, timeoutMs: 10_000, maxBytes: 1024 * 1024 });
    });
    after(async () => {
      await egress.close();
    });
    afterEach(async () => {
      for (const s of servers.splice(0)) {
        s.closeAllConnections();
        await new Promise<void>((resolve) => s.close(() => resolve()));
      }
    });

    /** Starts the example with these secrets on 127.0.0.1; returns its URL and the events it handled. */
    async function startExample(secrets: string[]): Promise<{ url: string; handled: KnownWebhookEvent[]; handledCount: (n: number) => Promise<void> }> {
      const handled: KnownWebhookEvent[] = [];
      const server = webhookReceiver(secrets, (event) => handled.push(event));
      servers.push(server);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const handledCount = async (n: number): Promise<void> => {
        // The example hands events on after answering (setImmediate): bounded wait for them.
        for (let i = 0; i < 200 && handled.length < n; i++) await new Promise((r) => setTimeout(r, 25));
        expect(handled).to.have.length(n);
      };
      return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, handled, handledCount };
    }

    it('answers 2xx to the service\'s own attempts and handles a retried event once', async () => {
      const secret = generateWebhookSecret();
      const example = await startExample([secret]);
      const src = source();
      const body = envelopeBody(src);
      const first = await postWebhook(egress, example.url, body, signedHeaders(body, src.id, new Date(), { current: secret, previous: null }));
      expect(first).to.include({ ok: true, statusCode: 204 });
      // A retry: same event id and body, signed anew.
      const retry = await postWebhook(egress, example.url, body, signedHeaders(body, src.id, new Date(), { current: secret, previous: null }));
      expect(retry).to.include({ ok: true, statusCode: 204 });
      await example.handledCount(1);
      expect(example.handled[0]).to.deep.include({ id: src.id, event: 'reply.received', data: fullReply });
    });

    it('answers 401 to a tampered body, a wrong secret and a stale timestamp, and handles none of them', async () => {
      const secret = generateWebhookSecret();
      const example = await startExample([secret]);
      const { body, headers } = attempt({ current: secret, previous: null });
      const tampered = await postWebhook(egress, example.url, body.replace('Ada', 'Eve'), headers);
      const wrong = attempt({ current: generateWebhookSecret(), previous: null });
      const wrongSecret = await postWebhook(egress, example.url, wrong.body, wrong.headers);
      const stale = attempt({ current: secret, previous: null }, new Date(Date.now() - 600_000));
      const staleAttempt = await postWebhook(egress, example.url, stale.body, stale.headers);
      for (const outcome of [tampered, wrongSecret, staleAttempt]) expect(outcome).to.include({ ok: false, statusCode: 401 });
      await new Promise((r) => setTimeout(r, 50));
      expect(example.handled).to.have.length(0);
    });

    describe('from real outbox rows, through the real dispatcher', function () {
      this.timeout(60_000);
      let db: TestDatabase;

      before(async () => {
        db = await createTestDatabase();
      });
      after(async () => {
        await db?.drop();
      });

      it('verifies what the dispatcher posts, with the secret the receiver held before a rotation, and both reply forms arrive as one shape', async () => {
        const { sequelize } = db;
        const { accountId } = await createAccount(sequelize);
        const before = await webhookSettings(sequelize, accountId);
        // The receiver still holds the secret of before the rotation: the overlap keeps it verifying.
        const example = await startExample([before.secret]);
        await setWebhookUrl(sequelize, accountId, example.url);
        const rotated = await rotateWebhookSecret(sequelize, accountId);
        expect(rotated.secret).to.not.equal(before.secret);
        const campaign = await seedCampaign(accountId);
        const events: DomainEvent[] = [
          { accountId, campaignId: campaign.id, event: 'reply.received', data: fullReply },
          { accountId, campaignId: campaign.id, event: 'reply.received', data: integrationReply },
          { accountId, campaignId: campaign.id, event: 'campaign.started', data: { mcp: 'sales_outreach', target_url: 'https://acme.example' } },
        ];
        const ids = await sequelize.transaction(async (tx) => {
          const out: string[] = [];
          for (const ev of events) out.push(await emitEvent(sequelize, tx, ev));
          return out;
        });

        const abort = new AbortController();
        const retries: RetryStarter = {
          start: (failed) => Promise.reject(new Error(`no attempt should fail here (delivery ${failed.deliveryId})`)),
        };
        const run = runDispatcher(
          { sequelize, egress, retries, log: pino({ level: 'silent' }) },
          { ...DEFAULT_DISPATCHER_OPTIONS, pollMs: 50 },
          { signal: abort.signal, runForMs: 30_000 },
        );
        try {
          await example.handledCount(3);
        } finally {
          abort.abort();
        }
        const stats = await run;
        expect(stats).to.include({ attempts: 3, delivered: 3, handedToRetry: 0 });

        const byId = new Map(example.handled.map((e) => [e.id, e]));
        expect([...byId.keys()].sort()).to.deep.equal([...ids].sort());
        const [fullId, integrationId, startedId] = ids as [string, string, string];
        expect(byId.get(fullId)?.data).to.deep.equal(fullReply);
        expect(byId.get(integrationId)?.data).to.deep.equal({ ...fullReply, reply_id: null, title: null, received_at: null });
        expect(byId.get(startedId)).to.deep.include({ event: 'campaign.started', campaign_id: campaign.id });
      });
    });
  });
});

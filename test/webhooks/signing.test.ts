import { expect } from 'chai';
import { createHmac, randomBytes } from 'node:crypto';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { envelopeBody, type EnvelopeSource } from '../../src/webhooks/envelope';
import { generateWebhookSecret, webhookSecretProblem } from '../../src/webhooks/secrets';
import { signingSecrets } from '../../src/webhooks/webhook-settings-repository';
import { PREVIOUS_SIGNATURE_HEADER, serviceSignature, SIGNATURE_HEADER, signedHeaders } from '../../src/webhooks/signing';
import { MAX_WEBHOOK_URL_LENGTH, normalizeWebhookUrl, webhookUrlProblem } from '../../src/webhooks/webhook-url';

/**
 * What a receiver checks, computed here the way a receiver would (node:crypto, the standardwebhooks
 * package) rather than through the code under test: the spec's X-Service-Signature, the Standard
 * Webhooks headers, both during a secret rotation, and the bytes they cover.
 */

/** The spec's recipe: HMAC-SHA256 over the raw body keyed with the secret as shown, lowercase hex, `sha256=`. */
const specSignature = (body: string, secret: string): string => `sha256=${createHmac('sha256', secret).update(body, 'utf8').digest('hex')}`;

/** Standard Webhooks v1: base64 HMAC-SHA256 of `<id>.<unix seconds>.<body>`, keyed with the secret's decoded bytes. */
const standardSignature = (id: string, timestamp: string, body: string, secret: string): string =>
  `v1,${createHmac('sha256', Buffer.from(secret.replace(/^whsec_/, ''), 'base64')).update(`${id}.${timestamp}.${body}`, 'utf8').digest('base64')}`;

const sampleEvent: EnvelopeSource = {
  id: 'evt_01JD8ZC5V7Q9',
  event: 'reply.received',
  createdAt: new Date('2026-11-23T10:15:30.123Z'),
  campaignId: 'cmp_42',
  data: { reply_id: 'rep_7', email: 'ada@prospect.example', name: 'Ada Lovelace', company: 'Analytical Engines', title: 'CTO', sentiment: 'positive', preview: 'Sounds good — Tuesday?', received_at: '2026-11-23T10:15:29.000Z' },
};

describe('webhook signing (unit)', () => {
  const body = envelopeBody(sampleEvent);

  describe('X-Service-Signature', () => {
    it('is sha256= and the lowercase hex HMAC-SHA256 of the raw body keyed with the whole secret string', () => {
      const secret = generateWebhookSecret();
      const headers = signedHeaders(body, sampleEvent.id, new Date(), { current: secret, previous: null });
      expect(headers[SIGNATURE_HEADER]).to.equal(specSignature(body, secret));
      expect(headers[SIGNATURE_HEADER]).to.match(/^sha256=[0-9a-f]{64}$/);
      expect(headers['content-type']).to.equal('application/json');
      // No rotation: no second header.
      expect(headers).to.not.have.property(PREVIOUS_SIGNATURE_HEADER);
    });

    it('covers every byte: a body differing in one character (non-ASCII included) gets another signature', () => {
      const secret = generateWebhookSecret();
      const other = body.replace('Tuesday', 'Tuesdaz');
      expect(serviceSignature(other, secret)).to.not.equal(serviceSignature(body, secret));
      // The HMAC is over UTF-8 bytes: a Buffer of the same text signs the same.
      expect(serviceSignature(Buffer.from(body, 'utf8'), secret)).to.equal(serviceSignature(body, secret));
      expect(serviceSignature(body, generateWebhookSecret())).to.not.equal(serviceSignature(body, secret));
    });
  });

  describe('Standard Webhooks headers', () => {
    it('verify with the standardwebhooks package and the same secret; webhook-id is the event id', () => {
      const secret = generateWebhookSecret();
      const at = new Date();
      const headers = signedHeaders(body, sampleEvent.id, at, { current: secret, previous: null });
      expect(headers['webhook-id']).to.equal(sampleEvent.id);
      expect(headers['webhook-timestamp']).to.equal(String(Math.floor(at.getTime() / 1000)));
      expect(headers['webhook-signature']).to.equal(standardSignature(sampleEvent.id, headers['webhook-timestamp'] as string, body, secret));
      expect(new Webhook(secret).verify(body, headers)).to.deep.equal(JSON.parse(body));
    });

    it('do not verify with another secret, a changed body, or a replay of a request older than the tolerance', () => {
      const secret = generateWebhookSecret();
      const headers = signedHeaders(body, sampleEvent.id, new Date(), { current: secret, previous: null });
      expect(() => new Webhook(generateWebhookSecret()).verify(body, headers)).to.throw(WebhookVerificationError);
      expect(() => new Webhook(secret).verify(body.replace('Ada', 'Eve'), headers)).to.throw(WebhookVerificationError);
      const old = signedHeaders(body, sampleEvent.id, new Date(Date.now() - 10 * 60_000), { current: secret, previous: null });
      expect(() => new Webhook(secret).verify(body, old)).to.throw(WebhookVerificationError, /too old/);
    });
  });

  describe('during a secret rotation', () => {
    it('both secrets sign: X-Service-Signature with the new one, X-Service-Signature-Previous with the old, and two v1 signatures that each verify', () => {
      const current = generateWebhookSecret();
      const previous = generateWebhookSecret();
      const headers = signedHeaders(body, sampleEvent.id, new Date(), { current, previous });
      expect(headers[SIGNATURE_HEADER]).to.equal(specSignature(body, current));
      expect(headers[PREVIOUS_SIGNATURE_HEADER]).to.equal(specSignature(body, previous));

      const signatures = (headers['webhook-signature'] as string).split(' ');
      const ts = headers['webhook-timestamp'] as string;
      expect(signatures).to.deep.equal([standardSignature(sampleEvent.id, ts, body, current), standardSignature(sampleEvent.id, ts, body, previous)]);
      // A receiver holding either secret verifies; one holding neither does not.
      expect(new Webhook(current).verify(body, headers)).to.deep.equal(JSON.parse(body));
      expect(new Webhook(previous).verify(body, headers)).to.deep.equal(JSON.parse(body));
      for (const [i, secret] of [current, previous].entries()) {
        expect(new Webhook(secret).verify(body, { ...headers, 'webhook-signature': signatures[i] as string })).to.deep.equal(JSON.parse(body));
      }
      expect(() => new Webhook(generateWebhookSecret()).verify(body, headers)).to.throw(WebhookVerificationError);
    });

    it('the previous secret signs until its overlap ends, then only the current one', () => {
      const expires = new Date('2026-11-24T10:00:00Z');
      const settings = { secret: 'whsec_new', previousSecret: 'whsec_old', previousSecretExpiresAt: expires };
      expect(signingSecrets(settings, new Date(expires.getTime() - 1))).to.deep.equal({ current: 'whsec_new', previous: 'whsec_old' });
      expect(signingSecrets(settings, expires)).to.deep.equal({ current: 'whsec_new', previous: null });
      expect(signingSecrets({ ...settings, previousSecret: null, previousSecretExpiresAt: null }, new Date(0))).to.deep.equal({ current: 'whsec_new', previous: null });
    });
  });

  describe('envelopeBody', () => {
    it('is exactly {id, event, created_at, campaign_id, data} in that order, created_at in ISO 8601 UTC', () => {
      expect(Object.keys(JSON.parse(body))).to.deep.equal(['id', 'event', 'created_at', 'campaign_id', 'data']);
      expect(JSON.parse(body)).to.deep.equal({
        id: sampleEvent.id,
        event: 'reply.received',
        created_at: '2026-11-23T10:15:30.123Z',
        campaign_id: 'cmp_42',
        data: sampleEvent.data,
      });
      // An event of no campaign carries campaign_id null, not a missing member.
      expect(JSON.parse(envelopeBody({ ...sampleEvent, campaignId: null }))).to.have.property('campaign_id', null);
    });

    it('is byte-stable: the same row, read again (new objects, equal values), gives the same bytes and so the same signatures', () => {
      const again: EnvelopeSource = JSON.parse(JSON.stringify({ ...sampleEvent, createdAt: undefined }));
      const reread = envelopeBody({ ...again, createdAt: new Date(sampleEvent.createdAt.getTime()) });
      expect(Buffer.from(reread, 'utf8').equals(Buffer.from(body, 'utf8'))).to.equal(true);
      const secret = generateWebhookSecret();
      expect(serviceSignature(reread, secret)).to.equal(serviceSignature(body, secret));
    });
  });

  describe('webhookSecretProblem', () => {
    const secretOf = (bytes: number): string => `whsec_${randomBytes(bytes).toString('base64')}`;

    it('accepts generated secrets and any whsec_ base64 of 24 to 64 bytes', () => {
      for (let i = 0; i < 20; i++) {
        const s = generateWebhookSecret();
        expect(s).to.match(/^whsec_[A-Za-z0-9+/]{43}=$/);
        expect(webhookSecretProblem(s)).to.equal(null);
      }
      expect(webhookSecretProblem(secretOf(24))).to.equal(null);
      expect(webhookSecretProblem(secretOf(64))).to.equal(null);
    });

    it('refuses a missing prefix, non-base64 text, bad padding, too few or too many bytes', () => {
      expect(webhookSecretProblem(randomBytes(32).toString('base64'))).to.equal('must start with whsec_');
      expect(webhookSecretProblem('WHSEC_' + randomBytes(32).toString('base64'))).to.equal('must start with whsec_');
      expect(webhookSecretProblem('whsec_' + randomBytes(32).toString('base64url').replace(/=+$/, '') + '-_')).to.match(/standard base64/);
      expect(webhookSecretProblem('whsec_' + randomBytes(32).toString('base64').replace(/=+$/, ''))).to.match(/standard base64/);
      expect(webhookSecretProblem('whsec_')).to.match(/standard base64/);
      expect(webhookSecretProblem('whsec_ ' + randomBytes(32).toString('base64'))).to.match(/standard base64/);
      expect(webhookSecretProblem(secretOf(23))).to.equal('must encode 24 to 64 random bytes (this one encodes 23)');
      expect(webhookSecretProblem(secretOf(65))).to.equal('must encode 24 to 64 random bytes (this one encodes 65)');
    });
  });

  describe('webhookUrlProblem', () => {
    it('accepts https URLs on names and public addresses (a name is judged by its addresses when an attempt connects)', () => {
      for (const url of ['https://hooks.example.com/outreach', 'https://hooks.example.com:8443/a?b=c', 'https://93.184.216.34/hook', 'https://[2606:4700:4700::1111]/x']) {
        expect(webhookUrlProblem(url, false), url).to.equal(null);
      }
      // Private or reserved literal addresses are refused when saved (test/webhooks/webhook-url-refusal.test.ts).
      expect(webhookUrlProblem('https://10.0.0.1/hook', true)).to.equal('must point to a public address: 10.0.0.1 is a private address (RFC 1918)');
      expect(webhookUrlProblem('https://[2001:db8::1]/x', false)).to.equal('must point to a public address: 2001:db8::1 is a reserved address');
    });

    it('accepts plain http only to a loopback host, and only when loopback egress is allowed', () => {
      for (const url of ['http://127.0.0.1:8080/hooks', 'http://localhost:3000/h', 'http://[::1]:9000/']) {
        expect(webhookUrlProblem(url, true), url).to.equal(null);
        expect(webhookUrlProblem(url, false), url).to.match(/^must point to a public address: .* loopback/);
      }
      for (const url of ['http://hooks.example.com/outreach', 'http://127.0.0.1.nip.io/h']) {
        expect(webhookUrlProblem(url, true), url).to.equal('must be an https URL');
      }
    });

    it('refuses other schemes, relative or malformed URLs, credentials and overlong URLs', () => {
      expect(webhookUrlProblem('ftp://hooks.example.com/x', true)).to.equal('must be an https URL');
      expect(webhookUrlProblem('javascript:alert(1)', true)).to.equal('must be an https URL');
      expect(webhookUrlProblem('/hooks', true)).to.equal('must be an absolute https URL');
      expect(webhookUrlProblem('hooks.example.com', true)).to.equal('must be an absolute https URL');
      expect(webhookUrlProblem('https://', true)).to.equal('must be an absolute https URL');
      expect(webhookUrlProblem('https://user:pw@hooks.example.com/', true)).to.equal('must not carry credentials');
      expect(webhookUrlProblem('https://token@hooks.example.com/', true)).to.equal('must not carry credentials');
      const long = `https://hooks.example.com/${'a'.repeat(MAX_WEBHOOK_URL_LENGTH)}`;
      expect(webhookUrlProblem(long, true)).to.equal(`must be at most ${MAX_WEBHOOK_URL_LENGTH} characters`);
      expect(webhookUrlProblem(long.slice(0, MAX_WEBHOOK_URL_LENGTH), true)).to.equal(null);
    });

    it('normalizeWebhookUrl makes one destination one string', () => {
      expect(normalizeWebhookUrl('HTTPS://Hooks.Example.COM:443/a/../b')).to.equal('https://hooks.example.com/b');
      expect(normalizeWebhookUrl('https://hooks.example.com')).to.equal('https://hooks.example.com/');
      expect(normalizeWebhookUrl('http://127.0.0.1:8080/./hooks')).to.equal('http://127.0.0.1:8080/hooks');
      // Different paths, queries or ports stay different destinations.
      expect(normalizeWebhookUrl('https://hooks.example.com/b?x=1')).to.not.equal(normalizeWebhookUrl('https://hooks.example.com/b'));
      expect(normalizeWebhookUrl('https://hooks.example.com:8443/b')).to.not.equal(normalizeWebhookUrl('https://hooks.example.com/b'));
    });
  });
});

import { expect } from 'chai';
import { rotateWebhookSecret, ROTATION_OVERLAP_MS, setWebhookUrl, webhookSettings } from '../../src/webhooks/webhook-settings-repository';
import { normalizeWebhookUrl } from '../../src/webhooks/webhook-url';
import { createAccount } from '../support/api';
import { useCampaignStack } from '../support/campaign-stack';
import type { FakeSite } from '../support/fake-site';
import type { ReceivedWebhook } from '../support/webhook-receiver';
import { WebhookReceiver } from '../support/webhook-receiver';
import { campaignApi, startTargetSite } from './support/campaign-api';
import { attemptsOf, deliveriesOf, envelopeOf, expectEnvelope, expectSignedWith, signatureEntries, specSignatureVerifies, standardVerifies, until, type Envelope } from './support/webhook-checks';

function header(r: ReceivedWebhook, name: string): string | undefined {
  const v = r.headers[name];
  return Array.isArray(v) ? v.join(', ') : v;
}

/**
 * A request signed during a rotation's overlap: X-Service-Signature with the new secret,
 * X-Service-Signature-Previous with the old one, and two Standard Webhooks signatures, one per
 * secret; a receiver holding either secret verifies it, and neither header is signed with the
 * other secret.
 */
function expectSignedDuringOverlap(r: ReceivedWebhook, current: string, previous: string): Envelope {
  const body = expectEnvelope(r);
  const spec = header(r, 'x-service-signature');
  const prev = header(r, 'x-service-signature-previous');
  expect(specSignatureVerifies(r.rawBody, spec, current), 'X-Service-Signature verifies with the new secret').to.equal(true);
  expect(specSignatureVerifies(r.rawBody, spec, previous), 'X-Service-Signature is not the old secret\'s').to.equal(false);
  expect(specSignatureVerifies(r.rawBody, prev, previous), 'X-Service-Signature-Previous verifies with the old secret').to.equal(true);
  expect(specSignatureVerifies(r.rawBody, prev, current)).to.equal(false);

  const entries = signatureEntries(r);
  expect(entries, 'two Standard Webhooks signatures').to.have.length(2);
  for (const e of entries) expect(e).to.match(/^v1,[A-Za-z0-9+/]+=*$/);
  const byCurrent = entries.filter((e) => standardVerifies(r, current, e));
  const byPrevious = entries.filter((e) => standardVerifies(r, previous, e));
  expect(byCurrent, 'one entry verifies with the new secret').to.have.length(1);
  expect(byPrevious, 'one entry verifies with the old secret').to.have.length(1);
  expect(byCurrent[0]).to.not.equal(byPrevious[0]);
  // What a receiver's Standard Webhooks library does with the whole header: either secret passes.
  expect(standardVerifies(r, current), 'a receiver with the new secret verifies').to.equal(true);
  expect(standardVerifies(r, previous), 'a receiver still on the old secret verifies').to.equal(true);
  return body;
}

/**
 * Rotating the webhook secret on the real stack (PostgreSQL, Temporal dev server, worker with the
 * dispatcher, API): for 24 hours the old secret signs beside the new one, after them only the new
 * one does, and a retry is signed with the secrets of its own moment, not those of the failure.
 * The events are campaign.paused of one campaign, paused and resumed through the API.
 */
describe('webhook secret rotation end to end: both secrets during the overlap, the new one after', function () {
  this.timeout(4 * 60_000);
  const t = useCampaignStack();
  const api = campaignApi(t);
  let site: FakeSite;
  let receiver: WebhookReceiver;
  let accountId = '';
  let apiKey = '';
  let campaignId = '';
  /** Secrets in the order they were current. */
  const secrets: string[] = [];

  before(async () => {
    [site, receiver] = await Promise.all([startTargetSite(), WebhookReceiver.start()]);
    ({ accountId, apiKey } = await createAccount(t.db.sequelize, 'pro', 'Rotation Ltd'));
    // The account-wide URL (the dashboard's webhook settings) receives the campaign's events.
    const settings = await setWebhookUrl(t.db.sequelize, accountId, normalizeWebhookUrl(receiver.url('/rotation')));
    secrets.push(settings.secret);
    campaignId = await api.createCampaign(apiKey, { mcp: 'customer_feedback', target_url: site.origin });
  });
  after(async () => {
    await receiver?.close();
    await site?.close();
  });

  /** Pauses the campaign through the API and returns its campaign.paused request (the `n`th request overall). */
  async function pauseAndReceive(n: number, timeoutMs = 30_000): Promise<ReceivedWebhook> {
    await api.pause(apiKey, campaignId);
    await receiver.waitFor(n, timeoutMs);
    const r = receiver.received[n - 1] as ReceivedWebhook;
    expect(envelopeOf(r)).to.include({ event: 'campaign.paused', campaign_id: campaignId });
    return r;
  }

  it('before any rotation, one secret signs', async () => {
    await receiver.waitFor(1, 30_000);
    const started = receiver.received[0] as ReceivedWebhook;
    expect(expectSignedWith(started, secrets[0] as string)).to.include({ event: 'campaign.started', campaign_id: campaignId });
  });

  it('during the 24 h after a rotation: X-Service-Signature with the new secret, -Previous and a second webhook-signature entry with the old', async () => {
    const rotated = await rotateWebhookSecret(t.db.sequelize, accountId);
    secrets.push(rotated.secret);
    const [old, current] = secrets as [string, string];
    expect(rotated.secret).to.not.equal(old);
    expect(rotated.previousSecret).to.equal(old);
    expect((rotated.previousSecretExpiresAt as Date).getTime()).to.be.closeTo(Date.now() + ROTATION_OVERLAP_MS, 60_000);

    const paused = await pauseAndReceive(2);
    expectSignedDuringOverlap(paused, current, old);
    await api.resume(apiKey, campaignId);
  });

  it('once the overlap is over (24 h later, simulated in the database), only the new secret signs', async () => {
    await t.db.sequelize.query(`UPDATE webhook_settings SET previous_secret_expires_at = now() - interval '1 second' WHERE account_id = $1`, { bind: [accountId] });
    const settings = await webhookSettings(t.db.sequelize, accountId);
    expect(settings.previousSecret, 'the expired secret is no longer a setting').to.equal(null);
    const [old, current] = secrets as [string, string];

    const paused = await pauseAndReceive(3);
    expectSignedWith(paused, current);
    expect(standardVerifies(paused, old), 'a receiver still on the old secret is refused').to.equal(false);
    expect(specSignatureVerifies(paused.rawBody, header(paused, 'x-service-signature'), old)).to.equal(false);
    await api.resume(apiKey, campaignId);
  });

  it('a retry after a rotation is signed with the secrets current at the retry (1 min after the failure)', async function () {
    this.timeout(150_000);
    const failing = receiver.received.length; // the next request fails, the ones after it succeed
    receiver.answer = (n) => (n === failing ? 500 : 200);
    const first = await pauseAndReceive(failing + 1);
    const [, before] = secrets as [string, string];
    const event = expectSignedWith(first, before);
    expect(first.status).to.equal(500);
    const retrying = await until('the delivery retrying, with its retry workflow', async () => {
      const [d] = await deliveriesOf(t.db.sequelize, event.id);
      return d?.status === 'retrying' && d.retry_workflow_id !== null ? d : undefined;
    }, 30_000);

    // Rotated while the delivery waits for its first retry.
    const rotated = await rotateWebhookSecret(t.db.sequelize, accountId);
    secrets.push(rotated.secret);
    const [, previous, current] = secrets as [string, string, string];

    await receiver.waitFor(failing + 2, 90_000);
    const retry = receiver.received[failing + 1] as ReceivedWebhook;
    expect(retry.status).to.equal(200);
    expect(retry.rawBody.equals(first.rawBody), 'the same body').to.equal(true);
    expect(expectSignedDuringOverlap(retry, current, previous).id).to.equal(event.id);
    expect(standardVerifies(retry, secrets[0] as string), 'the secret that expired earlier does not sign').to.equal(false);

    const delivered = await until('the delivery delivered', async () => {
      const [d] = await deliveriesOf(t.db.sequelize, event.id);
      return d?.status === 'delivered' ? d : undefined;
    }, 30_000);
    expect(delivered.id).to.equal(retrying.id);
    expect((await attemptsOf(t.db.sequelize, delivered.id)).map((a) => [a.number, a.status_code, a.succeeded])).to.deep.equal([
      [1, 500, false],
      [2, 200, true],
    ]);
  });
});

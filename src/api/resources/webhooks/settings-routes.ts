import { webhookSecretProblem } from '../../../webhooks/secrets';
import { rotateWebhookSecret, setWebhookUrl, webhookSettings } from '../../../webhooks/webhook-settings-repository';
import { normalizeWebhookUrl, webhookUrlProblem } from '../../../webhooks/webhook-url';
import { badRequest } from '../../http/errors';
import { defineRoute } from '../../http/route';
import { RotateSecretBody, WebhookSettingsPatch, WebhookSettingsResponse } from './schemas';
import { settingsView } from './views';

const SIGNING =
  'Every event is a POST with Content-Type application/json and X-Service-Signature: `sha256=<lowercase hex HMAC-SHA256 of the raw body, ' +
  'keyed with the whole secret string>`. Compare it in constant time. The Standard Webhooks headers webhook-id, webhook-timestamp and ' +
  'webhook-signature are sent too, for receivers using a Standard Webhooks library with the same secret.';

const getSettings = defineRoute({
  method: 'get',
  path: '/v1/webhook-settings',
  auth: 'b',
  operationId: 'getWebhookSettings',
  summary: "The account's webhook settings: global URL and signing secret (in full)",
  description:
    'The global URL receives the events of every campaign of the account (a campaign may also name its own reporting.webhook_url; an event ' +
    'goes to each distinct URL once). The secret is created on first use and shown in full, because receivers need it to verify signatures. ' +
    SIGNING,
  tags: ['webhooks'],
  responses: { 200: { description: 'The settings', schema: WebhookSettingsResponse } },
  handler: async (_input, { deps, auth }) => ({ body: settingsView(await webhookSettings(deps.sequelize, auth.accountId)) }),
});

const patchSettings = defineRoute({
  method: 'patch',
  path: '/v1/webhook-settings',
  auth: 'b',
  operationId: 'updateWebhookSettings',
  summary: 'Set or clear the global webhook URL',
  description:
    'The URL must be an absolute https URL without credentials, and its host must not be a private, loopback, link-local, reserved or cloud ' +
    'metadata address (in any spelling: 2130706433, 0177.0.0.1, [::ffff:7f00:1] are 127.0.0.1) nor a localhost name: a 400 names the reason. ' +
    'A name that resolves to such an address is refused when a delivery is attempted: the delivery fails at once, not retried. ' +
    'The URL is stored in normalised form (e.g. a lowercase host). It applies to events ' +
    'dispatched from now on; deliveries already made keep their URL. null clears it (campaigns with their own reporting.webhook_url still ' +
    'receive their events). Send a test event (POST /v1/webhooks/test) to check the endpoint.',
  tags: ['webhooks'],
  body: WebhookSettingsPatch,
  responses: { 200: { description: 'The settings after the change', schema: WebhookSettingsResponse } },
  errors: [400],
  handler: async ({ body }, { deps, auth }) => {
    let url: string | null = null;
    if (body.url !== null) {
      const problem = webhookUrlProblem(body.url, deps.config.allowLoopbackEgress);
      if (problem !== null) throw badRequest(`url ${problem}`);
      url = normalizeWebhookUrl(body.url);
    }
    return { body: settingsView(await setWebhookUrl(deps.sequelize, auth.accountId, url)) };
  },
});

const rotateSecret = defineRoute({
  method: 'post',
  path: '/v1/webhook-settings/rotate-secret',
  auth: 'b',
  operationId: 'rotateWebhookSecret',
  summary: 'Replace the signing secret; the old one keeps signing for 24 hours',
  description:
    'The new secret (generated, or yours) signs every attempt from now on, retries of earlier events included. For 24 hours the previous ' +
    'secret signs as well, in X-Service-Signature-Previous (and as a second webhook-signature), so receivers can switch at their own pace; ' +
    'previousSecretExpiresAt says until when. A second rotation within those hours drops the oldest secret: at most two sign.',
  tags: ['webhooks'],
  body: RotateSecretBody,
  responses: { 200: { description: 'The settings with the new secret and the previous one', schema: WebhookSettingsResponse } },
  errors: [400],
  handler: async ({ body }, { deps, auth }) => {
    if (body.secret !== undefined) {
      const problem = webhookSecretProblem(body.secret);
      if (problem !== null) throw badRequest(`secret ${problem}`);
    }
    return { body: settingsView(await rotateWebhookSecret(deps.sequelize, auth.accountId, body.secret)) };
  },
});

export const webhookSettingsRoutes = [getSettings, patchSettings, rotateSecret];

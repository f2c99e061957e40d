import { Type } from '@sinclair/typebox';
import { AccountService, KeyNotFound, type IssuedKey, type KeySummary } from '../../../accounts/account-service';
import { NotFoundError } from '../../../errors/domain-errors';
import { Timestamp } from '../../http/common-schemas';
import { defineRoute } from '../../http/route';

/** Key management for the dashboard's API keys page (camelCase: it lives under /v1). */
const KeySummarySchema = Type.Object(
  {
    id: Type.String(),
    prefix: Type.String({ description: 'The visible start of the key, to tell keys apart.' }),
    label: Type.Union([Type.String(), Type.Null()]),
    createdAt: Timestamp,
    lastUsedAt: Type.Union([Timestamp, Type.Null()], { description: 'Recorded to the minute.' }),
    revokedAt: Type.Union([Timestamp, Type.Null()]),
  },
  { additionalProperties: false },
);

const iso = (d: Date | null): string | null => (d === null ? null : d.toISOString());
const render = (k: KeySummary) => ({
  id: k.keyId,
  prefix: k.prefix,
  label: k.label,
  createdAt: k.createdAt.toISOString(),
  lastUsedAt: iso(k.lastUsedAt),
  revokedAt: iso(k.revokedAt),
});

const listKeys = defineRoute({
  method: 'get',
  path: '/v1/api-keys',
  auth: 'b',
  operationId: 'listApiKeys',
  summary: 'List the account\'s API keys (never their secrets)',
  tags: ['account'],
  responses: { 200: { description: 'Keys, oldest first', schema: Type.Object({ keys: Type.Array(KeySummarySchema) }, { additionalProperties: false }) } },
  handler: async (_input, { deps, auth }) => {
    const keys = await new AccountService(deps.sequelize).listKeys(auth.accountId);
    return { body: { keys: keys.map(render) } };
  },
});

const createKey = defineRoute({
  method: 'post',
  path: '/v1/api-keys',
  auth: 'b',
  operationId: 'createApiKey',
  summary: 'Issue a new API key; the full key is in this response only',
  tags: ['account'],
  body: Type.Object({ label: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })) }, { additionalProperties: false }),
  responses: {
    201: {
      description: 'The new key',
      schema: Type.Object({ id: Type.String(), prefix: Type.String(), apiKey: Type.String(), createdAt: Timestamp }, { additionalProperties: false }),
    },
  },
  handler: async ({ body }, { deps, auth }) => {
    const key: IssuedKey = await new AccountService(deps.sequelize).issueKey(auth.accountId, body.label ?? null);
    return { status: 201, body: { id: key.keyId, prefix: key.prefix, apiKey: key.apiKey, createdAt: key.createdAt.toISOString() } };
  },
});

const revokeKey = defineRoute({
  method: 'post',
  path: '/v1/api-keys/:keyId/revoke',
  auth: 'b',
  operationId: 'revokeApiKey',
  summary: 'Revoke an API key at once (idempotent)',
  tags: ['account'],
  params: Type.Object({ keyId: Type.String({ minLength: 1, maxLength: 64 }) }, { additionalProperties: false }),
  errors: [404],
  responses: { 200: { description: 'The revoked key', schema: KeySummarySchema } },
  handler: async ({ params }, { deps, auth }) => {
    try {
      return { body: render(await new AccountService(deps.sequelize).revokeKey(params.keyId, auth.accountId)) };
    } catch (err) {
      if (err instanceof KeyNotFound) throw new NotFoundError('api_key');
      throw err;
    }
  },
});

export const apiKeyRoutes = [listKeys, createKey, revokeKey];

import { Type, type Static } from '@sinclair/typebox';
import Ajv from 'ajv';
import { MODEL_NAME_PATTERN } from '../ai/defaults';
import { SECRET_MAX_LENGTH, SECRET_MIN_LENGTH, SECRET_PATTERN, SETTING_FIELDS, type IntegrationPatch } from './fields';

const secret = (description: string) =>
  Type.Optional(
    Type.Union([Type.String({ minLength: SECRET_MIN_LENGTH, maxLength: SECRET_MAX_LENGTH, pattern: SECRET_PATTERN }), Type.Null()], {
      description: `${description} Null clears it.`,
    }),
  );

const model = (description: string) =>
  Type.Optional(Type.Union([Type.String({ pattern: MODEL_NAME_PATTERN }), Type.Null()], { description: `${description} Null: the default model.` }));

/**
 * The body of `PATCH /v1/integrations`, and what the CLI's `integrations set` checks its flags
 * against: one definition, so both accept and refuse the same values.
 */
export const IntegrationPatchSchema = Type.Object(
  {
    apolloApiKey: secret('API key of the Apollo-compatible lead provider.'),
    openaiApiKey: secret('OpenAI API key, used to write emails and qualify replies.'),
    openaiModel: model('OpenAI model, e.g. gpt-4o-mini.'),
    anthropicApiKey: secret('Anthropic API key, used to write emails and qualify replies.'),
    anthropicModel: model('Anthropic model, e.g. claude-haiku-4-5.'),
    // An enum rather than a union of literals, so that a wrong value is answered with the allowed ones.
    llmProvider: Type.Optional(
      Type.Unsafe<'openai' | 'anthropic' | null>({
        type: ['string', 'null'],
        enum: ['openai', 'anthropic', null],
        description: 'Which key to use when both are set (null: OpenAI). With one key, that provider is used.',
      }),
    ),
    calcomWebhookSecret: secret('Secret of the Cal.com webhook (X-Cal-Signature-256).'),
    calendlySigningKey: secret('Signing key of the Calendly webhook subscription (Calendly-Webhook-Signature).'),
  },
  { additionalProperties: false },
);

export type IntegrationPatchBody = Static<typeof IntegrationPatchSchema>;

const validate = new Ajv({ allErrors: false, strict: false }).compile(IntegrationPatchSchema);

/** A patch from outside the HTTP layer (the CLI): null when valid, else what is wrong with which field. */
export function patchProblem(patch: IntegrationPatch): { field: string; message: string } | null {
  if (validate(patch)) return null;
  const err = validate.errors?.[0];
  const field = err?.instancePath.replace(/^\//, '') ?? '';
  if (err?.keyword === 'enum') {
    const allowed = (err.params as { allowedValues: unknown[] }).allowedValues.filter((v) => v !== null);
    return { field, message: `must be one of ${allowed.join(', ')}` };
  }
  return { field, message: err?.message ?? 'is invalid' };
}

/** Fields present in a patch, in a stable order. */
export function patchedFields(patch: IntegrationPatch): (typeof SETTING_FIELDS)[number][] {
  return SETTING_FIELDS.filter((f) => patch[f] !== undefined);
}

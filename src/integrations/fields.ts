import type { LlmProviderName } from '../ai/types';

/** An account's integration settings as stored: secrets in clear, because the service must use them. */
export interface IntegrationSettings {
  readonly apolloApiKey: string | null;
  readonly openaiApiKey: string | null;
  readonly openaiModel: string | null;
  readonly anthropicApiKey: string | null;
  readonly anthropicModel: string | null;
  readonly llmProvider: LlmProviderName | null;
  readonly calcomWebhookSecret: string | null;
  readonly calendlySigningKey: string | null;
  /** Null when the account never saved any setting. */
  readonly updatedAt: Date | null;
}

/** A change: a field set to null is cleared, a field left out is kept. */
export type IntegrationPatch = { -readonly [K in SettingField]?: IntegrationSettings[K] };

export const SECRET_FIELDS = ['apolloApiKey', 'openaiApiKey', 'anthropicApiKey', 'calcomWebhookSecret', 'calendlySigningKey'] as const;
export const MODEL_FIELDS = ['openaiModel', 'anthropicModel'] as const;
export const SETTING_FIELDS = [...SECRET_FIELDS, ...MODEL_FIELDS, 'llmProvider'] as const;

export type SecretField = (typeof SECRET_FIELDS)[number];
export type SettingField = (typeof SETTING_FIELDS)[number];

/** Column of each field in `account_integrations`. */
export const COLUMN: Readonly<Record<SettingField, string>> = {
  apolloApiKey: 'apollo_api_key',
  openaiApiKey: 'openai_api_key',
  openaiModel: 'openai_model',
  anthropicApiKey: 'anthropic_api_key',
  anthropicModel: 'anthropic_model',
  llmProvider: 'llm_provider',
  calcomWebhookSecret: 'calcom_webhook_secret',
  calendlySigningKey: 'calendly_signing_key',
};

/**
 * Secrets are 16 to 512 characters without whitespace. 16 is the floor because the settings show
 * the last four characters back; on anything shorter that would give away too much of it.
 */
export const SECRET_MIN_LENGTH = 16;
export const SECRET_MAX_LENGTH = 512;
export const SECRET_PATTERN = '^\\S+$';

export const EMPTY_SETTINGS: IntegrationSettings = {
  apolloApiKey: null,
  openaiApiKey: null,
  openaiModel: null,
  anthropicApiKey: null,
  anthropicModel: null,
  llmProvider: null,
  calcomWebhookSecret: null,
  calendlySigningKey: null,
  updatedAt: null,
};

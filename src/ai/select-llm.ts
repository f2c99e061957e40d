import type { Sequelize } from 'sequelize';
import type { IntegrationSettings } from '../integrations/fields';
import { readIntegrations } from '../integrations/integration-repository';
import type { LlmIntegration } from './types';

type LlmSettings = Pick<IntegrationSettings, 'openaiApiKey' | 'openaiModel' | 'anthropicApiKey' | 'anthropicModel' | 'llmProvider'>;

/**
 * Which LLM an account's settings call for, or null when it has no key (the caller then uses its
 * built-in, deterministic path). With both keys, `llmProvider` chooses (OpenAI when unset); with
 * one key, that provider is used whatever `llmProvider` says: a preference for a provider without
 * a key cannot be honoured, and silently falling back to built-in would hide a configured key.
 */
export function chooseLlm(s: LlmSettings): LlmIntegration | null {
  const openai = s.openaiApiKey === null ? null : { provider: 'openai' as const, apiKey: s.openaiApiKey, model: s.openaiModel };
  const anthropic = s.anthropicApiKey === null ? null : { provider: 'anthropic' as const, apiKey: s.anthropicApiKey, model: s.anthropicModel };
  if (openai !== null && anthropic !== null) return s.llmProvider === 'anthropic' ? anthropic : openai;
  return openai ?? anthropic;
}

/** `chooseLlm` on the account's stored settings (`account_integrations`). */
export async function selectLlm(sequelize: Sequelize, accountId: string): Promise<LlmIntegration | null> {
  return chooseLlm(await readIntegrations(sequelize, accountId));
}

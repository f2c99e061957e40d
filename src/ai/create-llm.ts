import { createAnthropicLlm } from './anthropic-llm';
import { DEFAULT_MODELS } from './defaults';
import { createOpenAiLlm } from './openai-llm';
import type { FetchLike, Llm, LlmConfig, LlmIntegration } from './types';

/**
 * An LLM client for one account's integration: its key, its model (or the provider's default),
 * the configured base URL (OPENAI_BASE_URL / ANTHROPIC_BASE_URL), and the given fetch. Cheap to
 * create: make one per activity call rather than caching clients that hold a customer's key.
 */
export function createLlm(integration: LlmIntegration, config: LlmConfig, fetch: FetchLike): Llm {
  const model = integration.model ?? DEFAULT_MODELS[integration.provider];
  if (integration.provider === 'openai') return createOpenAiLlm({ apiKey: integration.apiKey, model, baseURL: config.openaiBaseUrl, fetch });
  return createAnthropicLlm({ apiKey: integration.apiKey, model, baseURL: config.anthropicBaseUrl, fetch });
}
